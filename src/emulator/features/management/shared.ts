/**
 * What every part of the management feature shares: the one home of cursor lists
 * ({@link paginate}), the auth middlewares of the management API, the registry of deployments, the
 * access of a caller (interface 4.1 rules 5-6), body validation with the protocol's schemas (one
 * style: a 400 `{ error, problems }` in the endpoint's error shape), and the wire shapes of
 * workbooks and dashboards that several parts answer.
 *
 * @module
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { validateBody, type EmbedAccessAction } from '../../../core/protocol/management';
import { isRecord, type ValidationResult } from '../../../core/protocol/shared';
import type { Dashboard, DashboardConfig, FolderPathEntry, PageInfo, Workbook } from '../../../core/protocol/workbook';
import { requireApiKey } from '../../auth';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonError, jsonResponse, readJson } from '../../http';
import type { DashboardRecord, WorkbookRecord } from '../../state';
import { MAX_MANAGEMENT_BODY_BYTES, parseDeploymentId, type WorldApiKey } from '../../world';

// ---------------------------------------------------------------------------------------------
// Pagination (the one home of the emulator's cursor lists)
// ---------------------------------------------------------------------------------------------
export const DEFAULT_PAGE_SIZE = 50;
/** Largest page; a larger `first` is clamped to it. */
export const MAX_PAGE_SIZE = 100;

/** A sort key: compared element by element; the last element should be a unique id. */
export type SortKey = readonly (string | number | null)[];

/** Options of {@link paginate}. */
export interface PaginateOptions<T, W> {
  /** Every item of the list, filtered but in any order. */
  items: Iterable<T>;
  /** Names the list and its sort in cursors, so a cursor of another list or sort is refused. */
  tag: string;
  /** The item's sort key. */
  key: (item: T) => SortKey;
  /** Direction of the whole key. Default `asc`. `null`s sort last in both directions. */
  order?: 'asc' | 'desc';
  /** Raw `first` query parameter. */
  first: string | undefined;
  /** Raw `after` query parameter. */
  after: string | undefined;
  /** `false` when cursor paging is unavailable (reports by `lastViewedAt`): `after` is refused. Default `true`. */
  cursors?: boolean;
  /** Turns an item into its wire shape. */
  toWire: (item: T) => W;
}

/** A page of a list (behaviour 4). */
export interface ListBody<W> {
  /** The items of this page, in the list's order. */
  items: W[];
  /** Cursors of this page; `endCursor` is the `after` of the next page. */
  pageInfo: PageInfo;
  /** @deprecated Same as `items` (0.1.0, 0.1.1). */
  data: W[];
  /** @deprecated Number of items on this page. */
  count: number;
}

export function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = String(a);
  const right = String(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

function compareKeys(a: SortKey, b: SortKey, order: 'asc' | 'desc'): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const left = a[index] ?? null;
    const right = b[index] ?? null;
    const compared = compareValues(left, right);
    if (compared === 0) continue;
    // Nulls stay last whatever the direction.
    if (left === null || right === null) return compared;
    return order === 'asc' ? compared : -compared;
  }
  return 0;
}

function encodeCursor(tag: string, key: SortKey): string {
  return Buffer.from(JSON.stringify({ t: tag, k: key }), 'utf8').toString('base64url');
}

function decodeCursor(tag: string, cursor: string): SortKey | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!isRecord(value) || value['t'] !== tag || !Array.isArray(value['k'])) return undefined;
    const key = value['k'] as unknown[];
    return key.every((part) => part === null || typeof part === 'string' || typeof part === 'number')
      ? (key as SortKey)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Reads `first`: a whole number of 1 or more (400 otherwise), clamped to {@link MAX_PAGE_SIZE}. */
export function parseFirst(first: string | undefined): number {
  if (first === undefined) return DEFAULT_PAGE_SIZE;
  if (!/^\d+$/.test(first.trim()) || Number(first) < 1)
    throw httpError(400, `first: must be a whole number of 1 or more (got ${JSON.stringify(first)})`);
  return Math.min(Number(first), MAX_PAGE_SIZE);
}

/**
 * One page of a cursor list: sorts `items` by `key`, starts after the `after` cursor, takes
 * `first`. Throws 400 for a bad `first` or a cursor this list did not issue.
 */
