/**
 * The management API the library talks to (interface 2.1–2.6, 3, 4.1, 4.3, 4.6, 5, 7, 9;
 * behaviour 4), with real state:
 *
 * | method | path | auth |
 * |---|---|---|
 * | GET | `/api/v1/deployments/` (also without the slash) | Bearer, any key |
 * | PUT | `/api/v1/deployments/{id}/workbooks/by-slug/{slug}` | Bearer, see access below |
 * | GET | `/api/v1/deployments/{id}/workbooks`, `/folders`, `/reports` | Bearer, any key |
 * | GET, PUT | `/api/v1/deployments/{id}/workbooks/{workbookId}/embed-access` | Bearer; PUT needs manage access |
 * | PATCH | `/api/v1/embed/dashboard/{publicId}` | Bearer, admin key |
 * | GET | `/api/v1/embed-tenants/` (also without the slash) | Api-Key, admin |
 * | DELETE | `/api/v1/embed-tenants/{name}` (no trailing slash: 404 with one, 0.3.0) | Api-Key, admin |
 * | GET | `/api/v1/embed-tenants/{name}/users` | Api-Key, admin |
 * | GET, POST | `/api/v1/embed-tenants/{name}/groups` | Api-Key, admin |
 * | GET, PATCH, DELETE | `/api/v1/embed-tenants/{name}/groups/{id}` | Api-Key, admin |
 * | GET, POST, DELETE | `/api/v1/embed-tenants/{name}/groups/{id}/users` | Api-Key, admin |
 * | POST, DELETE | `/__emulator/upsert-conflicts` | none (test control, see below) |
 *
 * Errors are `{"error": message}` plus `code` where the interface names one, and `problems` when a
 * validator found several (behaviour 4). 401 for a missing, malformed (wrong scheme) or unknown
 * key; 403 for a scoped key on another deployment (checked before the deployment's existence, so a
 * scoped key learns nothing about other deployments), for a personal key on an admin endpoint and
 * for missing access; 404 for an unknown deployment, workbook, dashboard, embed tenant or group
 * named in the path; 400 for a bad body or query, and for an unknown thing named in the body
 * (a folder, an embed tenant, a user): choice, a body that names what does not exist is invalid.
 *
 * Access (4.1 rules 5–6; the world has no per-item permissions, so these are the emulator's
 * choice): an admin key acts with full access. A personal key acts as its internal user (`ben`,
 * an editor): `admin` users have full access; `editor` (AI BI User or higher) may create
 * workbooks, has edit and manage access to the workbooks they created and edit access to every
 * folder; `viewer` may only read. Every key may read the lists of its deployments.
 *
 * Workbook upsert (4.1): the slug is normalised with `normalizeSlug` (400 when empty); the body
 * is checked with `validateCreateWorkbookInput` (400 `{ error, problems }`). On update only the
 * fields sent change: `name: null` and `meta: null` change nothing, `folderId: null` moves the
 * workbook to the top level, `meta` is merged shallowly (top-level keys of the body replace those
 * stored). On create the name defaults to the normalised slug. When nothing changes the workbook
 * is untouched, `updatedAt` included (rule 4). `folderId` must name a folder of the same deployment
 * (400) with edit access, and on update also needs manage access to the workbook. The answer is
 * the Workbook (2.1) with `type: 'WORKBOOK'`, `dashboardDraft` = `meta.dashboardDraft`, the
 * published dashboard, `folderPath` (the containing folder and its ancestors, outermost first).
 *
 * Check-then-apply (3, 4.1 rule 7): the handler decides the branch (the workbook holding the slug,
 * or none) and checks access, then yields to the event loop (a real gap where other requests and
 * the test control below run), then looks again: when another writer created or deleted the
 * workbook holding the slug meanwhile, it answers 409 `{"error", "code": "upsert_branch_changed"}`
 * and changes nothing; otherwise it applies synchronously.
 *
 * Test control for that 409, usable from another process: `POST /__emulator/upsert-conflicts`
 * with `{ "deploymentId": 1, "slug": "q3-review", "times": 1 }` (times defaults to 1; the slug is
 * normalised) answers 200 `{ deploymentId, slug, pending }` and makes the next `times` upserts of
 * that slug that reach the gap meet a concurrent writer there: on the create branch it creates a
 * workbook holding the slug, on the update branch it deletes the workbook holding the slug (and its
 * dashboard). Each such upsert answers 409; a retry then takes the other branch and succeeds.
 * `DELETE /__emulator/upsert-conflicts` clears every pending conflict (204). In-process:
 * {@link injectUpsertConflict}, {@link clearUpsertConflicts}, and {@link setUpsertGapHook}, which
 * holds upserts in the gap (for example until another request has written the slug).
 *
 * Lists (4.3, 4.6, behaviour 4): one helper, {@link paginate}. Query `first` (1 or more, default
 * {@link DEFAULT_PAGE_SIZE}, values above {@link MAX_PAGE_SIZE} are clamped) and `after` (an opaque
 * cursor: `pageInfo.endCursor` of the previous page, bound to the list and its sort; 400 for
 * anything else). Answer `{ items, pageInfo: { hasNextPage, hasPreviousPage, startCursor,
 * endCursor }, data, count }`, where the deprecated `data` repeats `items` and `count` is the
 * number of items on the page. Cursors are keyset cursors (sort key + id), so items created or
 * deleted between pages neither repeat nor shift the rest. The deployments list is `{ items }`
 * only, filtered to the key's deployments, limited by `first`.
 *
 * Orders and filters: workbooks and folders by id; embed tenants by name; users and groups by id.
 * Reports: `sortBy` `name` (ascending, case-insensitive), `createdAt` or `updatedAt` (newest first),
 * `lastViewedAt` (most recent first, never-viewed last; with it `after` is a 400 and the page has
 * null cursors, as cursor paging is unavailable); default by id. `search` matches names
 * case-insensitively; `folderId` keeps the reports of that folder; `externalWorkbookId` keeps the
 * reports connected to that external workbook (none in this emulator).
 *
 * Wire shapes where the interface shows none: deployment `{ id, name }`; folder `{ id,
 * deploymentId, name, parentId, type: 'FOLDER', createdAt }`; report `{ id, deploymentId,
 * publicId, name, folderId, sqlQuery, createdAt, updatedAt, lastViewedAt: null, type: 'REPORT' }`;
 * embed tenant `{ name, displayName, createdAt, userCount, groupCount }`; embed user `{ id
 * (the embedUserId), externalId, email, displayName, picture, groups, createdAt, updatedAt }`;
 * embed group `{ id, name, description, memberCount }`.
 *
 * Embed-tenant admin (4.3): `DELETE {name}` removes the tenant, its users, groups and embed-access
 * entries (204); the account itself (`acme`) is not an embed tenant (404). `POST groups` `{ name,
 * description? }` → 201 group (409 when the name exists). `PATCH groups/{id}` `{ name?,
 * description? }` (description `null` clears it; a rename carries the memberships) → 200 group.
 * `DELETE groups/{id}` → 204. Members: `POST` and `DELETE groups/{id}/users` with `{ externalId }`
 * or `{ embedUserId }` (exactly one; for DELETE also as query parameters) → 204, idempotent; the
 * user must belong to the tenant (400).
 *
 * Dashboard embedding: `PATCH /api/v1/embed/dashboard/{publicId}` with `{ "allowEmbed": boolean }`
 * → 200 Dashboard (2.4); admin key only (403 for a personal key), 403 for a scoped key outside the
 * dashboard's deployment.
 *
 * Workbook embed access: `GET` → `{ workbookId, allEmbedUsers: 'read'|'none', embedTenants:
 * [{ embedTenantName, action }] }`; `PUT` with `{ action: 'read'|'none', embedTenantName?: string
 * | null }` sets the access of that embed tenant (it must exist, 400), or of all embed users when
 * the name is absent or null, and answers the same shape. Default `none` for all embed users. The
 * effective access of a tenant ({@link embedAccessFor}) is its own entry, else the all-embed-users one.
 *
 * @module
 */
