/**
 * The emulator's fixed world: the one place where every account, deployment, key, user, group,
 * attribute, embed tenant, folder, workbook, dashboard, report and agent the emulator starts with is
 * written down. It is stable across releases: tests, stories and partner demos may hard-code any
 * name or value here. Each start of the emulator copies this world into fresh in-memory state
 * (`state.ts`); requests change the copy, never these constants.
 *
 * Addresses (with `url` the emulator's `{base_url}`, for example `http://127.0.0.1:4010`):
 *
 * | placeholder | emulator address |
 * |---|---|
 * | `{base_url}` | `url` |
 * | `{ai_url}` of agent `1` | `{url}/api/v1/public/acme/agents/1` |
 * | `{data_url}` of deployment `N` | `{url}/data/N` (so `{url}/data/1/v1/load`) |
 *
 * The data the data API serves (orders, customers, products) is described in `data/model.ts`
 * (views, measures, dimensions) and built by `data/dataset.ts`. It spans 2024-01-01 to
 * 2025-12-31, and relative date ranges (`last 6 months`, `this year`, `last quarter`) resolve as if
 * today were {@link DATA_REFERENCE_DAY} (2025-12-31), whatever the clock says, so demos and the
 * agent's questions about recent periods always find rows.
 *
 * ## How the emulator behaves where the service's documents are silent
 *
 * Written down so partners can rely on it (each is tested):
 *
 * - Data API `load`: `GET /v1/load?query=<JSON>&queryType=multi` and the same as a `POST` body (as
 *   published clients send it) with one query answer
 *   `{ queryType: "regularQuery", results: [{ query, data, annotation, lastRefreshTime }], pivotQuery, slowQuery: false }`;
 *   an array of queries answers `queryType: "blendingQuery"`, its `pivotQuery` holding every
 *   measure and dimension and a `time` dimension at the queries' granularity, each row carrying
 *   `time.<granularity>` so a client can pivot all measures on one axis. Granularities that differ
 *   are a 400 (as the service); queries without any granularity are answered too (the service
 *   refuses them; the emulator keeps answering this library's `load([...])` of unrelated queries).
 *   An array without `queryType=multi` is a 400. Without `queryType` one query answers
 *   `{ query, data, annotation, lastRefreshTime }`.
 * - CORS: the data API (`/data/*`) and the chat API (`/api/v1/public/*`) answer any origin, as the
 *   service answers browser apps calling it with a token: preflight `OPTIONS` is 204 with
 *   `Access-Control-Allow-Methods: GET, POST, OPTIONS` and `Access-Control-Allow-Headers:
 *   Authorization, Content-Type, X-Service-Auth-Token, x-request-id` (and the emulator's testing
 *   headers `x-emulator-pace`, `x-emulator-fault`, `x-emulator-slow`), `Access-Control-Max-Age:
 *   600`; every answer, errors too, carries `Access-Control-Allow-Origin: *`; no credentials
 *   (cookies) are allowed. The
 *   management and embed-session APIs take an API key and send no CORS headers: browsers must not
 *   call them.
 * - Revoke ends the session and every token exchanged for it: the embed page, `/v1/load`,
 *   `/v1/cubesql`, `/v1/meta` and chat refuse such a token at once (403 `Invalid token` on the data
 *   API, the JSON-RPC `Unauthorized` on chat).
 * - `/v1/cubesql` queries run at most `queryTimeoutMs` (option, default 30 s; answered with a final
 *   `{"error":"Query timeout: ..."}` line, as the service ends a stream), and are interrupted when
 *   the client disconnects and when the emulator closes. Only the views of the data model are
 *   queryable: the system catalogue (`duckdb_*`, `pg_*`, `information_schema`, `SHOW`, `DESCRIBE`,
 *   `PRAGMA`) and functions that describe the engine (`version()`, `current_setting()`...) are
 *   refused, and the engine's own error texts never reach the client (errors read
 *   `Error during planning: ...` / `Error during execution: ...`).
 * - One data API query returns at most {@link MAX_QUERY_ROWS} rows (1,000,000) and
 *   {@link MAX_QUERY_BYTES} bytes of values (64 MiB; options `maxQueryRows` and `maxQueryBytes`).
 *   Beyond either, `/v1/cubesql` answers its schema line and then a final
 *   `{"error":"Error during execution: The result has more than ..."}` line, and `/v1/load` a 400
 *   `{"type":"UserError","error":"The result has more than ..."}`, never a truncated result.
 *   The engine stops reading at the limit: `SELECT * FROM range(20000000)` costs what a million
 *   rows cost, not 20 million. (`/v1/load` also caps `limit` at 50,000 rows, silently, as the
 *   service does.)
 * - Request bodies: at most {@link MAX_BODY_BYTES} (1 MiB) everywhere, except the management API
 *   (workbook upserts carry dashboards) at {@link MAX_MANAGEMENT_BODY_BYTES} (10 MiB): larger is a
 *   413 `{"error"}`, checked after the credential (which is checked before any byte of the body is
 *   read). JSON nested deeper than {@link MAX_JSON_DEPTH} (128) levels anywhere (bodies, the `query`
 *   parameter, `securityContext`, workbook `meta`) is a 400 in the endpoint's error shape; filter
 *   groups nest at most 32 deep; `last N <unit>s` takes N up to 10,000.
 * - Names that are JavaScript prototype members (`__proto__`, `constructor`, `toString`...) are
 *   refused wherever a request names something: fault directives, attribute names.
 * - Expired embed sessions (5 minutes, or 24 hours after an exchange), expired tokens and expired
 *   ephemeral chat users are swept from memory at most once a minute of the emulator clock, on the
 *   next request, so a long-running shared emulator stays flat. Counters keyed by what clients
 *   send (chat attempts per `messageId`, `x-emulator-slow` answers) keep the latest 10,000.
 * - Deployment ids in paths are canonical decimal numbers (`1`, `2`): `/data/01`, `/data/1e0`,
 *   `/data/+1` are 404.
 * - The management API answers every endpoint of the interface with the state its part of
 *   `features/management/` documents. Deployments created through it exist in the management API
 *   only (the data API, chat and embeds serve deployments 1 and 2), and those two cannot be
 *   deleted (409). Builds run `BUILD_DURATION_MS` by the emulator's clock. Account-level endpoints
 *   (users, attributes, SCIM, settings) take scoped admin keys: a scope limits deployments only.
 *
 * @module
 */