export function paginate<T, W>(options: PaginateOptions<T, W>): ListBody<W> {
  const order = options.order ?? 'asc';
  const useCursors = options.cursors ?? true;
  const first = parseFirst(options.first);
  const sorted = [...options.items]
    .map((item) => ({ item, key: options.key(item) }))
    .sort((a, b) => compareKeys(a.key, b.key, order));
  let start = 0;
  if (options.after !== undefined) {
    if (!useCursors) throw httpError(400, 'after: cursor paging is not available with this sort');
    const after = decodeCursor(options.tag, options.after);
    if (!after)
      throw httpError(
        400,
        'after: not a cursor of this list; pass pageInfo.endCursor of the previous page (same list, same sort)',
      );
    start = sorted.findIndex((entry) => compareKeys(entry.key, after, order) > 0);
    if (start === -1) start = sorted.length;
  }
  const page = sorted.slice(start, start + first);
  const items = page.map((entry) => options.toWire(entry.item));
  const cursor = (entry: (typeof page)[number] | undefined) =>
    entry && useCursors ? encodeCursor(options.tag, entry.key) : null;
  return {
    items,
    pageInfo: {
      hasNextPage: start + page.length < sorted.length,
      hasPreviousPage: start > 0,
      startCursor: cursor(page[0]),
      endCursor: cursor(page[page.length - 1]),
    },
    data: items,
    count: items.length,
  };
}

// ---------------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------------

/** `path` and `path/`: collection paths of the interface end in a slash, clients often drop it. */
export function withSlash(path: string): string[] {
  return [path, `${path}/`];
}

/** One page of a list as the answer of the request: `first` and `after` are read from its query. */
export function listAnswer<T, W>(
  c: Context<EmulatorEnv>,
  options: Omit<PaginateOptions<T, W>, 'first' | 'after'>,
): Response {
  return jsonResponse(200, paginate({ ...options, first: c.req.query('first'), after: c.req.query('after') }));
}

/** 204, no body. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** ISO 8601 of a time in Unix milliseconds. */
export function iso(time: number): string {
  return new Date(time).toISOString();
}

/** A path id: digits only, else `undefined` (which the handlers answer with 404). */
export function parseId(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** Structural equality of JSON values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => deepEqual(item, b[index]))
    );
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
  );
}

// ---------------------------------------------------------------------------------------------
// Validation: the protocol's schemas, one error shape
// ---------------------------------------------------------------------------------------------

/** A 400 `{ error, problems }`: what a validator found, every problem at once. */
export function invalid(problems: readonly string[]): Error {
  return jsonError(400, { error: problems.join('; '), problems });
}

/** The value of a validation, or the 400 of {@link invalid}. */
export function valid<T>(result: ValidationResult<T>): T {
  if (!result.ok) throw invalid(result.problems);
  return result.value;
}

/** Reads the JSON body (at most the management limit) and checks it with a protocol validator. */
export async function readValid<T>(c: Context, check: (input: unknown) => ValidationResult<T>): Promise<T> {
  return valid(check(await readJson(c, MAX_MANAGEMENT_BODY_BYTES)));
}

/** Reads the JSON body and checks it with a protocol schema (`validateBody`). */
export function readSchema<T>(c: Context, schema: v.GenericSchema<unknown, T>): Promise<T> {
  return readValid(c, (input) => validateBody(schema, input));
}

// ---------------------------------------------------------------------------------------------
// Auth and access (interface 5; 4.1 rules 5-6)
// ---------------------------------------------------------------------------------------------

/** The deployment of the path, when it names one. */
export function deploymentParam(c: Context<EmulatorEnv>): number | undefined {
  return parseDeploymentId(c.req.param('deploymentId'));
}

/** The key of an authenticated request. */
export function apiKeyOf(c: Context<EmulatorEnv>): WorldApiKey {
  const caller = c.get('caller');
  if (caller.kind !== 'apiKey') throw httpError(401, 'An API key is required');
  return caller.apiKey;
}