import { Buffer } from 'node:buffer';
import { Hono, type Context } from 'hono';
import { normalizeExternalId } from '../../core/protocol/session';
import { isRecord } from '../../core/protocol/shared';
import {
  UPSERT_BRANCH_CHANGED,
  validateCreateWorkbookInput,
  validateSlug,
  type Dashboard,
  type DashboardConfig,
  type FolderPathEntry,
  type PageInfo,
  type Workbook,
} from '../../core/protocol/workbook';
import { assertDeploymentAllowed, keyAllowsDeployment, requireApiKey } from '../auth';
import type { EmulatorContext, EmulatorEnv, EmulatorFeature } from '../context';
import { httpError, jsonError, jsonResponse, readJson } from '../http';
import {
  pruneExpiredExternalUsers,
  type DashboardRecord,
  type EmbedTenant,
  type ExternalUser,
  type Folder,
  type Group,
  type ReportRecord,
  type WorkbookRecord,
} from '../state';
import {
  MAX_MANAGEMENT_BODY_BYTES,
  findDeployment,
  parseDeploymentId,
  type WorldApiKey,
  type WorldDeployment,
} from '../world';

// ---------------------------------------------------------------------------------------------
// Pagination (the one home of the emulator's cursor lists)
// ---------------------------------------------------------------------------------------------

/** Page size when `first` is not given. */
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