import type { DashboardConfig, DashboardWidget } from '../core/protocol/workbook';
import type { LoadQuery } from '../core/protocol/data';
import type { AppConfig, NotificationFields, TenantSettings, UserAttributeType } from '../core/protocol/management';

// ---------------------------------------------------------------------------------------------
// Account, deployments, keys
// ---------------------------------------------------------------------------------------------

/** The account (tenant) name: `accountName` in `{ai_url}` and the default embed tenant. */
export const ACCOUNT_NAME = 'acme';

/** A deployment of the account. */
export interface WorldDeployment {
  /** Deployment id, as in `/api/v1/deployments/{deploymentId}/...` and `{data_url}`. */
  readonly id: number;
  /** Display name. */
  readonly name: string;
  /**
   * The deployment's API secret: data API JWTs and chat deployment tokens are HS256 JWTs signed
   * with it (interface 5, behaviour 1). Emulator-only; never a real secret.
   */
  readonly jwtSecret: string;
  /**
   * Whether chat accepts the deployment token (`X-Service-Auth-Token`) for this deployment. Off by
   * default on the service (interface 5 rule 5): deployment 1 has it on, deployment 2 off, so both
   * paths can be tested.
   */
  readonly chatTokenAuth: boolean;
}

/** Deployment 1 ("production"): the default deployment of every URL and key. */
export const DEPLOYMENT_1: WorldDeployment = Object.freeze({
  id: 1,
  name: 'Acme Commerce',
  jwtSecret: 'emulator-deployment-1-secret-not-for-production-use',
  chatTokenAuth: true,
});

/** Deployment 2 ("staging"): same data; the scoped admin key cannot reach it. */
export const DEPLOYMENT_2: WorldDeployment = Object.freeze({
  id: 2,
  name: 'Acme Commerce (staging)',
  jwtSecret: 'emulator-deployment-2-secret-not-for-production-use',
  chatTokenAuth: false,
});

/** Every deployment of the account, by id order. */
export const DEPLOYMENTS: readonly WorldDeployment[] = Object.freeze([DEPLOYMENT_1, DEPLOYMENT_2]);

/** An API key of the account (interface 5). */
export interface WorldApiKey {
  /** The key itself, sent as `Bearer <key>` (management) or `Api-Key <key>` (embed, chat). */
  readonly key: string;
  /** Short label for logs and the CLI. */
  readonly label: string;
  /**
   * `admin`: may call admin endpoints (generate-session, embed-tenant admin, management).
   * `personal`: a user's own key, refused with 403 on admin endpoints.
   */
  readonly role: 'admin' | 'personal';
  /** Deployments it authorizes; `'all'` for an unscoped key (interface 5 rule 2). */
  readonly deploymentIds: 'all' | readonly number[];
  /** Internal user id the key acts as (the owner of what it creates). */
  readonly userId: number;
}

/** Unscoped admin key: every deployment, every endpoint. `startEmulator()` returns it as `apiKey`. */
export const ADMIN_API_KEY = 'svc_admin_acme_all_deployments_0001';
/** Admin key scoped to deployment 1: 403 on anything targeting deployment 2. */
export const SCOPED_ADMIN_API_KEY = 'svc_admin_acme_deployment_1_0001';
/** Personal (non-admin) key of `ben@acme.test`: 403 on admin endpoints. */
export const PERSONAL_API_KEY = 'svc_personal_ben_acme_0001';

/** Every API key of the account. */
export const API_KEYS: readonly WorldApiKey[] = Object.freeze([
  Object.freeze({
    key: ADMIN_API_KEY,
    label: 'admin (all deployments)',
    role: 'admin',
    deploymentIds: 'all',
    userId: 1,
  }),
  Object.freeze({
    key: SCOPED_ADMIN_API_KEY,
    label: 'admin (deployment 1 only)',
    role: 'admin',
    deploymentIds: Object.freeze([1]),
    userId: 1,
  }),
  Object.freeze({
    key: PERSONAL_API_KEY,
    label: 'personal (ben@acme.test, not admin)',
    role: 'personal',
    deploymentIds: 'all',
    userId: 2,
  }),
] satisfies WorldApiKey[]);

/** Tenant flags and account-wide settings. */
export interface WorldTenant {
  /** The tenant name (the account, `acme`). */
  readonly name: string;
  /** `useCreatorMode`: creator-mode sessions and definitions are allowed (4.2 rule 3). On. */
  readonly useCreatorMode: boolean;
  /** Account-wide show-dashboard-chat toggle that `settings.showDashboardChat` overrides (2.7). On. */
  readonly showDashboardChat: boolean;
  /** Account-wide default embed locale. */
  readonly locale: string;
}

/** The tenant `acme`. */
export const TENANT: WorldTenant = Object.freeze({
  name: ACCOUNT_NAME,
  useCreatorMode: true,
  showDashboardChat: true,
  locale: 'en-US',
});

// ---------------------------------------------------------------------------------------------
// Users, attributes, groups, embed tenants
// ---------------------------------------------------------------------------------------------