/** The middlewares of the management API. */
export interface ManagementAuth {
  /** `Bearer`, any key; a scoped key only on its deployments (the path's). */
  bearer: MiddlewareHandler<EmulatorEnv>;
  /** `Bearer`, admin keys only (403 for a personal key); a scoped key only on its deployments. */
  admin: MiddlewareHandler<EmulatorEnv>;
  /** `Api-Key`, admin keys only: the embed-tenant admin of 4.3. */
  embedAdmin: MiddlewareHandler<EmulatorEnv>;
}

/** The auth middlewares of one emulator. */
export function managementAuth(context: EmulatorContext): ManagementAuth {
  return {
    bearer: requireApiKey(context, { scheme: 'Bearer', deploymentId: deploymentParam }),
    admin: requireApiKey(context, { scheme: 'Bearer', admin: true, deploymentId: deploymentParam }),
    embedAdmin: requireApiKey(context, { scheme: 'Api-Key', admin: true }),
  };
}

/** What the caller may do, from its key and (for personal keys) its internal user's role. */
export interface Actor {
  /** The internal user the key acts as. */
  userId: number;
  /** Admin key or admin user: every access. */
  full: boolean;
  /** AI BI User or higher (editor): may create workbooks and edit folders. */
  creator: boolean;
}

/** The {@link Actor} of an authenticated request. */
export function actorOf(context: EmulatorContext, c: Context<EmulatorEnv>): Actor {
  const key = apiKeyOf(c);
  if (key.role === 'admin') return { userId: key.userId, full: true, creator: true };
  const role = context.state.internalUsers.get(key.userId)?.role;
  return { userId: key.userId, full: role === 'admin', creator: role === 'admin' || role === 'editor' };
}

/** Edit access to a workbook (4.1 rule 5): full access, or an editor on what they created. */
export const canEditWorkbook = (actor: Actor, workbook: { createdBy: number }) =>
  actor.full || (actor.creator && workbook.createdBy === actor.userId);
/** Manage access to a workbook: the same people as edit access in this world. */
export const canManageWorkbook = canEditWorkbook;
/** Edit access to folders: editors and admins. */
export const canEditFolder = (actor: Actor) => actor.full || actor.creator;

// ---------------------------------------------------------------------------------------------
// Deployments: the world's, and those created through the API
// ---------------------------------------------------------------------------------------------

/** A deployment as the management API knows it. */
export interface DeploymentRecord {
  id: number;
  name: string;
  cloudProvider: string | null;
  creationMethod: string | null;
  deployMode: string | null;
  regionId: string | null;
  createdAt: number;
  updatedAt: number;
  /** A deployment of the fixed world (data, chat and embeds serve it): it cannot be deleted. */
  fixed: boolean;
  /** Index of the setup wizard's current step. */
  creationStep: number;
}

const DEPLOYMENTS = Symbol('emulator.management.deployments');

/** The deployments of this start, by id: the world's, then those created since. */
export function deploymentsOf(context: EmulatorContext): Map<number, DeploymentRecord> {
  return context.state.featureState(DEPLOYMENTS, () => {
    const now = context.clock.now();
    return new Map(
      context.world.deployments.map((deployment) => [
        deployment.id,
        {
          id: deployment.id,
          name: deployment.name,
          cloudProvider: 'aws',
          creationMethod: 'git',
          deployMode: 'git',
          regionId: context.world.regions[0]?.id ?? null,
          createdAt: now,
          updatedAt: now,
          fixed: true,
          creationStep: context.world.creationSteps.length - 1,
        },
      ]),
    );
  });
}

/** The deployment of the path, or 404. */
export function requireDeployment(context: EmulatorContext, c: Context<EmulatorEnv>): DeploymentRecord {
  const id = deploymentParam(c);
  const deployment = id === undefined ? undefined : deploymentsOf(context).get(id);
  if (!deployment) throw httpError(404, `Deployment ${c.req.param('deploymentId') ?? ''} not found`);
  return deployment;
}

// ---------------------------------------------------------------------------------------------
// Wire shapes several parts answer
// ---------------------------------------------------------------------------------------------

