/**
 * The workbook upsert by slug (interface 3, 4.1) with its check-then-apply, and the test control
 * that injects concurrent writers into it: part of the workspace (`workspace.ts` mounts both).
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
 * @module
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import {
  UPSERT_BRANCH_CHANGED,
  deferred,
  objectWith,
  validateCreateWorkbookInput,
  validateSlug,
} from '../../../core/protocol/workbook';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonResponse } from '../../http';
import type { WorkbookRecord } from '../../state';
import {
  actorOf,
  canEditFolder,
  canEditWorkbook,
  canManageWorkbook,
  deepEqual,
  deleteWorkbook,
  invalid,
  readSchema,
  readValid,
  requireDeployment,
  valid,
  workbookWire,
} from './shared';

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

/** `PUT /api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}` (4.1). */
export async function upsertWorkbook(context: EmulatorContext, c: Context<EmulatorEnv>): Promise<Response> {
  const deployment = requireDeployment(context, c);
  const slug = valid(validateSlug(c.req.param('slug')));
  const input = await readValid(c, validateCreateWorkbookInput);
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
      throw invalid([`folderId: folder ${input.folderId} does not exist in deployment ${deployment.id}`]);
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

const wholeNumber = (min: number, message: string) =>
  v.pipe(v.number(message), v.integer(message), v.minValue(min, message));

/** Body of the test control: the slug normalised as the upsert does (4.1 rule 1). */
const ConflictControlSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      deploymentId: wholeNumber(Number.MIN_SAFE_INTEGER, 'must be a whole number'),
      slug: v.pipe(
        v.string('must be a string such as "q3-review"'),
        v.rawTransform(({ dataset, addIssue, NEVER }) => {
          const checked = validateSlug(dataset.value);
          if (checked.ok) return checked.value;
          addIssue({ message: checked.problems.join('; ').replace(/^slug: /, '') });
          return NEVER;
        }),
      ),
      times: v.optional(wholeNumber(0, 'must be a whole number of 0 or more (default 1)'), 1),
    },
    'must be an object { deploymentId, slug, times? }',
  ),
);

/** `POST /__emulator/upsert-conflicts` (module docs). */
export async function controlUpsertConflicts(context: EmulatorContext, c: Context<EmulatorEnv>): Promise<Response> {
  const { deploymentId, slug, times } = await readSchema(c, ConflictControlSchema);
  const pending = injectUpsertConflict(context, { deploymentId, slug, times });
  return jsonResponse(200, { deploymentId, slug, pending });
}