// The attribute types are the interface's (4.6): their one home is the protocol.
export { USER_ATTRIBUTE_TYPES, type UserAttributeType } from '../core/protocol/management';

/** A tenant-wide user attribute definition. */
export interface WorldUserAttribute {
  /** Attribute id. */
  readonly id: number;
  /** Attribute name, as sessions set it. */
  readonly name: string;
  /** Value type. */
  readonly type: UserAttributeType;
  /** Human name. */
  readonly displayName: string;
  /** What it means and restricts. */
  readonly description: string;
}

/**
 * Tenant-wide user attributes, one of each type. `region`, `allowed_regions` and
 * `allowed_store_ids` drive row-level security ({@link ROW_LEVEL_SECURITY}).
 */
export const USER_ATTRIBUTES: readonly WorldUserAttribute[] = Object.freeze([
  Object.freeze({
    id: 1,
    name: 'region',
    type: 'string',
    displayName: 'Region',
    description: 'Sales region the user sees: NA, EMEA, APAC or LATAM.',
  }),
  Object.freeze({
    id: 2,
    name: 'max_discount',
    type: 'number',
    displayName: 'Max discount',
    description: 'Largest discount the user may grant, in percent.',
  }),
  Object.freeze({
    id: 3,
    name: 'is_vip',
    type: 'boolean',
    displayName: 'VIP',
    description: 'Whether the user is a VIP partner.',
  }),
  Object.freeze({
    id: 4,
    name: 'allowed_regions',
    type: 'string_array',
    displayName: 'Allowed regions',
    description: 'Regions the user sees (any of).',
  }),
  Object.freeze({
    id: 5,
    name: 'allowed_store_ids',
    type: 'number_array',
    displayName: 'Allowed stores',
    description: 'Store ids the user sees (any of), 1 to 20.',
  }),
] satisfies WorldUserAttribute[]);

/** A tenant-wide group. */
export interface WorldGroup {
  /** Group id. */
  readonly id: number;
  /** Group name. */
  readonly name: string;
  /** What the group is for. */
  readonly description: string;
}

/** Tenant-wide groups that read-only sessions may name in `groups` (4.2 rule 1). */
export const GROUPS: readonly WorldGroup[] = Object.freeze([
  Object.freeze({ id: 1, name: 'analysts', description: 'Explore data and build workbooks.' }),
  Object.freeze({ id: 2, name: 'sales', description: 'Sales team.' }),
  Object.freeze({ id: 3, name: 'executives', description: 'Leadership dashboards.' }),
] satisfies WorldGroup[]);

/** An internal (account) user. */
export interface WorldInternalUser {
  /** User id. */
  readonly id: number;
  /** Email, also the username that `internalId` names. */
  readonly email: string;
  /** First name. */
  readonly firstName: string;
  /** Last name. */
  readonly lastName: string;
  /** `admin` manages everything; `editor` edits workbooks (AI BI User or higher); `viewer` reads. */
  readonly role: 'admin' | 'editor' | 'viewer';
  /** Names of their groups. */
  readonly groups: readonly string[];
  /** Values of tenant-wide attributes, by attribute name. */
  readonly attributes: Readonly<Record<string, string | number | boolean | readonly string[] | readonly number[]>>;
}

/** `ada@acme.test`: admin, sees every region. */
export const ADA: WorldInternalUser = Object.freeze({
  id: 1,
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Lovelace',
  role: 'admin',
  groups: Object.freeze(['executives']),
  attributes: Object.freeze({}),
});

/** `ben@acme.test`: editor in `sales`, restricted to region `EMEA`; owns the personal key. */
export const BEN: WorldInternalUser = Object.freeze({
  id: 2,
  email: 'ben@acme.test',
  firstName: 'Ben',
  lastName: 'Okafor',
  role: 'editor',
  groups: Object.freeze(['sales', 'analysts']),
  attributes: Object.freeze({ region: 'EMEA', max_discount: 15, is_vip: false }),
});

/** `cy@acme.test`: viewer, no groups. */
export const CY: WorldInternalUser = Object.freeze({
  id: 3,
  email: 'cy@acme.test',
  firstName: 'Cy',
  lastName: 'Young',
  role: 'viewer',
  groups: Object.freeze([]),
  attributes: Object.freeze({}),
});

/** Every internal user. */
export const INTERNAL_USERS: readonly WorldInternalUser[] = Object.freeze([ADA, BEN, CY]);

/** An embed tenant with its scoped groups and attribute definitions (creator mode, 4.2 rule 2). */
export interface WorldEmbedTenant {
  /** Embed tenant name (`embedTenantName` of sessions). */
  readonly name: string;
  /** Human name. */
  readonly displayName: string;
  /** Its groups. */
  readonly groups: readonly {
    /** Group name, as creator-mode sessions of this tenant name it in `groups`. */
    readonly name: string;
    /** What the group is for. */
    readonly description: string;
  }[];
  /** Attributes defined for its users. */
  readonly userAttributeDefinitions: readonly {
    /** Attribute name, as creator-mode sessions of this tenant set it in `userAttributes`. */
    readonly name: string;
    /** Value type; a scoped attribute has no `boolean` type, unlike the tenant-wide ones. */
    readonly type: 'string' | 'number' | 'string_array' | 'number_array';
    /** Human name. */
    readonly displayName: string;
  }[];
  /** External users that exist from the start, with their scoped groups and attribute values. */
  readonly users: readonly {
    /** The user's `externalId`, unique within the tenant: a session of this tenant that names it acts as this user. */
    readonly externalId: string;
    /** Email address. */
    readonly email: string;
    /** Human name. */
    readonly displayName: string;
    /** Names of their groups, from the tenant's `groups`. */
    readonly groups: readonly string[];
    /** Values of the tenant's scoped attributes, by attribute name. */
    readonly attributes: Readonly<Record<string, string | number | readonly string[] | readonly number[]>>;
  }[];
}

