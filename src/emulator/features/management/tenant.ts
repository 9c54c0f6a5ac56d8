/**
 * The tenant's settings (interface 4.6), as the client's `tenant` group: tenant settings, OAuth
 * integrations and the caller's OAuth tokens, OIDC token configs, the app config, and the
 * per-dashboard switches (signed embedding, Python runs). `Bearer` auth.
 *
 * | method | path | auth |
 * |---|---|---|
 * | GET, PUT | `/api/v1/tenant/settings` | admin key |
 * | GET | `/api/v1/app-config` | any key |
 * | GET, POST | `/api/v1/oauth-integrations/` | admin key |
 * | GET, PUT, DELETE | `/api/v1/oauth-integrations/{id}` | admin key |
 * | GET | `/api/v1/user-oauth-tokens/` | any key: the tokens of the key's user |
 * | DELETE | `/api/v1/user-oauth-tokens/{integrationId}` | any key |
 * | POST | `/api/v1/user-oauth-tokens/{integrationId}/initiate` | any key |
 * | GET, POST | `/api/v1/oidc-token-configs/` | admin key |
 * | GET, PUT, DELETE | `/api/v1/oidc-token-configs/{id}` | admin key |
 * | PATCH | `/api/v1/embed/dashboard/{publicId}` | admin key, in scope of the dashboard's deployment |
 * | POST | `/api/v1/embed/dashboard/{publicId}/python-run` | admin key, in scope |
 *
 * Account-level endpoints take scoped admin keys too: a key's scope limits deployments only.
 * Collection paths answer with and without their trailing slash.
 *
 * - Settings start as `TENANT_SETTINGS` of the world; `PUT` changes the fields sent (each checked:
 *   booleans, `maintenanceWindow` `{ dayOfWeek 0-6, startHour 0-23, durationHours 1-24 }` or
 *   `null`; an unknown field is a 400) and answers all of them.
 * - The app config is `APP_CONFIG` of the world with `embedding` read from the tenant: its locale
 *   and the account-wide show-dashboard-chat toggle that embed sessions inherit (2.7).
 * - OAuth integration `{ id, name, provider, clientId, authorizeUrl, tokenUrl, scopes,
 *   hasClientSecret, createdAt, updatedAt }`: `name`, `provider`, `clientId` required on create
 *   (201), URLs http(s); `clientSecret` is stored and never answered. Deleting one drops the tokens
 *   granted through it (204).
 * - A user's token `{ integrationId, integrationName, status: 'pending', createdAt }`: `initiate`
 *   (optional body `{ redirectUri? }`) records a pending grant and answers `{ integrationId,
 *   authorizationUrl, state }`, the provider's authorize URL with `client_id`, `scope`, `state`
 *   and `redirect_uri`; the emulator has no provider to complete it, so it stays `pending` until
 *   deleted (404 when there is none).
 * - OIDC token config `{ id, name, issuer, audience, jwksUrl, createdAt, updatedAt }`: `name`,
 *   `issuer` (https URL) and `audience` required on create (201).
 * - Dashboard embedding: `PATCH` with `{ "allowEmbed": boolean }` → 200 Dashboard (2.4); 404
 *   unknown dashboard; 403 for a personal key or a scoped key outside its deployment.
 * - Python run: `{ filters? }` (an object of filters by member, checked with the protocol's
 *   `validatePythonRunInput`) → 200 `{ runId, publicId, status: 'completed', appliedFilters,
 *   output, startedAt, finishedAt }`; the emulator's dashboards run no Python, so `output` says
 *   which dashboard ran with how many filters.
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import {
  filledString,
  validateBody,
  validatePythonRunInput,
  type TenantSettings,
} from '../../../core/protocol/management';
import { objectWith } from '../../../core/protocol/workbook';
import { assertDeploymentAllowed } from '../../auth';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonResponse } from '../../http';
import type { DashboardRecord } from '../../state';
import {
  apiKeyOf,
  dashboardWire,
  iso,
  listAnswer,
  managementAuth,
  noContent,
  parseId,
  readSchema,
  readValid,
  withSlash,
} from './shared';

// ---------------------------------------------------------------------------------------------
// Schemas of the emulator's own fields (the interface does not publish these bodies)
// ---------------------------------------------------------------------------------------------

const optionalBoolean = v.optional(v.boolean('must be true or false'));
const hour = (min: number, max: number) =>
  v.pipe(
    v.number(`must be a whole number from ${min} to ${max}`),
    v.integer(`must be a whole number from ${min} to ${max}`),
    v.minValue(min, `must be a whole number from ${min} to ${max}`),
    v.maxValue(max, `must be a whole number from ${min} to ${max}`),
  );

const SettingsPatchSchema = v.strictObject(
  {
    auditLogEnabled: optionalBoolean,
    maintenanceWindow: v.optional(
      v.nullable(
        v.strictObject(
          { dayOfWeek: hour(0, 6), startHour: hour(0, 23), durationHours: hour(1, 24) },
          'must be { dayOfWeek, startHour, durationHours }, or null for any time',
        ),
      ),
    ),
    supportAccessEnabled: optionalBoolean,
    oidcEnabled: optionalBoolean,
    aiInterfaceEnabled: optionalBoolean,
    biInterfaceEnabled: optionalBoolean,
  },
  (issue) =>
    issue.expected === 'never' ? 'is not a tenant setting the emulator knows' : 'must be an object of tenant settings',
);

const httpUrl = v.pipe(
  v.string('must be an http(s) URL'),
  v.url('must be an http(s) URL'),
  v.regex(/^https?:/i, 'must be an http(s) URL'),
);

const oauthEntries = (create: boolean) => {
  const required = (message: string) => (create ? filledString(message) : v.optional(filledString(message)));
  return {
    name: required('must be a non-empty string'),
    provider: required('must be a non-empty string, such as github'),
    clientId: required('must be a non-empty string'),
    clientSecret: v.optional(filledString('must be a non-empty string')),
    authorizeUrl: v.optional(httpUrl),
    tokenUrl: v.optional(httpUrl),
    scopes: v.optional(v.array(v.string('must be a string'), 'must be an array of scopes')),
  };
};

const oidcEntries = (create: boolean) => {
  const required = <T extends v.GenericSchema>(schema: T) => (create ? schema : v.optional(schema));
  return {
    name: required(filledString('must be a non-empty string')),
    issuer: required(
      v.pipe(
        v.string('must be an https URL'),
        v.url('must be an https URL'),
        v.startsWith('https:', 'must be an https URL'),
      ),
    ),
    audience: required(filledString('must be a non-empty string')),
    jwksUrl: v.optional(httpUrl),
  };
};

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

interface OAuthIntegrationRecord {
  id: number;
  name: string;
  provider: string;
  clientId: string;
  clientSecret?: string;
  authorizeUrl: string | null;
  tokenUrl: string | null;
  scopes: string[];
  createdAt: number;
  updatedAt: number;
}

interface OidcConfigRecord {
  id: number;
  name: string;
  issuer: string;
  audience: string;
  jwksUrl: string | null;
  createdAt: number;
  updatedAt: number;
}

interface TenantState {
  settings: TenantSettings;
  oauth: Map<number, OAuthIntegrationRecord>;
  /** Grants by `<userId>/<integrationId>`. */
  tokens: Map<string, { userId: number; integrationId: number; state: string; createdAt: number }>;
  oidc: Map<number, OidcConfigRecord>;
  runs: number;
}

