/**
 * The tenant group of the server client (interface §4.6): tenant settings, OAuth integrations and
 * the caller's OAuth tokens, OIDC token configs, the app config, and per-dashboard switches
 * (signed embedding, Python runs). All with `Bearer` auth (§5).
 *
 * @module
 */
import { ServiceValidationError } from '../../core/errors';
import {
  validatePythonRunInput,
  type AppConfig,
  type OAuthInitiation,
  type OAuthInitiationInput,
  type OAuthIntegration,
  type OAuthIntegrationInput,
  type OidcTokenConfig,
  type OidcTokenConfigInput,
  type PythonRun,
  type PythonRunInput,
  type TenantSettings,
  type UserOAuthToken,
} from '../../core/protocol/management';
import { isRecord } from '../../core/protocol/shared';
import { pathSegment } from '../transport';
import {
  anObject,
  collection,
  createRequester,
  id,
  valid,
  type ListParams,
  type Paginated,
  type RequestOptions,
  type Requester,
  type ServiceClientBase,
  type ServiceClientOptions,
} from './request';

/** Tenant settings, OAuth, OIDC, app config and dashboard switches (§4.6), made by {@link createTenantClient}. */
export interface TenantClient extends ServiceClientBase {
  /** The tenant's settings (§4.6 `GET /api/v1/tenant/settings`). */
  getTenantSettings(options?: RequestOptions): Promise<TenantSettings>;
  /** Changes tenant settings (§4.6 `PUT /api/v1/tenant/settings`); only the fields sent change. Resolves with all of them. */
  updateTenantSettings(patch: TenantSettings, options?: RequestOptions): Promise<TenantSettings>;
  /** OAuth integrations (§4.6 `GET /api/v1/oauth-integrations/`). */
  listOAuthIntegrations(params?: ListParams): Paginated<OAuthIntegration>;
  /** Creates an OAuth integration (§4.6 `POST`); `clientSecret` is never answered back. Not retried. */
  createOAuthIntegration(input: OAuthIntegrationInput, options?: RequestOptions): Promise<OAuthIntegration>;
  /** One OAuth integration (§4.6 `GET /api/v1/oauth-integrations/{id}`). */
  getOAuthIntegration(integrationId: number, options?: RequestOptions): Promise<OAuthIntegration>;
  /** Changes an OAuth integration (§4.6 `PUT`); only the fields sent change. */
  updateOAuthIntegration(
    integrationId: number,
    patch: OAuthIntegrationInput,
    options?: RequestOptions,
  ): Promise<OAuthIntegration>;
  /** Deletes an OAuth integration (§4.6 `DELETE`) and the tokens granted through it. */
  deleteOAuthIntegration(integrationId: number, options?: RequestOptions): Promise<void>;
  /** The caller's OAuth tokens, one per integration (§4.6 `GET /api/v1/user-oauth-tokens/`). */
  listUserOAuthTokens(params?: ListParams): Paginated<UserOAuthToken>;
  /** Revokes the caller's token of an integration (§4.6 `DELETE /api/v1/user-oauth-tokens/{integrationId}`). */
  deleteUserOAuthToken(integrationId: number, options?: RequestOptions): Promise<void>;
  /**
   * Starts the OAuth grant of an integration for the caller (§4.6 `POST .../{integrationId}/initiate`):
   * resolves with the `authorizationUrl` to send the user to. Not retried.
   */
  initiateUserOAuthToken(
    integrationId: number,
    input?: OAuthInitiationInput,
    options?: RequestOptions,
  ): Promise<OAuthInitiation>;
  /** OIDC token configs (§4.6 `GET /api/v1/oidc-token-configs/`). */
  listOidcTokenConfigs(params?: ListParams): Paginated<OidcTokenConfig>;
  /** Creates an OIDC token config (§4.6 `POST`). Not retried. */
  createOidcTokenConfig(input: OidcTokenConfigInput, options?: RequestOptions): Promise<OidcTokenConfig>;
  /** One OIDC token config (§4.6 `GET /api/v1/oidc-token-configs/{id}`). */
  getOidcTokenConfig(configId: number, options?: RequestOptions): Promise<OidcTokenConfig>;
  /** Changes an OIDC token config (§4.6 `PUT`); only the fields sent change. */
  updateOidcTokenConfig(
    configId: number,
    patch: OidcTokenConfigInput,
    options?: RequestOptions,
  ): Promise<OidcTokenConfig>;
  /** Deletes an OIDC token config (§4.6 `DELETE`). */
  deleteOidcTokenConfig(configId: number, options?: RequestOptions): Promise<void>;
  /**
   * The app config (§4.6 `GET /api/v1/app-config`): `appTheme`, `applyThemeGlobally`,
   * `creatorMode`, `embedding` and `sheetsUi`.
   */
  getAppConfig(options?: RequestOptions): Promise<AppConfig>;
  /**
   * Enables or disables signed embedding of a dashboard (§4.6 `PATCH /api/v1/embed/dashboard/{publicId}`;
   * `allowEmbed` must be a boolean). Resolves with the service's answer (the dashboard), or
   * `undefined` when it sent no body. Retried like an idempotent call: it sets a value.
   */
  setDashboardEmbedding(publicId: string, allowEmbed: boolean, options?: RequestOptions): Promise<unknown>;
  /**
   * Runs a dashboard's Python report with dashboard filters applied (§4.6
   * `POST /api/v1/embed/dashboard/{publicId}/python-run`). Not retried.
   */
  runDashboardPython(publicId: string, input?: PythonRunInput, options?: RequestOptions): Promise<PythonRun>;
}