function folderPath(context: EmulatorContext, folderId: number | null): FolderPathEntry[] {
  const path: FolderPathEntry[] = [];
  const seen = new Set<number>();
  for (let id = folderId; id !== null && !seen.has(id);) {
    seen.add(id);
    const folder = context.state.folders.get(id);
    if (!folder) break;
    path.unshift({ id: folder.id, name: folder.name });
    id = folder.parentId;
  }
  return path;
}

/**
 * The checksum of a dashboard's config: what `ai-widget-thread` compares a caller's `checksum`
 * with, answered as the dashboard's `checksum` (the first 16 hex digits of its SHA-256).
 */
export function dashboardChecksum(dashboard: DashboardRecord): string {
  return createHash('sha256').update(JSON.stringify(dashboard.config)).digest('hex').slice(0, 16);
}

/** The Dashboard (2.4) of a stored record, with the emulator's `checksum`. */
export function dashboardWire(dashboard: DashboardRecord): Dashboard & { checksum: string } {
  return {
    checksum: dashboardChecksum(dashboard),
    id: dashboard.id,
    publicId: dashboard.publicId,
    deploymentId: dashboard.deploymentId,
    workbookId: dashboard.workbookId,
    status: dashboard.status,
    allowEmbed: dashboard.allowEmbed,
    config: structuredClone(dashboard.config),
    versionNumber: dashboard.versionNumber,
    versionId: dashboard.versionId,
    reportSnapshots: [],
    createdBy: dashboard.createdBy,
    title: dashboard.config.title ?? null,
    description: dashboard.config.description ?? null,
  };
}

/** The Workbook (2.1) of a stored record. */
export function workbookWire(context: EmulatorContext, record: WorkbookRecord): Workbook {
  const dashboard =
    record.dashboardPublicId === null ? undefined : context.state.dashboards.get(record.dashboardPublicId);
  const owner = context.state.internalUsers.get(record.createdBy);
  const draft = record.meta['dashboardDraft'];
  return {
    id: record.id,
    deploymentId: record.deploymentId,
    name: record.name,
    meta: structuredClone(record.meta),
    calculatedFields: structuredClone(record.calculatedFields),
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    type: 'WORKBOOK',
    createdBy: record.createdBy,
    dashboardDraft: isRecord(draft) ? (structuredClone(draft) as DashboardConfig) : null,
    dashboardPublished: dashboard ? structuredClone(dashboard.config) : null,
    folderId: record.folderId,
    folderPath: folderPath(context, record.folderId),
    isFavorite: false,
    publishedDashboard: dashboard ? dashboardWire(dashboard) : null,
    slug: record.slug,
    user: owner ? { id: owner.id, email: owner.email, firstName: owner.firstName, picture: null } : null,
    userId: record.createdBy,
  };
}

// ---------------------------------------------------------------------------------------------
// Workbook embed access (4.6), shared by the workspace (which sets it) and the embed-tenant
// admin (which drops a deleted tenant's entries)
// ---------------------------------------------------------------------------------------------

interface EmbedAccessEntry {
  allEmbedUsers: EmbedAccessAction;
  embedTenants: Map<string, EmbedAccessAction>;
}

const EMBED_ACCESS = Symbol('emulator.management.embedAccess');

/** Embed access by workbook id. */
export function embedAccessState(context: EmulatorContext): Map<number, EmbedAccessEntry> {
  return context.state.featureState(EMBED_ACCESS, () => new Map<number, EmbedAccessEntry>());
}

/**
 * The effective embed access of an embed tenant to a workbook: the tenant's own entry, else the
 * all-embed-users entry, else `none`. For the embed pages (which workbooks a creator-mode app lists).
 */
export function embedAccessFor(
  context: EmulatorContext,
  workbookId: number,
  embedTenantName: string,
): EmbedAccessAction {
  const access = embedAccessState(context).get(workbookId);
  return access?.embedTenants.get(embedTenantName) ?? access?.allEmbedUsers ?? 'none';
}

/** Removes a workbook with its published dashboard and its embed access. */
export function deleteWorkbook(context: EmulatorContext, workbook: WorkbookRecord): void {
  context.state.workbooks.delete(workbook.id);
  if (workbook.dashboardPublicId !== null) context.state.dashboards.delete(workbook.dashboardPublicId);
  embedAccessState(context).delete(workbook.id);
}
