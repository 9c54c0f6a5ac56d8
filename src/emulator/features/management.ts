/**
 * The management API (interface 2.1-2.6, 3, 4.1, 4.3, 4.6, 5, 7, 9; behaviour 4), with real state,
 * split by the same concerns as the server client's groups. Each part is a Hono sub-app mounted
 * here with `app.route()`; each part's module documents its endpoints, access and wire shapes.
 *
 * | part | module | client group | covers |
 * |---|---|---|---|
 * | embedding | `management/embedding.ts` | `embedding` | embed tenants, their users, groups and members (4.3) |
 * | workspace | `management/workspace.ts`, `management/upsert.ts` | `workspace` | workbooks (upsert by slug, duplicate, AI widget threads), folders, reports, notifications, embed access, bulk delete and move |
 * | people | `management/people.ts`, `management/scim.ts` | `people` | users and their bulk actions, user attributes and values, SCIM `Users` and `Groups` |
 * | platform | `management/platform.ts`, `management/data-model.ts` | `platform` | deployments, builds, logs, pods, env vars, setup wizard, environments, regions, data model, dev mode, branches, repositories, transform sync |
 * | tenant | `management/tenant.ts` | `tenant` | settings, OAuth integrations and tokens, OIDC token configs, app config, dashboard embedding, Python runs |
 *
 * What they share (`management/shared.ts`): one home for cursor lists ({@link paginate}: query
 * `first`, 1 or more, default {@link DEFAULT_PAGE_SIZE}, values above {@link MAX_PAGE_SIZE}
 * clamped, and `after`, an opaque cursor bound to the list and its sort, 400 for anything else;
 * answers `{ items, pageInfo: { hasNextPage, hasPreviousPage, startCursor, endCursor }, data,
 * count }` where the deprecated `data` repeats `items` and `count` counts the page; keyset cursors,
 * so items created or deleted between pages neither repeat nor shift the rest), the auth
 * middlewares, body validation with the protocol's schemas, the caller's access, the deployments.
 *
 * Errors, for every part, are thrown as Hono `HTTPException`s and turned into responses by the
 * app's one `onError`: `{"error": message}` plus `code` where the interface names one, and
 * `problems` when a validator found several (behaviour 4); SCIM adds RFC 7644's fields. 401 for a
 * missing, malformed (wrong scheme) or unknown key; 403 for a scoped key on another deployment
 * (checked before the deployment's existence, so a scoped key learns nothing about other
 * deployments), for a personal key on an admin endpoint and for missing access; 404 for an unknown
 * thing named in the path; 400 for a bad body or query, and for an unknown thing named in the body
 * (a folder, an embed tenant, a user, a branch): choice, a body that names what does not exist is
 * invalid; 409 for a conflict with the current state.
 *
 * @module
 */
import { Hono } from 'hono';
import type { EmulatorContext, EmulatorEnv, EmulatorFeature } from '../context';
import { dataModelApp } from './management/data-model';
import { embeddingApp } from './management/embedding';
import { peopleApp } from './management/people';
import { platformApp } from './management/platform';
import { scimApp } from './management/scim';
import { tenantApp } from './management/tenant';
import { workspaceApp } from './management/workspace';

export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  embedAccessFor,
  paginate,
  parseFirst,
  workbookWire,
  type ListBody,
  type PaginateOptions,
  type SortKey,
} from './management/shared';
export {
  UPSERT_CONFLICTS_CONTROL_PATH,
  clearUpsertConflicts,
  injectUpsertConflict,
  setUpsertGapHook,
  type InjectUpsertConflictOptions,
  type UpsertGapHook,
  type UpsertGapInfo,
} from './management/upsert';
export { BUILD_DURATION_MS } from './management/platform-state';
export { SCIM_MAX_COUNT } from './management/scim';

/** The parts, mounted in this order. */
const PARTS = [embeddingApp, workspaceApp, peopleApp, scimApp, platformApp, dataModelApp, tenantApp] as const;

/** The management feature: every part's sub-app, mounted at `/`. */
export const managementFeature: EmulatorFeature = {
  name: 'management',
  basePath: '/',
  create(context: EmulatorContext) {
    const app = new Hono<EmulatorEnv>();
    for (const part of PARTS) app.route('/', part(context));
    return app;
  },
};