/** The embed tenant `globex-corp`: one scoped group, one scoped attribute, one existing user. */
export const GLOBEX: WorldEmbedTenant = Object.freeze({
  name: 'globex-corp',
  displayName: 'Globex Corporation',
  groups: Object.freeze([Object.freeze({ name: 'globex-analysts', description: 'Analysts at Globex.' })]),
  userAttributeDefinitions: Object.freeze([Object.freeze({ name: 'region', type: 'string', displayName: 'Region' })]),
  users: Object.freeze([
    Object.freeze({
      externalId: 'dana@globex.test',
      email: 'dana@globex.test',
      displayName: 'Dana Scully',
      groups: Object.freeze(['globex-analysts']),
      attributes: Object.freeze({ region: 'NA' }),
    }),
  ]),
} satisfies WorldEmbedTenant);

/** Every embed tenant. */
export const EMBED_TENANTS: readonly WorldEmbedTenant[] = Object.freeze([GLOBEX]);

// ---------------------------------------------------------------------------------------------
// Row-level security
// ---------------------------------------------------------------------------------------------

/**
 * A row-level security rule: when the caller's attributes hold `attribute`, rows of each listed
 * view are restricted to those whose dimension equals the value, or is one of the values when the
 * value is a list (an empty list: no rows). Rules combine with AND. A caller without the attribute
 * (or with `null`) is not restricted by that rule.
 *
 * The caller's attributes come from the data API JWT (see `data/security.ts`): its claims, its
 * `securityContext` object and its `userAttributes` (an object, or `[{name, value}]`), later ones
 * winning. Embed sessions and chat users get tokens carrying their `userAttributes` and
 * `securityContext`, so the same rules hold everywhere.
 */
export interface RowLevelSecurityRule {
  /** The user attribute whose value restricts rows. */
  readonly attribute: string;
  /** View name to the dimension (column of the view) it restricts. */
  readonly appliesTo: Readonly<Record<string, string>>;
}

/** The rules: `region` / `allowed_regions` restrict orders and customers; `allowed_store_ids` orders. */
export const ROW_LEVEL_SECURITY: readonly RowLevelSecurityRule[] = Object.freeze([
  Object.freeze({ attribute: 'region', appliesTo: Object.freeze({ orders: 'region', customers: 'region' }) }),
  Object.freeze({ attribute: 'allowed_regions', appliesTo: Object.freeze({ orders: 'region', customers: 'region' }) }),
  Object.freeze({ attribute: 'allowed_store_ids', appliesTo: Object.freeze({ orders: 'store_id' }) }),
] satisfies RowLevelSecurityRule[]);

/** The sales regions of the data set, the values `region` takes. */
export const REGIONS = Object.freeze(['NA', 'EMEA', 'APAC', 'LATAM'] as const);

// ---------------------------------------------------------------------------------------------
// Workspace: folders, workbooks, dashboards, reports
// ---------------------------------------------------------------------------------------------

/** A folder of a deployment's workspace. */
export interface WorldFolder {
  /** Folder id. */
  readonly id: number;
  /** Its deployment. */
  readonly deploymentId: number;
  /** Folder name. */
  readonly name: string;
  /** Parent folder; `null` at the top. */
  readonly parentId: number | null;
}

/** Folders: `Sales`, `Operations`, `Finance` and `Finance / Private` on deployment 1. */
export const FOLDERS: readonly WorldFolder[] = Object.freeze([
  Object.freeze({ id: 11, deploymentId: 1, name: 'Sales', parentId: null }),
  Object.freeze({ id: 12, deploymentId: 1, name: 'Operations', parentId: null }),
  Object.freeze({ id: 13, deploymentId: 1, name: 'Finance', parentId: null }),
  Object.freeze({ id: 14, deploymentId: 1, name: 'Private', parentId: 13 }),
] satisfies WorldFolder[]);

/**
 * `config` of a `CHART` widget in this world: the title, how to draw it, and the JSON query
 * (`/v1/load`) it runs. The embed pages run `query` against the data API with the viewer's token.
 */
export interface ChartWidgetConfig {
  /** Widget title. */
  readonly title: string;
  /** How the result is drawn. */
  readonly chartType: 'line' | 'bar' | 'pie' | 'table' | 'kpi';
  /** The data API query behind it. */
  readonly query: LoadQuery;
  [key: string]: unknown;
}

/** `config` of a `FILTER` widget: the dimension it filters (`view.dimension`) and its choices. */
export interface FilterWidgetConfig {
  /** Widget title. */
  readonly title: string;
  /** The dimension it filters, `view.dimension`. */
  readonly member: string;
  /** The values offered. */
  readonly options: readonly string[];
  [key: string]: unknown;
}

/** `config` of a `TEXT` widget: Markdown text. */
export interface TextWidgetConfig {
  /** The text, as Markdown. */
  readonly markdown: string;
  [key: string]: unknown;
}

/** A dashboard published from a workbook. */
export interface WorldDashboard {
  /** Dashboard id. */
  readonly id: number;
  /** What embed URLs name: `/embed/dashboard/{publicId}`. */
  readonly publicId: string;
  /** Whether signed embedding is enabled (PATCH `/api/v1/embed/dashboard/{publicId}` changes it). */
  readonly allowEmbed: boolean;
  /** Its widgets and layout. */
  readonly config: DashboardConfig;
}