/** @internal The tenant methods over a request path. */
export function tenantMethods(r: Requester): Omit<TenantClient, 'request'> {
  const oauth = collection<OAuthIntegration>(r, '/api/v1/oauth-integrations/', 'OAuth integration');
  const oidc = collection<OidcTokenConfig>(r, '/api/v1/oidc-token-configs/', 'OIDC token config');
  const tokenPath = (integrationId: number, what: string) =>
    `/api/v1/user-oauth-tokens/${id(integrationId, 'integrationId', what)}`;
  const dashboardPath = (publicId: string, what: string) =>
    `/api/v1/embed/dashboard/${pathSegment(publicId, 'publicId', what)}`;

  return {
    async getTenantSettings(options = {}) {
      return r.record({ path: '/api/v1/tenant/settings', what: 'get tenant settings', signal: options.signal });
    },
    async updateTenantSettings(patch, options = {}) {
      const what = 'update tenant settings';
      const body = valid(anObject(patch), what);
      return r.record({ method: 'PUT', path: '/api/v1/tenant/settings', what, body, signal: options.signal });
    },
    listOAuthIntegrations: oauth.list,
    createOAuthIntegration: oauth.create,
    getOAuthIntegration: oauth.get,
    updateOAuthIntegration: oauth.update,
    deleteOAuthIntegration: oauth.remove,
    listUserOAuthTokens: (params) =>
      r.list(() => ({ path: '/api/v1/user-oauth-tokens/', what: 'list user OAuth tokens' }), params),
    async deleteUserOAuthToken(integrationId, options = {}) {
      const what = 'delete user OAuth token';
      await r.empty({ method: 'DELETE', path: tokenPath(integrationId, what), what, signal: options.signal });
    },
    async initiateUserOAuthToken(integrationId, input = {}, options = {}) {
      const what = 'initiate user OAuth token';
      return r.record(
        {
          method: 'POST',
          path: `${tokenPath(integrationId, what)}/initiate`,
          what,
          body: valid(anObject(input), what),
          signal: options.signal,
        },
        (value) => isRecord(value) && typeof value['authorizationUrl'] === 'string',
        'an initiation { authorizationUrl }',
      );
    },
    listOidcTokenConfigs: oidc.list,
    createOidcTokenConfig: oidc.create,
    getOidcTokenConfig: oidc.get,
    updateOidcTokenConfig: oidc.update,
    deleteOidcTokenConfig: oidc.remove,
    async getAppConfig(options = {}) {
      return r.record(
        { path: '/api/v1/app-config', what: 'get app config', signal: options.signal },
        (value) => isRecord(value) && isRecord(value['embedding']),
        'an app config',
      );
    },
    async setDashboardEmbedding(publicId, allowEmbed, options = {}) {
      const what = 'set dashboard embedding';
      if (typeof allowEmbed !== 'boolean') throw new ServiceValidationError(['allowEmbed: must be true or false']);
      return r.json({
        method: 'PATCH',
        path: dashboardPath(publicId, what),
        what,
        body: { allowEmbed },
        signal: options.signal,
        // Setting a flag to a given value is idempotent even though the method is PATCH.
        idempotent: true,
      });
    },
    async runDashboardPython(publicId, input, options = {}) {
      const what = 'run dashboard Python';
      return r.record({
        method: 'POST',
        path: `${dashboardPath(publicId, what)}/python-run`,
        what,
        body: valid(validatePythonRunInput(input), what),
        signal: options.signal,
      });
    },
  };
}

/**
 * A client of the tenant's settings alone (§4.6): settings, OAuth, OIDC, app config, dashboard
 * switches. Same options as `createServiceClient`.
 * @throws {ServiceConfigError} for options that cannot work.
 */
export function createTenantClient(options: ServiceClientOptions): TenantClient {
  const r = createRequester(options);
  return { ...tenantMethods(r), request: r.request };
}