const TENANT_STATE = Symbol('emulator.management.tenant');

function stateOf(context: EmulatorContext): TenantState {
  return context.state.featureState(TENANT_STATE, () => {
    const now = context.clock.now();
    return {
      settings: structuredClone(context.world.tenantSettings) as TenantSettings,
      oauth: new Map(
        context.world.oauthIntegrations.map((integration) => [
          integration.id,
          { ...integration, scopes: [...integration.scopes], createdAt: now, updatedAt: now },
        ]),
      ),
      tokens: new Map(),
      oidc: new Map(
        context.world.oidcTokenConfigs.map((config) => [config.id, { ...config, createdAt: now, updatedAt: now }]),
      ),
      runs: 0,
    };
  });
}

function oauthWire(integration: OAuthIntegrationRecord) {
  const { clientSecret, createdAt, updatedAt, ...rest } = integration;
  return {
    ...rest,
    scopes: [...rest.scopes],
    hasClientSecret: clientSecret !== undefined,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}

function oidcWire(config: OidcConfigRecord) {
  return { ...config, createdAt: iso(config.createdAt), updatedAt: iso(config.updatedAt) };
}

/** The record of `map` that the `:id` path parameter names, or a 404 naming `noun`. */
function requireRecord<T>(c: Context, map: Map<number, T>, noun: string): T {
  const id = parseId(c.req.param('id'));
  const found = id === undefined ? undefined : map.get(id);
  if (found === undefined) throw httpError(404, `${noun} ${c.req.param('id') ?? ''} not found`);
  return found;
}

function requireDashboard(context: EmulatorContext, c: Context<EmulatorEnv>): DashboardRecord {
  const publicId = c.req.param('publicId') ?? '';
  const dashboard = context.state.dashboards.get(publicId);
  if (!dashboard) throw httpError(404, `Dashboard "${publicId}" not found`);
  assertDeploymentAllowed(c, dashboard.deploymentId);
  return dashboard;
}

// ---------------------------------------------------------------------------------------------
// The sub-app
// ---------------------------------------------------------------------------------------------

/** The tenant sub-app. */
export function tenantApp(context: EmulatorContext): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const { bearer, admin } = managementAuth(context);

  app.get('/api/v1/tenant/settings', admin, () => jsonResponse(200, stateOf(context).settings));
  app.put('/api/v1/tenant/settings', admin, async (c) => {
    const patch = await readSchema(c, SettingsPatchSchema);
    const state = stateOf(context);
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) state.settings[key] = value;
    return jsonResponse(200, state.settings);
  });

  app.get('/api/v1/app-config', bearer, () =>
    jsonResponse(200, {
      ...structuredClone(context.world.appConfig),
      embedding: {
        locale: context.world.tenant.locale,
        showDashboardChat: context.state.tenantFlags.get('showDashboardChat') ?? true,
      },
    }),
  );

  // OAuth integrations.
  for (const path of withSlash('/api/v1/oauth-integrations')) {
    app.get(path, admin, (c) =>
      listAnswer(c, { items: stateOf(context).oauth.values(), tag: 'oauth', key: (i) => [i.id], toWire: oauthWire }),
    );
    app.post(path, admin, async (c) => {
      const input = await readSchema(
        c,
        objectWith(oauthEntries(true), 'must be an object { name, provider, clientId, ... }'),
      );
      const now = context.clock.now();
      const integration: OAuthIntegrationRecord = {
        id: context.state.nextId('integration'),
        // Required on create by the schema.
        name: input.name!,
        provider: input.provider!,
        clientId: input.clientId!,
        ...(input.clientSecret === undefined ? {} : { clientSecret: input.clientSecret }),
        authorizeUrl: input.authorizeUrl ?? null,
        tokenUrl: input.tokenUrl ?? null,
        scopes: input.scopes ?? [],
        createdAt: now,
        updatedAt: now,
      };
      stateOf(context).oauth.set(integration.id, integration);
      return jsonResponse(201, oauthWire(integration));
    });
  }
  app.get('/api/v1/oauth-integrations/:id', admin, (c) =>
    jsonResponse(200, oauthWire(requireRecord(c, stateOf(context).oauth, 'OAuth integration'))),
  );
  app.put('/api/v1/oauth-integrations/:id', admin, async (c) => {
    const integration = requireRecord(c, stateOf(context).oauth, 'OAuth integration');
    const patch = await readSchema(c, objectWith(oauthEntries(false), 'must be an object of the fields to change'));
    for (const [key, value] of Object.entries(patch))
      if (value !== undefined) Object.assign(integration, { [key]: value });
    integration.updatedAt = context.clock.now();
    return jsonResponse(200, oauthWire(integration));
  });
  app.delete('/api/v1/oauth-integrations/:id', admin, (c) => {
    const state = stateOf(context);
    const integration = requireRecord(c, state.oauth, 'OAuth integration');
    state.oauth.delete(integration.id);
    for (const [key, token] of state.tokens) if (token.integrationId === integration.id) state.tokens.delete(key);
    return noContent();
  });

  // The caller's OAuth tokens.
  for (const path of withSlash('/api/v1/user-oauth-tokens')) {
    app.get(path, bearer, (c) => {
      const { userId } = apiKeyOf(c);
      const state = stateOf(context);
      return listAnswer(c, {
        items: [...state.tokens.values()].filter((token) => token.userId === userId),
        tag: `oauth-tokens:${userId}`,
        key: (token) => [token.integrationId],
        toWire: (token) => ({
          integrationId: token.integrationId,
          integrationName: state.oauth.get(token.integrationId)?.name ?? null,
          status: 'pending',
          createdAt: iso(token.createdAt),
        }),
      });
    });
  }
  const integrationOf = (c: Context<EmulatorEnv>) => {
    const id = parseId(c.req.param('integrationId'));
    const integration = id === undefined ? undefined : stateOf(context).oauth.get(id);
    if (!integration) throw httpError(404, `OAuth integration ${c.req.param('integrationId') ?? ''} not found`);
    return integration;
  };
  app.delete('/api/v1/user-oauth-tokens/:integrationId', bearer, (c) => {
    const integration = integrationOf(c);
    const key = `${apiKeyOf(c).userId}/${integration.id}`;
    if (!stateOf(context).tokens.delete(key)) throw httpError(404, `No token for OAuth integration ${integration.id}`);
    return noContent();
  });
  app.post('/api/v1/user-oauth-tokens/:integrationId/initiate', bearer, async (c) => {
    const integration = integrationOf(c);
    // The body is optional: none is an initiation without a redirect URI.
    const input = await readValid(c, (body) =>
      validateBody(objectWith({ redirectUri: v.optional(httpUrl) }, 'must be an object { redirectUri? }'), body ?? {}),
    );
    const { userId } = apiKeyOf(c);
    const state = stateOf(context);
    const grant = `${userId}-${integration.id}-${(state.runs += 1)}`;
    state.tokens.set(`${userId}/${integration.id}`, {
      userId,
      integrationId: integration.id,
      state: grant,
      createdAt: context.clock.now(),
    });
    const url = new URL(integration.authorizeUrl ?? `https://${integration.provider}.example/oauth/authorize`);
    url.searchParams.set('client_id', integration.clientId);
    url.searchParams.set('scope', integration.scopes.join(' '));
    url.searchParams.set('state', grant);
    if (input.redirectUri !== undefined) url.searchParams.set('redirect_uri', input.redirectUri);
    return jsonResponse(200, { integrationId: integration.id, authorizationUrl: url.toString(), state: grant });
  });

  // OIDC token configs.
  for (const path of withSlash('/api/v1/oidc-token-configs')) {
    app.get(path, admin, (c) =>
      listAnswer(c, { items: stateOf(context).oidc.values(), tag: 'oidc', key: (o) => [o.id], toWire: oidcWire }),
    );
    app.post(path, admin, async (c) => {
      const input = await readSchema(
        c,
        objectWith(oidcEntries(true), 'must be an object { name, issuer, audience, jwksUrl? }'),
      );
      const now = context.clock.now();
      const config: OidcConfigRecord = {
        id: context.state.nextId('oidcConfig'),
        // Required on create by the schema.
        name: input.name!,
        issuer: input.issuer!,
        audience: input.audience!,
        jwksUrl: input.jwksUrl ?? null,
        createdAt: now,
        updatedAt: now,
      };
      stateOf(context).oidc.set(config.id, config);
      return jsonResponse(201, oidcWire(config));
    });
  }
  app.get('/api/v1/oidc-token-configs/:id', admin, (c) =>
    jsonResponse(200, oidcWire(requireRecord(c, stateOf(context).oidc, 'OIDC token config'))),
  );
  app.put('/api/v1/oidc-token-configs/:id', admin, async (c) => {
    const config = requireRecord(c, stateOf(context).oidc, 'OIDC token config');
    const patch = await readSchema(c, objectWith(oidcEntries(false), 'must be an object of the fields to change'));
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) Object.assign(config, { [key]: value });
    config.updatedAt = context.clock.now();
    return jsonResponse(200, oidcWire(config));
  });
  app.delete('/api/v1/oidc-token-configs/:id', admin, (c) => {
    const config = requireRecord(c, stateOf(context).oidc, 'OIDC token config');
    stateOf(context).oidc.delete(config.id);
    return noContent();
  });

  // Per-dashboard switches.
  app.patch('/api/v1/embed/dashboard/:publicId', admin, async (c) => {
    const dashboard = requireDashboard(context, c);
    const { allowEmbed } = await readSchema(
      c,
      objectWith(
        {
          allowEmbed: v.boolean('is required, true to enable signed embedding of the dashboard or false to disable it'),
        },
        'must be an object { allowEmbed }',
      ),
    );
    dashboard.allowEmbed = allowEmbed;
    return jsonResponse(200, dashboardWire(dashboard));
  });
  app.post('/api/v1/embed/dashboard/:publicId/python-run', admin, async (c) => {
    const dashboard = requireDashboard(context, c);
    const input = await readValid(c, validatePythonRunInput);
    const filters = input.filters ?? {};
    const now = context.clock.now();
    const state = stateOf(context);
    state.runs += 1;
    return jsonResponse(200, {
      runId: `run-${state.runs}`,
      publicId: dashboard.publicId,
      status: 'completed',
      appliedFilters: filters,
      output: `Ran "${dashboard.config.title ?? dashboard.publicId}" with ${Object.keys(filters).length} filter(s)`,
      startedAt: iso(now),
      finishedAt: iso(now),
    });
  });

  return app;
}
