/**
 * `createServiceClient`: every call that needs the API key, in one client made of five groups,
 * each in its own module below `client/` and each usable alone:
 *
 * | group | module | factory | covers |
 * |---|---|---|---|
 * | embedding | `client/embedding.ts` | `createEmbeddingClient` | embed sessions (§4.2), embed tenants (§4.3) |
 * | workspace | `client/workspace.ts` | `createWorkspaceClient` | workbooks, folders, reports, notifications, embed access, bulk operations (§4.1, §4.6) |
 * | people | `client/people.ts` | `createPeopleClient` | users, user attributes and values, SCIM (§4.6) |
 * | platform | `client/platform.ts` | `createPlatformClient` | deployments, builds, logs, pods, env vars, regions, data model, branches, repositories, transform sync (§4.6) |
 * | tenant | `client/tenant.ts` | `createTenantClient` | settings, OAuth, OIDC, app config, dashboard embedding, Python runs (§4.6) |
 *
 * All of them send through the one request path of `client/request.ts` (auth, retries, time
 * limits, typed errors, paging). A bundle that imports one group's factory carries that group only.
 *
 * @module
 */
import { embeddingMethods, type EmbeddingClient } from './client/embedding';
import { peopleMethods, type PeopleClient } from './client/people';
import { platformMethods, type PlatformClient } from './client/platform';
import { createRequester, type ServiceClientOptions } from './client/request';
import { tenantMethods, type TenantClient } from './client/tenant';
import { workspaceMethods, type WorkspaceClient } from './client/workspace';

/** A client of the service's whole management and embed APIs, made by {@link createServiceClient}. */
export interface ServiceClient extends EmbeddingClient, WorkspaceClient, PeopleClient, PlatformClient, TenantClient {}

/**
 * Creates a client of the service's management and embed APIs for one tenant and API key: every
 * method of the five groups. Use it on the server only. Throws a `ServiceConfigError` for options
 * that cannot work.
 *
 * ```ts
 * const service = createServiceClient({ baseUrl: process.env.SERVICE_URL!, apiKey: process.env.SERVICE_API_KEY! });
 * const { sessionId } = await service.generateSession({ deploymentId: 1, externalId: user.id });
 * for await (const workbook of service.listWorkbooks(1)) console.log(workbook.name);
 * ```
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const r = createRequester(options);
  return {
    ...embeddingMethods(r),
    ...workspaceMethods(r),
    ...peopleMethods(r),
    ...platformMethods(r),
    ...tenantMethods(r),
    request: r.request,
  };
}