function compareValues(a: string | number | null, b: string | number | null): number {
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

function iso(time: number): string {
  return new Date(time).toISOString();
}

/** A path id: digits only, else `undefined` (which the handlers answer with 404). */
function parseId(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
}

function deploymentParam(c: Context<EmulatorEnv>): number | undefined {
  return parseDeploymentId(c.req.param('deploymentId'));
}

function apiKeyOf(c: Context<EmulatorEnv>): WorldApiKey {
  const caller = c.get('caller');
  if (caller.kind !== 'apiKey') throw httpError(401, 'An API key is required');
  return caller.apiKey;
}

function requireDeployment(context: EmulatorContext, c: Context<EmulatorEnv>): WorldDeployment {
  const id = deploymentParam(c);
  const deployment = id === undefined ? undefined : findDeployment(context.world, id);
  if (!deployment) throw httpError(404, `Deployment ${c.req.param('deploymentId') ?? ''} not found`);
  return deployment;
}

function deepEqual(a: unknown, b: unknown): boolean {
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
// Access (4.1 rules 5-6)
// ---------------------------------------------------------------------------------------------

/** What the caller may do, from its key and (for personal keys) its internal user's role. */
interface Actor {
  userId: number;
  /** Admin key or admin user: every access. */
  full: boolean;
  /** AI BI User or higher (editor): may create workbooks and edit folders. */
  creator: boolean;
}

function actorOf(context: EmulatorContext, c: Context<EmulatorEnv>): Actor {
  const key = apiKeyOf(c);
  if (key.role === 'admin') return { userId: key.userId, full: true, creator: true };
  const role = context.state.internalUsers.get(key.userId)?.role;
  return { userId: key.userId, full: role === 'admin', creator: role === 'admin' || role === 'editor' };
}

const canEditWorkbook = (actor: Actor, workbook: WorkbookRecord) =>
  actor.full || (actor.creator && workbook.createdBy === actor.userId);
const canManageWorkbook = canEditWorkbook;
const canEditFolder = (actor: Actor) => actor.full || actor.creator;

// ---------------------------------------------------------------------------------------------
// Wire shapes
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

function dashboardWire(dashboard: DashboardRecord): Dashboard {
  return {
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

function folderWire(folder: Folder) {
  return {
    id: folder.id,
    deploymentId: folder.deploymentId,
    name: folder.name,
    parentId: folder.parentId,
    type: 'FOLDER' as const,
    createdAt: iso(folder.createdAt),
  };
}

function reportWire(report: ReportRecord) {
  return {
    id: report.id,
    deploymentId: report.deploymentId,
    publicId: report.publicId,
    name: report.name,
    folderId: report.folderId,
    sqlQuery: report.sqlQuery,
    createdAt: iso(report.createdAt),
    updatedAt: iso(report.updatedAt),
    lastViewedAt: null,
    type: 'REPORT' as const,
  };
}

function embedUserWire(user: ExternalUser) {
  return {
    id: user.id,
    externalId: user.externalId,
    email: user.email ?? null,
    displayName: user.profile.displayName ?? null,
    picture: user.profile.picture ?? null,
    groups: [...user.groups],
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  };
}

// ---------------------------------------------------------------------------------------------
// Workbook upsert, with its check-then-apply and the conflict test control
// ---------------------------------------------------------------------------------------------

/** Path of the test control that injects concurrent writers into upserts (module docs). */
export const UPSERT_CONFLICTS_CONTROL_PATH = '/__emulator/upsert-conflicts';

const UPSERT_CONFLICTS = Symbol('emulator.management.upsertConflicts');

function pendingConflicts(context: EmulatorContext): Map<string, number> {
  return context.state.featureState(UPSERT_CONFLICTS, () => new Map<string, number>());
}

/** Options of {@link injectUpsertConflict}. */
export interface InjectUpsertConflictOptions {
  /** Deployment of the workbook. */
  deploymentId: number;
  /** Slug as a client would send it; normalised here. */
  slug: string;
  /** How many upserts of the slug meet a concurrent writer. Default 1. */
  times?: number;
}

/**
 * Makes the next `times` upserts of `slug` on `deploymentId` meet a concurrent writer between
 * their decision and their apply step (creating the workbook when they decided to create,
 * deleting it when they decided to update), so each answers 409 `upsert_branch_changed`.
 * Returns the number now pending for the slug. Same as `POST /__emulator/upsert-conflicts`.
 */
export function injectUpsertConflict(context: EmulatorContext, options: InjectUpsertConflictOptions): number {
  const slug = validateSlug(options.slug);
  if (!slug.ok) throw new RangeError(slug.problems.join('; '));
  const times = options.times ?? 1;
  if (!Number.isInteger(times) || times < 0) throw new RangeError('times must be a whole number of 0 or more');
  const conflicts = pendingConflicts(context);
  const key = `${options.deploymentId}/${slug.value}`;
  const pending = (conflicts.get(key) ?? 0) + times;
  if (pending === 0) conflicts.delete(key);
  else conflicts.set(key, pending);
  return pending;
}

/** Drops every pending injected conflict. */
export function clearUpsertConflicts(context: EmulatorContext): void {
  pendingConflicts(context).clear();
}

function findBySlug(context: EmulatorContext, deploymentId: number, slug: string): WorkbookRecord | undefined {
  for (const workbook of context.state.workbooks.values())
    if (workbook.deploymentId === deploymentId && workbook.slug === slug) return workbook;
  return undefined;
}

function deleteWorkbook(context: EmulatorContext, workbook: WorkbookRecord): void {
  context.state.workbooks.delete(workbook.id);
  if (workbook.dashboardPublicId !== null) context.state.dashboards.delete(workbook.dashboardPublicId);
  embedAccessState(context).delete(workbook.id);
}

/** The other writer of an injected conflict: flips whether a workbook holds the slug. */
function concurrentWrite(context: EmulatorContext, deploymentId: number, slug: string): void {
  const holder = findBySlug(context, deploymentId, slug);
  if (holder) {
    deleteWorkbook(context, holder);
    return;
  }
  const now = context.clock.now();
  const id = context.state.nextId('workbook');
  context.state.workbooks.set(id, {
    id,
    deploymentId,
    name: `${slug} (created by a concurrent writer)`,
    slug,
    folderId: null,
    meta: {},
    calculatedFields: {},
    createdBy: 1,
    createdAt: now,
    updatedAt: now,
    dashboardPublicId: null,
  });
}

/** What an {@link UpsertGapHook} is told about the upsert waiting in the gap. */
export interface UpsertGapInfo {
  /** Deployment of the workbook. */
  deploymentId: number;
  /** Normalised slug. */
  slug: string;
  /** The branch the upsert decided on. */
  branch: 'create' | 'update';
}

/**
 * Runs in the gap between an upsert's decision and its apply step; the upsert waits for the
 * returned promise. Lets an in-process test hold one upsert in the gap while other requests run.
 */
export type UpsertGapHook = (info: UpsertGapInfo) => void | Promise<void>;

const UPSERT_GAP_HOOK = Symbol('emulator.management.upsertGapHook');

function gapHook(context: EmulatorContext): { current: UpsertGapHook | undefined } {
  return context.state.featureState(UPSERT_GAP_HOOK, () => ({ current: undefined as UpsertGapHook | undefined }));
}

/** Installs (or with `undefined` removes) the {@link UpsertGapHook} of this emulator. In-process only. */
export function setUpsertGapHook(context: EmulatorContext, hook: UpsertGapHook | undefined): void {
  gapHook(context).current = hook;
}

/**
 * The gap between decision and apply: a real turn of the event loop (other requests run here),
 * the gap hook if one is installed, then any injected concurrent writer for the slug.
 */
async function betweenDecideAndApply(
  context: EmulatorContext,
  deploymentId: number,
  slug: string,
  branch: UpsertGapInfo['branch'],
): Promise<void> {
  await new Promise<void>((resolve) => setTimeout(resolve, 0));
  await gapHook(context).current?.({ deploymentId, slug, branch });
  const conflicts = pendingConflicts(context);
  const key = `${deploymentId}/${slug}`;
  const pending = conflicts.get(key) ?? 0;
  if (pending <= 0) return;
  if (pending === 1) conflicts.delete(key);
  else conflicts.set(key, pending - 1);
  concurrentWrite(context, deploymentId, slug);
}

async function upsertWorkbook(context: EmulatorContext, c: Context<EmulatorEnv>): Promise<Response> {
  const deployment = requireDeployment(context, c);
  const slugResult = validateSlug(c.req.param('slug'));
  if (!slugResult.ok) throw jsonError(400, { error: slugResult.problems.join('; '), problems: slugResult.problems });
  const slug = slugResult.value;
  const validation = validateCreateWorkbookInput(await readJson(c, MAX_MANAGEMENT_BODY_BYTES));
  if (!validation.ok) throw jsonError(400, { error: validation.problems.join('; '), problems: validation.problems });
  const input = validation.value;
  const actor = actorOf(context, c);

  // Decide the branch and check access for it (3: "decision made and access-checked before applying").
  const decided = findBySlug(context, deployment.id, slug);
  if (decided) {
    if (!canEditWorkbook(actor, decided))
      throw httpError(403, `No edit access to workbook ${decided.id} (slug "${slug}")`);
    if (input.folderId !== undefined && !canManageWorkbook(actor, decided))
      throw httpError(403, `Moving workbook ${decided.id} needs manage access to it`);
  } else if (!actor.creator) {
    throw httpError(403, 'Creating a workbook needs the AI BI User role or higher');
  }
  if (input.folderId !== undefined && input.folderId !== null) {
    const folder = context.state.folders.get(input.folderId);
    if (!folder || folder.deploymentId !== deployment.id) {
      const message = `folderId: folder ${input.folderId} does not exist in deployment ${deployment.id}`;
      throw jsonError(400, { error: message, problems: [message] });
    }
    if (!canEditFolder(actor)) throw httpError(403, `No edit access to folder ${folder.id}`);
  }

  await betweenDecideAndApply(context, deployment.id, slug, decided ? 'update' : 'create');

  const current = findBySlug(context, deployment.id, slug);
  if (current !== decided) {
    throw httpError(
      409,
      `The workbook holding slug "${slug}" was ${decided ? 'deleted' : 'created'} by another request while this one was applied; retry`,
      UPSERT_BRANCH_CHANGED,
    );
  }

  const now = context.clock.now();
  if (!current) {
    const id = context.state.nextId('workbook');
    const created: WorkbookRecord = {
      id,
      deploymentId: deployment.id,
      name: input.name ?? slug,
      slug,
      folderId: input.folderId ?? null,
      meta: input.meta ? structuredClone(input.meta) : {},
      calculatedFields: {},
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
      dashboardPublicId: null,
    };
    context.state.workbooks.set(id, created);
    return jsonResponse(200, workbookWire(context, created));
  }

  const name = input.name ?? current.name;
  const folderId = input.folderId !== undefined ? input.folderId : current.folderId;
  const meta = input.meta ? { ...current.meta, ...structuredClone(input.meta) } : current.meta;
  if (name !== current.name || folderId !== current.folderId || !deepEqual(meta, current.meta)) {
    current.name = name;
    current.folderId = folderId;
    current.meta = meta;
    current.updatedAt = now;
  }
  return jsonResponse(200, workbookWire(context, current));
}

async function controlUpsertConflicts(context: EmulatorContext, c: Context<EmulatorEnv>): Promise<Response> {
  const body = await readJson(c, MAX_MANAGEMENT_BODY_BYTES);
  const problems: string[] = [];
  const deploymentId = isRecord(body) ? body['deploymentId'] : undefined;
  const slug = isRecord(body) ? body['slug'] : undefined;
  const times = isRecord(body) ? (body['times'] ?? 1) : undefined;
  if (typeof deploymentId !== 'number' || !Number.isInteger(deploymentId))
    problems.push('deploymentId: must be a whole number');
  const slugResult = validateSlug(slug);
  if (!slugResult.ok) problems.push(...slugResult.problems);
  if (typeof times !== 'number' || !Number.isInteger(times) || times < 0)
    problems.push('times: must be a whole number of 0 or more (default 1)');
  if (problems.length > 0 || !slugResult.ok) throw jsonError(400, { error: problems.join('; '), problems });
  const pending = injectUpsertConflict(context, {
    deploymentId: deploymentId as number,
    slug: slugResult.value,
    times: times as number,
  });
  return jsonResponse(200, { deploymentId, slug: slugResult.value, pending });
}

// ---------------------------------------------------------------------------------------------
// Workbook embed access
// ---------------------------------------------------------------------------------------------

/** Access of embed users to a workbook (4.6 `embed-access`). */
export type EmbedAccessAction = 'read' | 'none';

interface WorkbookEmbedAccess {
  allEmbedUsers: EmbedAccessAction;
  embedTenants: Map<string, EmbedAccessAction>;
}

const EMBED_ACCESS = Symbol('emulator.management.embedAccess');

function embedAccessState(context: EmulatorContext): Map<number, WorkbookEmbedAccess> {
  return context.state.featureState(EMBED_ACCESS, () => new Map<number, WorkbookEmbedAccess>());
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

function embedAccessWire(context: EmulatorContext, workbookId: number) {
  const access = embedAccessState(context).get(workbookId);
  return {
    workbookId,
    allEmbedUsers: access?.allEmbedUsers ?? 'none',
    embedTenants: [...(access?.embedTenants ?? new Map<string, EmbedAccessAction>())]
      .sort(([a], [b]) => compareValues(a, b))
      .map(([embedTenantName, action]) => ({ embedTenantName, action })),
  };
}

function requireWorkbook(
  context: EmulatorContext,
  c: Context<EmulatorEnv>,
  deployment: WorldDeployment,
): WorkbookRecord {
  const id = parseId(c.req.param('workbookId'));
  const workbook = id === undefined ? undefined : context.state.workbooks.get(id);
  if (!workbook || workbook.deploymentId !== deployment.id)
    throw httpError(404, `Workbook ${c.req.param('workbookId') ?? ''} not found in deployment ${deployment.id}`);
  return workbook;
}

async function putEmbedAccess(context: EmulatorContext, c: Context<EmulatorEnv>): Promise<Response> {
  const deployment = requireDeployment(context, c);
  const workbook = requireWorkbook(context, c, deployment);
  const body = await readJson(c, MAX_MANAGEMENT_BODY_BYTES);
  const problems: string[] = [];
  const action = isRecord(body) ? body['action'] : undefined;
  const tenantName = isRecord(body) ? body['embedTenantName'] : undefined;
  if (!isRecord(body)) problems.push('body: must be an object { action: "read" | "none", embedTenantName? }');
  else {
    if (action !== 'read' && action !== 'none') problems.push('action: must be "read" or "none"');
    if (tenantName !== undefined && tenantName !== null && typeof tenantName !== 'string')
      problems.push('embedTenantName: must be a string, or null for all embed users');
    if (typeof tenantName === 'string' && !context.state.embedTenants.has(tenantName))
      problems.push(`embedTenantName: embed tenant "${tenantName}" does not exist`);
  }
  if (problems.length > 0) throw jsonError(400, { error: problems.join('; '), problems });
  if (!canManageWorkbook(actorOf(context, c), workbook))
    throw httpError(403, `Changing embed access of workbook ${workbook.id} needs manage access to it`);
  const all = embedAccessState(context);
  const access = all.get(workbook.id) ?? { allEmbedUsers: 'none', embedTenants: new Map() };
  if (typeof tenantName === 'string') access.embedTenants.set(tenantName, action as EmbedAccessAction);
  else access.allEmbedUsers = action as EmbedAccessAction;
  all.set(workbook.id, access);
  return jsonResponse(200, embedAccessWire(context, workbook.id));
}

// ---------------------------------------------------------------------------------------------
// Embed-tenant admin (4.3)
// ---------------------------------------------------------------------------------------------

function requireTenant(context: EmulatorContext, c: Context<EmulatorEnv>): EmbedTenant {
  const name = c.req.param('embedTenantName') ?? '';
  const tenant = context.state.embedTenants.get(name);
  if (!tenant) throw httpError(404, `Embed tenant "${name}" not found`);
  return tenant;
}

function tenantUsers(context: EmulatorContext, tenant: EmbedTenant): ExternalUser[] {
  pruneExpiredExternalUsers(context.state, context.clock.now());
  return [...context.state.externalUsers.values()].filter((user) => user.embedTenantName === tenant.name);
}

function requireGroup(context: EmulatorContext, c: Context<EmulatorEnv>, tenant: EmbedTenant): Group {
  const id = parseId(c.req.param('groupId'));
  const group = [...tenant.groups.values()].find((candidate) => candidate.id === id);
  if (!group) throw httpError(404, `Group ${c.req.param('groupId') ?? ''} not found in embed tenant "${tenant.name}"`);
  return group;
}

function groupWire(context: EmulatorContext, tenant: EmbedTenant, group: Group) {
  const memberCount = tenantUsers(context, tenant).filter((user) => user.groups.has(group.name)).length;
  return { id: group.id, name: group.name, description: group.description ?? null, memberCount };
}

/** Reads `{ externalId }` or `{ embedUserId }` (exactly one) and finds that user of the tenant. */
function memberOf(context: EmulatorContext, tenant: EmbedTenant, source: Record<string, unknown>): ExternalUser {
  const externalId = source['externalId'];
  const rawUserId = source['embedUserId'];
  const embedUserId = typeof rawUserId === 'string' && /^\d+$/.test(rawUserId) ? Number(rawUserId) : rawUserId;
  const hasExternal = externalId !== undefined;
  const hasUserId = embedUserId !== undefined;
  if (hasExternal === hasUserId) throw httpError(400, 'Give exactly one of externalId and embedUserId');
  if (hasExternal && (typeof externalId !== 'string' || externalId.trim() === ''))
    throw httpError(400, 'externalId: must be a non-empty string');
  if (hasUserId && (typeof embedUserId !== 'number' || !Number.isInteger(embedUserId)))
    throw httpError(400, 'embedUserId: must be a whole number, the id of an embed user');
  const users = tenantUsers(context, tenant);
  const user = hasExternal
    ? users.find((candidate) => candidate.externalId === normalizeExternalId(externalId as string))
    : users.find((candidate) => candidate.id === embedUserId);
  if (!user) {
    const which = hasExternal ? `externalId "${String(externalId)}"` : `embedUserId ${String(embedUserId)}`;
    throw httpError(400, `No user with ${which} in embed tenant "${tenant.name}"`);
  }
  return user;
}

function readGroupBody(body: unknown, options: { create: boolean }): { name?: string; description?: string | null } {
  const problems: string[] = [];
  if (!isRecord(body))
    throw jsonError(400, {
      error: 'body: must be an object { name, description? }',
      problems: ['body: must be an object { name, description? }'],
    });
  const name = body['name'];
  const description = body['description'];
  if (options.create || name !== undefined) {
    if (typeof name !== 'string' || name.trim() === '') problems.push('name: must be a non-empty string');
  }
  if (description !== undefined && description !== null && typeof description !== 'string')
    problems.push('description: must be a string or null');
  if (problems.length > 0) throw jsonError(400, { error: problems.join('; '), problems });
  return {
    ...(typeof name === 'string' ? { name: name.trim() } : {}),
    ...(description !== undefined ? { description: description as string | null } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The feature
// ---------------------------------------------------------------------------------------------

const REPORT_SORTS = ['name', 'createdAt', 'updatedAt', 'lastViewedAt'] as const;
type ReportSort = (typeof REPORT_SORTS)[number];

function reportSort(sortBy: ReportSort | undefined): { key: (report: ReportRecord) => SortKey; order: 'asc' | 'desc' } {
  switch (sortBy) {
    case 'name':
      return { key: (report) => [report.name.toLowerCase(), report.id], order: 'asc' };
    case 'createdAt':
      return { key: (report) => [report.createdAt, report.id], order: 'desc' };
    case 'updatedAt':
      return { key: (report) => [report.updatedAt, report.id], order: 'desc' };
    case 'lastViewedAt':
      // Reports are never viewed in the emulator: every lastViewedAt is null, so the id decides.
      return { key: (report) => [null, report.id], order: 'desc' };
    case undefined:
      return { key: (report) => [report.id], order: 'asc' };
  }
}

/** The management feature: workbooks, folders, reports, deployments, embedding, embed tenants. */
export const managementFeature: EmulatorFeature = {
  name: 'management',
  basePath: '/',
  create(context: EmulatorContext) {
    const app = new Hono<EmulatorEnv>();
    const bearer = requireApiKey(context, { scheme: 'Bearer', deploymentId: deploymentParam });
    const adminBearer = requireApiKey(context, { scheme: 'Bearer', admin: true });
    const embedAdmin = requireApiKey(context, { scheme: 'Api-Key', admin: true });
    const deployments = '/api/v1/deployments/:deploymentId';
    const tenants = '/api/v1/embed-tenants';

    // Deployments (4.6): `{ items }`, limited by `first`, only the key's deployments.
    for (const path of ['/api/v1/deployments', '/api/v1/deployments/']) {
      app.get(path, bearer, (c) => {
        const key = apiKeyOf(c);
        const first = parseFirst(c.req.query('first'));
        const items = context.world.deployments
          .filter((deployment) => keyAllowsDeployment(key, deployment.id))
          .slice(0, first)
          .map((deployment) => ({ id: deployment.id, name: deployment.name }));
        return jsonResponse(200, { items });
      });
    }

    app.put(`${deployments}/workbooks/by-slug/:slug`, bearer, (c) => upsertWorkbook(context, c));

    app.get(`${deployments}/workbooks`, bearer, (c) => {
      const deployment = requireDeployment(context, c);
      return jsonResponse(
        200,
        paginate({
          items: [...context.state.workbooks.values()].filter((workbook) => workbook.deploymentId === deployment.id),
          tag: 'workbooks',
          key: (workbook) => [workbook.id],
          first: c.req.query('first'),
          after: c.req.query('after'),
          toWire: (workbook) => workbookWire(context, workbook),
        }),
      );
    });

    app.get(`${deployments}/folders`, bearer, (c) => {
      const deployment = requireDeployment(context, c);
      return jsonResponse(
        200,
        paginate({
          items: [...context.state.folders.values()].filter((folder) => folder.deploymentId === deployment.id),
          tag: 'folders',
          key: (folder) => [folder.id],
          first: c.req.query('first'),
          after: c.req.query('after'),
          toWire: folderWire,
        }),
      );
    });

    app.get(`${deployments}/reports`, bearer, (c) => {
      const deployment = requireDeployment(context, c);
      const sortBy = c.req.query('sortBy');
      if (sortBy !== undefined && !REPORT_SORTS.some((sort) => sort === sortBy)) {
        throw httpError(400, `sortBy: must be one of ${REPORT_SORTS.join(', ')}`);
      }
      const folderParam = c.req.query('folderId');
      const folderId = folderParam === undefined ? undefined : parseId(folderParam);
      if (folderParam !== undefined && folderId === undefined)
        throw httpError(400, 'folderId: must be a folder id (a whole number)');
      const search = c.req.query('search')?.trim().toLowerCase();
      const externalWorkbookId = c.req.query('externalWorkbookId');
      const items = [...context.state.reports.values()].filter(
        (report) =>
          report.deploymentId === deployment.id &&
          (folderId === undefined || report.folderId === folderId) &&
          (search === undefined || search === '' || report.name.toLowerCase().includes(search)) &&
          // No report is connected to an external workbook here (connect-workbook is not emulated).
          externalWorkbookId === undefined,
      );
      const sort = reportSort(sortBy as ReportSort | undefined);
      return jsonResponse(
        200,
        paginate({
          items,
          tag: `reports:${sortBy ?? 'id'}`,
          key: sort.key,
          order: sort.order,
          cursors: sortBy !== 'lastViewedAt',
          first: c.req.query('first'),
          after: c.req.query('after'),
          toWire: reportWire,
        }),
      );
    });

    app.get(`${deployments}/workbooks/:workbookId/embed-access`, bearer, (c) => {
      const deployment = requireDeployment(context, c);
      const workbook = requireWorkbook(context, c, deployment);
      return jsonResponse(200, embedAccessWire(context, workbook.id));
    });
    app.put(`${deployments}/workbooks/:workbookId/embed-access`, bearer, (c) => putEmbedAccess(context, c));

    app.patch('/api/v1/embed/dashboard/:publicId', adminBearer, async (c) => {
      const publicId = c.req.param('publicId');
      const dashboard = context.state.dashboards.get(publicId);
      if (!dashboard) throw httpError(404, `Dashboard "${publicId}" not found`);
      assertDeploymentAllowed(c, dashboard.deploymentId);
      const body = await readJson(c, MAX_MANAGEMENT_BODY_BYTES);
      const allowEmbed = isRecord(body) ? body['allowEmbed'] : undefined;
      if (typeof allowEmbed !== 'boolean')
        throw httpError(
          400,
          'allowEmbed: is required, true to enable signed embedding of the dashboard or false to disable it',
        );
      dashboard.allowEmbed = allowEmbed;
      return jsonResponse(200, dashboardWire(dashboard));
    });

    // Embed-tenant admin (4.3).
    for (const path of [tenants, `${tenants}/`]) {
      app.get(path, embedAdmin, (c) =>
        jsonResponse(
          200,
          paginate({
            items: context.state.embedTenants.values(),
            tag: 'embed-tenants',
            key: (tenant) => [tenant.name],
            first: c.req.query('first'),
            after: c.req.query('after'),
            toWire: (tenant) => ({
              name: tenant.name,
              displayName: tenant.displayName ?? null,
              createdAt: iso(tenant.createdAt),
              userCount: tenantUsers(context, tenant).length,
              groupCount: tenant.groups.size,
            }),
          }),
        ),
      );
    }

    app.delete(`${tenants}/:embedTenantName`, embedAdmin, (c) => {
      const tenant = requireTenant(context, c);
      for (const [key, user] of context.state.externalUsers)
        if (user.embedTenantName === tenant.name) context.state.externalUsers.delete(key);
      for (const access of embedAccessState(context).values()) access.embedTenants.delete(tenant.name);
      context.state.embedTenants.delete(tenant.name);
      return new Response(null, { status: 204 });
    });

    app.get(`${tenants}/:embedTenantName/users`, embedAdmin, (c) => {
      const tenant = requireTenant(context, c);
      return jsonResponse(
        200,
        paginate({
          items: tenantUsers(context, tenant),
          tag: `embed-users:${tenant.name}`,
          key: (user) => [user.id],
          first: c.req.query('first'),
          after: c.req.query('after'),
          toWire: embedUserWire,
        }),
      );
    });

    app.get(`${tenants}/:embedTenantName/groups`, embedAdmin, (c) => {
      const tenant = requireTenant(context, c);
      return jsonResponse(
        200,
        paginate({
          items: tenant.groups.values(),
          tag: `embed-groups:${tenant.name}`,
          key: (group) => [group.id],
          first: c.req.query('first'),
          after: c.req.query('after'),
          toWire: (group) => groupWire(context, tenant, group),
        }),
      );
    });

    app.post(`${tenants}/:embedTenantName/groups`, embedAdmin, async (c) => {
      const tenant = requireTenant(context, c);
      const input = readGroupBody(await readJson(c, MAX_MANAGEMENT_BODY_BYTES), { create: true });
      const name = input.name!;
      if (tenant.groups.has(name))
        throw httpError(409, `Group "${name}" already exists in embed tenant "${tenant.name}"`);
      const group: Group = { id: context.state.nextId('group'), name, description: input.description ?? undefined };
      tenant.groups.set(name, group);
      return jsonResponse(201, groupWire(context, tenant, group));
    });

    app.get(`${tenants}/:embedTenantName/groups/:groupId`, embedAdmin, (c) => {
      const tenant = requireTenant(context, c);
      return jsonResponse(200, groupWire(context, tenant, requireGroup(context, c, tenant)));
    });

    app.patch(`${tenants}/:embedTenantName/groups/:groupId`, embedAdmin, async (c) => {
      const tenant = requireTenant(context, c);
      const group = requireGroup(context, c, tenant);
      const input = readGroupBody(await readJson(c, MAX_MANAGEMENT_BODY_BYTES), { create: false });
      if (input.name !== undefined && input.name !== group.name) {
        if (tenant.groups.has(input.name))
          throw httpError(409, `Group "${input.name}" already exists in embed tenant "${tenant.name}"`);
        for (const user of tenantUsers(context, tenant)) {
          if (user.groups.delete(group.name)) user.groups.add(input.name);
        }
        tenant.groups.delete(group.name);
        group.name = input.name;
        tenant.groups.set(group.name, group);
      }
      if (input.description !== undefined) group.description = input.description ?? undefined;
      return jsonResponse(200, groupWire(context, tenant, group));
    });

    app.delete(`${tenants}/:embedTenantName/groups/:groupId`, embedAdmin, (c) => {
      const tenant = requireTenant(context, c);
      const group = requireGroup(context, c, tenant);
      for (const user of tenantUsers(context, tenant)) user.groups.delete(group.name);
      tenant.groups.delete(group.name);
      return new Response(null, { status: 204 });
    });

    app.get(`${tenants}/:embedTenantName/groups/:groupId/users`, embedAdmin, (c) => {
      const tenant = requireTenant(context, c);
      const group = requireGroup(context, c, tenant);
      return jsonResponse(
        200,
        paginate({
          items: tenantUsers(context, tenant).filter((user) => user.groups.has(group.name)),
          tag: `embed-group-users:${tenant.name}:${group.id}`,
          key: (user) => [user.id],
          first: c.req.query('first'),
          after: c.req.query('after'),
          toWire: embedUserWire,
        }),
      );
    });

    app.post(`${tenants}/:embedTenantName/groups/:groupId/users`, embedAdmin, async (c) => {
      const tenant = requireTenant(context, c);
      const group = requireGroup(context, c, tenant);
      const body = await readJson(c, MAX_MANAGEMENT_BODY_BYTES);
      if (!isRecord(body)) throw httpError(400, 'body: must be an object { externalId } or { embedUserId }');
      const user = memberOf(context, tenant, body);
      if (!user.groups.has(group.name)) {
        user.groups.add(group.name);
        user.updatedAt = context.clock.now();
      }
      return new Response(null, { status: 204 });
    });

    app.delete(`${tenants}/:embedTenantName/groups/:groupId/users`, embedAdmin, async (c) => {
      const tenant = requireTenant(context, c);
      const group = requireGroup(context, c, tenant);
      const body = await readJson(c, MAX_MANAGEMENT_BODY_BYTES);
      const source = isRecord(body) ? body : body === undefined ? c.req.query() : undefined;
      if (!source) throw httpError(400, 'body: must be an object { externalId } or { embedUserId }');
      const user = memberOf(context, tenant, source);
      if (user.groups.delete(group.name)) user.updatedAt = context.clock.now();
      return new Response(null, { status: 204 });
    });

    // Test control (no auth: the emulator listens on loopback only).
    app.post(UPSERT_CONFLICTS_CONTROL_PATH, (c) => controlUpsertConflicts(context, c));
    app.delete(UPSERT_CONFLICTS_CONTROL_PATH, () => {
      clearUpsertConflicts(context);
      return new Response(null, { status: 204 });
    });

    return app;
  },
};