/** A workbook with a slug, optionally with a published dashboard. */
export interface WorldWorkbook {
  /** Workbook id. */
  readonly id: number;
  /** Its deployment. */
  readonly deploymentId: number;
  /** Its slug, unique per deployment (upsert by slug). */
  readonly slug: string;
  /** Workbook name. */
  readonly name: string;
  /** Its folder; `null` at the top. */
  readonly folderId: number | null;
  /** Internal user id of the creator. */
  readonly createdBy: number;
  /** Creation time, ISO 8601. */
  readonly createdAt: string;
  /** Its published dashboard, if any. */
  readonly dashboard: WorldDashboard | null;
}

function chart(id: string, position: DashboardWidget['position'], config: ChartWidgetConfig): DashboardWidget {
  return { id, type: 'CHART', position, config };
}

function filterWidget(id: string, position: DashboardWidget['position'], config: FilterWidgetConfig): DashboardWidget {
  return { id, type: 'FILTER', position, config };
}

function text(id: string, position: DashboardWidget['position'], config: TextWidgetConfig): DashboardWidget {
  return { id, type: 'TEXT', position, config };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const LAYOUT = { cols: { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 }, rowHeight: 60, margin: [16, 16] };

/** Dashboard `sales-overview`: revenue KPI, revenue by month, orders by status, top regions. Embeddable. */
export const SALES_OVERVIEW: WorldDashboard = deepFreeze({
  id: 201,
  publicId: 'sales-overview',
  allowEmbed: true,
  config: {
    kind: 'CLASSIC',
    title: 'Sales overview',
    description: 'Revenue and orders across all regions.',
    layout: LAYOUT,
    widgets: [
      text('intro', { x: 0, y: 0, w: 12, h: 1 }, { markdown: '**Sales overview**: revenue and orders, all regions.' }),
      filterWidget(
        'status-filter',
        { x: 0, y: 1, w: 4, h: 1 },
        {
          title: 'Status',
          member: 'orders.status',
          options: ['completed', 'processing', 'shipped', 'cancelled', 'returned'],
        },
      ),
      chart(
        'revenue-kpi',
        { x: 0, y: 2, w: 3, h: 2 },
        {
          title: 'Total revenue',
          chartType: 'kpi',
          query: { measures: ['orders.total_revenue'] },
        },
      ),
      chart(
        'revenue-by-month',
        { x: 3, y: 2, w: 9, h: 4 },
        {
          title: 'Revenue by month',
          chartType: 'line',
          query: {
            measures: ['orders.total_revenue'],
            timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
            order: { 'orders.created_at': 'asc' },
          },
        },
      ),
      chart(
        'orders-by-status',
        { x: 0, y: 6, w: 6, h: 4 },
        {
          title: 'Orders by status',
          chartType: 'bar',
          query: { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.count': 'desc' } },
        },
      ),
      chart(
        'revenue-by-region',
        { x: 6, y: 6, w: 6, h: 4 },
        {
          title: 'Revenue by region',
          chartType: 'pie',
          query: { measures: ['orders.total_revenue'], dimensions: ['orders.region'] },
        },
      ),
    ],
  },
});

/** Dashboard `orders-ops`: recent orders table and orders per day. Embeddable. */
export const ORDERS_OPS: WorldDashboard = deepFreeze({
  id: 202,
  publicId: 'orders-ops',
  allowEmbed: true,
  config: {
    kind: 'CLASSIC',
    title: 'Order operations',
    description: 'Open orders and daily volume.',
    layout: LAYOUT,
    widgets: [
      filterWidget(
        'region-filter',
        { x: 0, y: 0, w: 4, h: 1 },
        {
          title: 'Region',
          member: 'orders.region',
          options: [...REGIONS],
        },
      ),
      chart(
        'orders-per-day',
        { x: 0, y: 1, w: 12, h: 4 },
        {
          title: 'Orders per day (last 90 days of data)',
          chartType: 'bar',
          query: {
            measures: ['orders.count'],
            timeDimensions: [
              { dimension: 'orders.created_at', granularity: 'day', dateRange: ['2025-10-03', '2025-12-31'] },
            ],
          },
        },
      ),
      chart(
        'open-orders',
        { x: 0, y: 5, w: 12, h: 5 },
        {
          title: 'Open orders',
          chartType: 'table',
          query: {
            dimensions: ['orders.id', 'orders.created_at', 'orders.customer_name', 'orders.status', 'orders.amount'],
            filters: [{ member: 'orders.status', operator: 'equals', values: ['processing', 'shipped'] }],
            order: { 'orders.created_at': 'desc' },
            limit: 50,
          },
        },
      ),
    ],
  },
});

/** Dashboard `internal-finance`: published but NOT allowed for embedding. */
export const INTERNAL_FINANCE: WorldDashboard = deepFreeze({
  id: 203,
  publicId: 'internal-finance',
  allowEmbed: false,
  config: {
    kind: 'CLASSIC',
    title: 'Internal finance',
    description: 'Margins by category. Internal only.',
    layout: LAYOUT,
    widgets: [
      chart(
        'revenue-by-category',
        { x: 0, y: 0, w: 12, h: 4 },
        {
          title: 'Revenue by category',
          chartType: 'bar',
          query: { measures: ['orders.total_revenue'], dimensions: ['orders.category'] },
        },
      ),
    ],
  },
});

/** Workbooks of deployment 1 with their slugs; three carry a published dashboard. */
export const WORKBOOKS: readonly WorldWorkbook[] = deepFreeze([
  {
    id: 101,
    deploymentId: 1,
    slug: 'sales-overview',
    name: 'Sales overview',
    folderId: 11,
    createdBy: 1,
    createdAt: '2025-01-06T09:00:00.000Z',
    dashboard: SALES_OVERVIEW,
  },
  {
    id: 102,
    deploymentId: 1,
    slug: 'orders-ops',
    name: 'Order operations',
    folderId: 12,
    createdBy: 2,
    createdAt: '2025-02-03T09:00:00.000Z',
    dashboard: ORDERS_OPS,
  },
  {
    id: 103,
    deploymentId: 1,
    slug: 'internal-finance',
    name: 'Internal finance',
    folderId: 14,
    createdBy: 1,
    createdAt: '2025-03-03T09:00:00.000Z',
    dashboard: INTERNAL_FINANCE,
  },
  {
    id: 104,
    deploymentId: 1,
    slug: 'q4-review',
    name: 'Q4 review',
    folderId: null,
    createdBy: 2,
    createdAt: '2025-10-01T09:00:00.000Z',
    dashboard: null,
  },
  {
    id: 105,
    deploymentId: 2,
    slug: 'staging-scratch',
    name: 'Staging scratch',
    folderId: null,
    createdBy: 1,
    createdAt: '2025-04-01T09:00:00.000Z',
    dashboard: null,
  },
]);

/** A saved report (a query with a visualization). */
export interface WorldReport {
  /** Report id. */
  readonly id: number;
  /** Its deployment. */
  readonly deploymentId: number;
  /** Public id. */
  readonly publicId: string;
  /** Report name. */
  readonly name: string;
  /** Its folder; `null` at the top. */
  readonly folderId: number | null;
  /** The SQL it runs. */
  readonly sqlQuery: string;
  /** Creation time, ISO 8601. */
  readonly createdAt: string;
}

/** Reports of deployment 1. Their SQL runs on `/v1/cubesql`. */
export const REPORTS: readonly WorldReport[] = deepFreeze([
  {
    id: 301,
    deploymentId: 1,
    publicId: 'revenue-by-month',
    name: 'Revenue by month',
    folderId: 11,
    sqlQuery:
      "SELECT DATE_TRUNC('month', created_at) AS month, MEASURE(orders.total_revenue) AS revenue FROM orders GROUP BY 1 ORDER BY 1",
    createdAt: '2025-01-06T09:00:00.000Z',
  },
  {
    id: 302,
    deploymentId: 1,
    publicId: 'orders-by-status',
    name: 'Orders by status',
    folderId: 12,
    sqlQuery: 'SELECT status, MEASURE(orders.count) AS orders FROM orders GROUP BY 1 ORDER BY 2 DESC',
    createdAt: '2025-02-03T09:00:00.000Z',
  },
  {
    id: 303,
    deploymentId: 1,
    publicId: 'top-customers',
    name: 'Top customers',
    folderId: 11,
    sqlQuery:
      'SELECT customer_name, MEASURE(orders.total_revenue) AS revenue FROM orders GROUP BY 1 ORDER BY 2 DESC LIMIT 10',
    createdAt: '2025-03-03T09:00:00.000Z',
  },
]);

// ---------------------------------------------------------------------------------------------
// Scheduled notifications
// ---------------------------------------------------------------------------------------------

/** A scheduled notification: a dashboard sent to its recipients on a schedule. */
export interface WorldNotification extends NotificationFields {
  /** Notification id. */
  readonly id: number;
  /** Its deployment. */
  readonly deploymentId: number;
  /** The dashboard sent, by public id. */
  readonly dashboardPublicId: string;
}

/** `Weekly sales`: `sales-overview` to Ada and `board@acme.test` every Monday at 08:00 Berlin time. */
export const NOTIFICATIONS: readonly WorldNotification[] = deepFreeze([
  {
    id: 401,
    deploymentId: 1,
    dashboardPublicId: 'sales-overview',
    name: 'Weekly sales',
    schedule: { cron: '0 8 * * 1', timezone: 'Europe/Berlin' },
    recipients: [{ userId: 1 }, { email: 'board@acme.test' }],
    filters: null,
    timeGrains: null,
  },
]);

// ---------------------------------------------------------------------------------------------
// Platform: regions, setup wizard, environment variables, data model, repository host
// ---------------------------------------------------------------------------------------------

/** A region deployments may run in (`GET /api/v1/regions/`). */
export interface WorldCloudRegion {
  /** Region id, `regionId` of a new deployment. */
  readonly id: string;
  /** Human name. */
  readonly name: string;
  /** Its cloud provider. */
  readonly cloudProvider: string;
}

/** The regions available to the tenant; the world's deployments run in the first. */
export const CLOUD_REGIONS: readonly WorldCloudRegion[] = deepFreeze([
  { id: 'aws-us-east-1', name: 'US East (N. Virginia)', cloudProvider: 'aws' },
  { id: 'aws-eu-central-1', name: 'Europe (Frankfurt)', cloudProvider: 'aws' },
  { id: 'gcp-us-central1', name: 'US Central (Iowa)', cloudProvider: 'gcp' },
]);

/**
 * Steps of the setup wizard of a new deployment (`creation-step/advance` and `/reset`), in
 * order; a new deployment starts at the first, the world's are at the last.
 */
export const CREATION_STEPS: readonly string[] = Object.freeze([
  'connect-data-source',
  'generate-data-model',
  'deploy',
  'done',
]);

/** An environment variable a deployment starts with. */
export interface WorldEnvVar {
  /** Its deployment. */
  readonly deploymentId: number;
  /** Variable name. */
  readonly name: string;
  /** Its value. */
  readonly value: string;
}

/** Environment variables of deployments 1 and 2 at start. */
export const ENV_VARS: readonly WorldEnvVar[] = deepFreeze([
  { deploymentId: 1, name: 'DB_TYPE', value: 'duckdb' },
  { deploymentId: 1, name: 'TZ', value: 'UTC' },
  { deploymentId: 2, name: 'DB_TYPE', value: 'duckdb' },
]);

/** The default branch of every deployment's data model. */
export const DEFAULT_BRANCH = 'main';

/** A file of the data model every deployment starts with on {@link DEFAULT_BRANCH}. */
export interface WorldDataModelFile {
  /** Path below the data model's root. */
  readonly path: string;
  /** Its contents. */
  readonly content: string;
}

/** The data model's files at start: the views of `data/model.ts`, as YAML. */
export const DATA_MODEL_FILES: readonly WorldDataModelFile[] = deepFreeze([
  {
    path: 'model/cubes/orders.yml',
    content:
      'cubes:\n  - name: orders\n    sql_table: orders\n    measures:\n      - name: count\n        type: count\n      - name: total_revenue\n        sql: amount\n        type: sum\n',
  },
  {
    path: 'model/cubes/customers.yml',
    content:
      'cubes:\n  - name: customers\n    sql_table: customers\n    measures:\n      - name: count\n        type: count\n',
  },
  {
    path: 'model/cubes/products.yml',
    content:
      'cubes:\n  - name: products\n    sql_table: products\n    measures:\n      - name: count\n        type: count\n',
  },
]);

/** An installation of the repository host app, with the repositories it reaches. */
export interface WorldRepoHostInstallation {
  /** Installation id. */
  readonly id: number;
  /** The account it is installed on. */
  readonly account: string;
  /** Its repositories. */
  readonly repositories: readonly {
    /** The owner. */
    readonly owner: string;
    /** The name. */
    readonly name: string;
    /** Its default branch. */
    readonly defaultBranch: string;
    /** Its branches. */
    readonly branches: readonly string[];
  }[];
}

/** The repository host app installed on `acme`, reaching `acme/analytics-model`. */
export const REPO_HOST_INSTALLATIONS: readonly WorldRepoHostInstallation[] = deepFreeze([
  {
    id: 501,
    account: 'acme',
    repositories: [{ owner: 'acme', name: 'analytics-model', defaultBranch: 'main', branches: ['main', 'staging'] }],
  },
]);

// ---------------------------------------------------------------------------------------------
// Tenant: settings, app config, OAuth integrations, OIDC token configs
// ---------------------------------------------------------------------------------------------

/** Tenant settings at start (`GET /api/v1/tenant/settings`). */
export const TENANT_SETTINGS: Readonly<TenantSettings> = deepFreeze({
  auditLogEnabled: true,
  maintenanceWindow: { dayOfWeek: 0, startHour: 3, durationHours: 2 },
  supportAccessEnabled: false,
  oidcEnabled: false,
  aiInterfaceEnabled: true,
  biInterfaceEnabled: true,
});

/**
 * The app config at start (`GET /api/v1/app-config`), without `embedding`, which is read from
 * the tenant ({@link TENANT}'s locale and show-dashboard-chat toggle).
 */
export const APP_CONFIG: Readonly<Omit<AppConfig, 'embedding'>> = deepFreeze({
  appTheme: { primaryColor: '#4E79A7', font: 'Inter, sans-serif' },
  applyThemeGlobally: false,
  creatorMode: {
    showGeneratedSql: true,
    showSemanticSql: false,
    localizedTitles: [
      { locale: 'en-US', value: 'Acme Analytics' },
      { locale: 'de-DE', value: 'Acme Analysen' },
    ],
  },
  sheetsUi: { showAppliedFilters: true },
});

/** An OAuth integration the tenant starts with. */
export interface WorldOAuthIntegration {
  /** Integration id. */
  readonly id: number;
  /** Name shown to users. */
  readonly name: string;
  /** The provider. */
  readonly provider: string;
  /** OAuth client id (an emulator value). */
  readonly clientId: string;
  /** The provider's authorization endpoint. */
  readonly authorizeUrl: string;
  /** The provider's token endpoint. */
  readonly tokenUrl: string;
  /** Scopes requested. */
  readonly scopes: readonly string[];
}

/** OAuth integrations at start: `GitHub`. */
export const OAUTH_INTEGRATIONS: readonly WorldOAuthIntegration[] = deepFreeze([
  {
    id: 1,
    name: 'GitHub',
    provider: 'github',
    clientId: 'emulator-github-client-id',
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    scopes: ['repo', 'read:user'],
  },
]);

/** An OIDC token config the tenant starts with. */
export interface WorldOidcTokenConfig {
  /** Config id. */
  readonly id: number;
  /** Its name. */
  readonly name: string;
  /** Token issuer (`iss`). */
  readonly issuer: string;
  /** Expected audience (`aud`). */
  readonly audience: string;
  /** Where the issuer's keys are. */
  readonly jwksUrl: string;
}

/** OIDC token configs at start: the partner's identity provider `https://idp.acme.test`. */
export const OIDC_TOKEN_CONFIGS: readonly WorldOidcTokenConfig[] = deepFreeze([
  {
    id: 1,
    name: 'Acme identity provider',
    issuer: 'https://idp.acme.test',
    audience: 'acme-analytics',
    jwksUrl: 'https://idp.acme.test/.well-known/jwks.json',
  },
]);

// ---------------------------------------------------------------------------------------------
// Agents
// ---------------------------------------------------------------------------------------------

/** An AI agent of the account. */
export interface WorldAgent {
  /** `agentId` in `{ai_url}`. */
  readonly id: string;
  /** The deployment it queries. */
  readonly deploymentId: number;
  /** Agent name. */
  readonly name: string;
}

/** Agent `1` on deployment 1: the scripted analyst, the `aiUrl` of `startEmulator()`. */
export const AGENT_1: WorldAgent = Object.freeze({ id: '1', deploymentId: 1, name: 'Acme analyst' });

/** Every agent. */
export const AGENTS: readonly WorldAgent[] = Object.freeze([AGENT_1]);

// ---------------------------------------------------------------------------------------------
// The whole world
// ---------------------------------------------------------------------------------------------

/** The whole world as one object, as features receive it through `EmulatorContext.world`. */
export interface World {
  /** The account name in `{ai_url}`: `acme`. */
  readonly accountName: string;
  /** The tenant and its settings. */
  readonly tenant: WorldTenant;
  /** Deployments 1 and 2. */
  readonly deployments: readonly WorldDeployment[];
  /** The published API keys. */
  readonly apiKeys: readonly WorldApiKey[];
  /** Tenant-wide user attributes. */
  readonly userAttributes: readonly WorldUserAttribute[];
  /** Groups of internal users. */
  readonly groups: readonly WorldGroup[];
  /** Ada, Ben and Cy. */
  readonly internalUsers: readonly WorldInternalUser[];
  /** The embed tenant `globex-corp`. */
  readonly embedTenants: readonly WorldEmbedTenant[];
  /** Which attributes restrict which rows. */
  readonly rowLevelSecurity: readonly RowLevelSecurityRule[];
  /** Folders of deployment 1. */
  readonly folders: readonly WorldFolder[];
  /** Workbooks, with their dashboards. */
  readonly workbooks: readonly WorldWorkbook[];
  /** Saved SQL reports. */
  readonly reports: readonly WorldReport[];
  /** The chat agents: agent `1`. */
  readonly agents: readonly WorldAgent[];
  /** Scheduled notifications. */
  readonly notifications: readonly WorldNotification[];
  /** Regions deployments may run in. */
  readonly regions: readonly WorldCloudRegion[];
  /** Steps of the setup wizard. */
  readonly creationSteps: readonly string[];
  /** Environment variables of the deployments. */
  readonly envVars: readonly WorldEnvVar[];
  /** The data model's files on the default branch. */
  readonly dataModelFiles: readonly WorldDataModelFile[];
  /** Installations of the repository host app. */
  readonly repoHostInstallations: readonly WorldRepoHostInstallation[];
  /** Tenant settings. */
  readonly tenantSettings: Readonly<TenantSettings>;
  /** The app config, without `embedding` (read from the tenant). */
  readonly appConfig: Readonly<Omit<AppConfig, 'embedding'>>;
  /** OAuth integrations. */
  readonly oauthIntegrations: readonly WorldOAuthIntegration[];
  /** OIDC token configs. */
  readonly oidcTokenConfigs: readonly WorldOidcTokenConfig[];
}

/** The fixed world. */
export const WORLD: World = Object.freeze({
  accountName: ACCOUNT_NAME,
  tenant: TENANT,
  deployments: DEPLOYMENTS,
  apiKeys: API_KEYS,
  userAttributes: USER_ATTRIBUTES,
  groups: GROUPS,
  internalUsers: INTERNAL_USERS,
  embedTenants: EMBED_TENANTS,
  rowLevelSecurity: ROW_LEVEL_SECURITY,
  folders: FOLDERS,
  workbooks: WORKBOOKS,
  reports: REPORTS,
  agents: AGENTS,
  notifications: NOTIFICATIONS,
  regions: CLOUD_REGIONS,
  creationSteps: CREATION_STEPS,
  envVars: ENV_VARS,
  dataModelFiles: DATA_MODEL_FILES,
  repoHostInstallations: REPO_HOST_INSTALLATIONS,
  tenantSettings: TENANT_SETTINGS,
  appConfig: APP_CONFIG,
  oauthIntegrations: OAUTH_INTEGRATIONS,
  oidcTokenConfigs: OIDC_TOKEN_CONFIGS,
});

/**
 * "Today" for relative date ranges of the data API: the last day of the emulator's data, so
 * `this year`, `last quarter` or `last 6 months` always return rows.
 */
export const DATA_REFERENCE_DAY = '2025-12-31';

/** Largest request body, in bytes, except the management API's: larger is a 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Largest management API body, in bytes (workbook upserts carry whole dashboards). */
export const MAX_MANAGEMENT_BODY_BYTES = 10 * 1024 * 1024;
/** Deepest JSON nesting (objects and arrays) the emulator reads: deeper is a 400. */
export const MAX_JSON_DEPTH = 128;
/**
 * Most rows one data API query may return (`maxQueryRows` of `startEmulator`): 8 times the
 * largest view (120,000 orders), so every view can be read whole.
 */
export const MAX_QUERY_ROWS = 1_000_000;
/**
 * Most bytes of values one data API query may return (`maxQueryBytes` of `startEmulator`): the
 * text of every value, in UTF-8, as the answer carries it. All orders take about 14 MiB.
 */
export const MAX_QUERY_BYTES = 64 * 1024 * 1024;

/**
 * The deployment id a path segment names, or `undefined` unless it is canonical: a positive
 * decimal number without sign, exponent or leading zero (`1`, never `01`, `1e0` or `+1`).
 */
export function parseDeploymentId(segment: string | undefined): number | undefined {
  return segment !== undefined && /^[1-9]\d{0,8}$/.test(segment) ? Number(segment) : undefined;
}

/** The deployment with this id, or `undefined`. */
export function findDeployment(world: World, deploymentId: number): WorldDeployment | undefined {
  return world.deployments.find((deployment) => deployment.id === deploymentId);
}

/** `{ai_url}` of an agent below the emulator's `url`. */
export function agentUrl(url: string, agentId: string = AGENT_1.id, accountName: string = ACCOUNT_NAME): string {
  return `${url}/api/v1/public/${encodeURIComponent(accountName)}/agents/${encodeURIComponent(agentId)}`;
}

/** `{data_url}` of a deployment below the emulator's `url`. */
export function dataUrl(url: string, deploymentId: number = DEPLOYMENT_1.id): string {
  return `${url}/data/${deploymentId}`;
}
