/**
 * Embed URLs of the three surfaces (behaviour 2) and the tenant origin rule that the embed
 * channel shares (protocol 5 rule 1, 6.1).
 *
 * Every URL parameter is viewer-editable: a viewer can open the iframe's address and change it.
 * Filters, switches, locale and time zone here are conveniences, never security: anything that
 * must hold against the viewer (row-level access, which dashboards they may see) belongs in the
 * session minted on the server (generate-session, 2.7 and 4.2).
 *
 * @module
 */
import { ServiceConfigError } from './errors';
import { isRecord, problem } from './protocol/shared';
import {
  FILTER_PARAMETER_PREFIX,
  SURFACES,
  TIME_GRAIN_PARAMETER_PREFIX,
  is,
  isMemberName,
  localeRule,
  object,
  oneOf,
  optional,
  shape,
  timeZoneRule,
} from './protocol/embed';

// ---------------------------------------------------------------------------------------------
// Tenant origin

function isLoopback(hostname: string): boolean {
  // The URL parser has already normalised IPv4 (`127.1` becomes `127.0.0.1`) and IPv6 hosts.
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function parseTenantUrl(tenantUrl: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(tenantUrl);
  } catch {
    // Reported below, with the other rules.
  }
  // 5 rule 1: only HTTPS. Plain http only on loopback, where the emulator runs.
  const https = url && (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname)));
  if (!url || !https || url.username || url.password || url.search || url.hash) {
    // In production the message is the field alone (`problem`).
    throw new ServiceConfigError(
      problem(
        'tenantUrl',
        process.env.NODE_ENV !== 'production' &&
          `${JSON.stringify(tenantUrl)} ${
            !url
              ? 'is not an absolute URL such as "https://acme.example.com"'
              : !https
                ? 'must use https (or http on loopback)'
                : 'must have no credentials, query or fragment'
          }`,
      ),
    );
  }
  return url;
}

/**
 * The origin of a tenant URL (`https://acme.example.com`), the one origin embed messages may come
 * from and the target origin of every action (6.1). The single home of the rule that the tenant
 * is `https`, or `http` only on loopback (`localhost`, `127.0.0.0/8`, `[::1]`) for the emulator.
 * @throws {ServiceConfigError} when `tenantUrl` is not such a URL, or carries credentials, a
 * query or a fragment.
 */
export function tenantOrigin(tenantUrl: string): string {
  return parseTenantUrl(tenantUrl).origin;
}

// ---------------------------------------------------------------------------------------------
// Parameters

/** A single filter operand. */
export type EmbedFilterScalar = string | number | boolean;

/** Common filter operators; the service defaults to `equals`. Others pass through as written. */
export type EmbedFilterOperator =
  | 'equals'
  | 'notEquals'
  | 'contains'
  | 'notContains'
  | 'startsWith'
  | 'endsWith'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'set'
  | 'notSet'
  | 'inDateRange'
  | 'notInDateRange'
  | 'beforeDate'
  | 'afterDate'
  | (string & {});

/**
 * A filter written out: `{ value }`, optionally with an `operator`. Encoded as JSON as it is, so
 * fields beyond these reach the service too. Give `value` (one operand or several), an `operator`
 * that needs none (`set`, `notSet`), or both.
 */
export interface EmbedFilterCondition {
  /** One operand or several; omit for operators that take none (`set`, `notSet`). */
  value?: EmbedFilterScalar | readonly EmbedFilterScalar[];
  /** How `value` is compared; the service's default (`equals`) when omitted. */
  operator?: EmbedFilterOperator;
  [key: string]: unknown;
}

/** A filter's value: a plain operand (`'completed'` means `{"value":"completed"}`), a list of them, or a condition. */
export type EmbedFilterValue = EmbedFilterScalar | readonly EmbedFilterScalar[] | EmbedFilterCondition;

/** One filter in the list form of {@link EmbedFilters}. */
export interface EmbedFilterEntry extends EmbedFilterCondition {
  /** `<view>.<dimension>`, for example `orders.status`. */
  member: string;
}

/**
 * Preset filters, each becoming `f_<view>.<dimension>=<JSON>`. Either an object keyed by member
 * (`{ 'orders.status': 'completed' }`; `undefined` and `null` entries are skipped, which lets a
 * declarative prop drop a filter) or a list of {@link EmbedFilterEntry}.
 */
export type EmbedFilters =
  { readonly [member: string]: EmbedFilterValue | null | undefined } | readonly EmbedFilterEntry[];

/** Standard time grains; custom granularities defined in the data model pass through by name. */
export type EmbedTimeGrain =
  'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year' | (string & {});

/**
 * `show...` switches of dashboards and apps. Only `false` is sent (`show...=false`); `true` or
 * leaving one out keeps the service's default, which is shown. Other `show...` switches the
 * service adds can be given by name.
 */
export interface DashboardSwitches {
  /** Hide the dashboard's export menu. */
  showDashboardExportMenu?: boolean;
  /** Hide the dashboard's header. */
  showDashboardHeader?: boolean;
  /** Hide the dashboard's title. */
  showDashboardTitle?: boolean;
  [name: `show${string}`]: boolean | undefined;
}

/** `show...` switches of the chat surface; as {@link DashboardSwitches}, only `false` is sent. */
export interface ChatSwitches {
  /** Hide the "new chat" button. */
  showNewChat?: boolean;
  /** Hide the message input (read-only chat). */
  showChatInput?: boolean;
  /** Hide the chat history. */
  showChatHistory?: boolean;
  [name: `show${string}`]: boolean | undefined;
}

/** Options of every surface. */
export interface EmbedUrlBaseOptions {
  /** The tenant host `{base_url}`, `https://` (or `http://` on loopback, for the emulator). */
  tenantUrl: string;
  /**
   * A fresh session id from generate-session (4.2). Sessions are single-use: every iframe load
   * needs a new one.
   */
  sessionId: string;
  /** UI language as a BCP-47 tag (`de-DE`, `es`); default: the account's. See `resolveLocale`. */
  locale?: string;
  /** IANA time zone for dates, for example `Europe/Berlin`; default: the account's. */
  timezone?: string;
}

/** Options of the surfaces that show dashboards (published dashboards and apps). */
export interface EmbedDashboardParameters {
  /** Preset filters (`f_<view>.<dimension>=<JSON>`). Viewer-editable. */
  filters?: EmbedFilters;
  /** Time grain per time dimension (`tg_<view>.<dimension>=<grain>`), e.g. `{ 'orders.created_at': 'month' }`. */
  timeGrains?: { readonly [member: string]: EmbedTimeGrain | undefined };
  /** Show the CSV download action on widgets (`allowExport=true`). Default `false`. */
  allowExport?: boolean;
  /** Parts to hide. */
  switches?: DashboardSwitches;
}

/** {@link buildEmbedUrl} for a published dashboard: `/embed/dashboard/{publicId}?session=`. */
export interface DashboardEmbedUrlOptions extends EmbedUrlBaseOptions, EmbedDashboardParameters {
  /** A published dashboard. */
  surface: 'dashboard';
  /** Public id of the published dashboard. */
  publicId: string;
}

/** {@link buildEmbedUrl} for a creator-mode app: `/embed/d/{deploymentId}/app?session=`. */
export interface AppEmbedUrlOptions extends EmbedUrlBaseOptions, EmbedDashboardParameters {
  /** The creator-mode app of a deployment. */
  surface: 'app';
  /** The deployment, a positive integer. */
  deploymentId: number;
}

/** {@link buildEmbedUrl} for the standalone chat: `/embed/chat?sessionId=` (note `sessionId`). */
export interface ChatEmbedUrlOptions extends EmbedUrlBaseOptions {
  /** The standalone chat. */
  surface: 'chat';
  /** Parts to hide. */
  switches?: ChatSwitches;
}

/** Options of {@link buildEmbedUrl}, one shape per surface. */
export type BuildEmbedUrlOptions = DashboardEmbedUrlOptions | AppEmbedUrlOptions | ChatEmbedUrlOptions;

function isScalar(value: unknown): value is EmbedFilterScalar {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

/** The `[member, value]` pairs of `filters`, whichever form they came in; `undefined` for neither form. Shared with the embeds, which diff filters. */
export function filterEntries(filters: unknown): (readonly [unknown, unknown])[] | undefined {
  if (Array.isArray(filters)) {
    return filters.map((entry: unknown) => {
      if (!isRecord(entry)) return [undefined, entry];
      const { member, ...condition } = entry;
      return [member, condition];
    });
  }
  return isRecord(filters) ? Object.entries(filters) : undefined;
}

/**
 * A problem with one entry of an object option: its path (`filters.orders.status`) in production,
 * `filters: "orders.status" needs ...` in development (`detail` given as `NODE_ENV` allows).
 */
const entryProblem = (field: string, key: unknown, detail: string | false): string =>
  detail ? `${field}: ${JSON.stringify(key)} ${detail}` : `${field}.${String(key)}`;

function filterParameters(filters: EmbedFilters, problems: string[]): [string, string][] {
  const entries = filterEntries(filters);
  if (!entries) {
    problems.push(process.env.NODE_ENV !== 'production' ? 'filters must be an object or a list' : 'filters');
    return [];
  }
  const parameters: [string, string][] = [];
  const seen = new Set<string>();
  for (const [member, value] of entries) {
    if (value === undefined || value === null) continue;
    if (typeof member !== 'string' || !isMemberName(member)) {
      problems.push(
        entryProblem(
          'filters',
          member,
          process.env.NODE_ENV !== 'production' && 'is not a member: write it as "<view>.<dimension>"',
        ),
      );
    } else if (seen.has(member)) {
      problems.push(entryProblem('filters', member, process.env.NODE_ENV !== 'production' && 'is given twice'));
    } else {
      seen.add(member);
      // A plain operand means the default `equals` filter: `{"value": operand}`.
      const condition = isRecord(value) ? value : { value };
      const { value: operand, operator } = condition;
      const hasOperator = typeof operator === 'string' && operator !== '';
      const valid =
        (operator === undefined || hasOperator) &&
        (operand === undefined
          ? hasOperator
          : isScalar(operand) || (Array.isArray(operand) && operand.every(isScalar)));
      if (valid) parameters.push([FILTER_PARAMETER_PREFIX + member, JSON.stringify(condition)]);
      else
        problems.push(
          entryProblem('filters', member, process.env.NODE_ENV !== 'production' && 'needs a value or an operator'),
        );
    }
  }
  return parameters;
}

// `encodeURIComponent` rather than URLSearchParams: the latter writes spaces as `+`, which a
// server decoding with decodeURIComponent would keep inside the JSON.
function toQuery(parameters: readonly (readonly [string, string])[]): string {
  return parameters.map((pair) => pair.map(encodeURIComponent).join('=')).join('&');
}

/**
 * The `filterUrlParameter` of a `service:action:set-filter` action (6.3): the same
 * `f_<view>.<dimension>=<JSON>` parameters {@link buildEmbedUrl} writes, joined by `&`. Use it to
 * change filters after load, since reloading the iframe would need a new session. Returns `''`
 * when no filter is set (not a valid action payload: send nothing then).
 * @throws {ServiceConfigError} when a member name or value is malformed.
 */
export function buildFilterUrlParameter(filters: EmbedFilters): string {
  const problems: string[] = [];
  const query = toQuery(filterParameters(filters, problems));
  if (problems.length) throw new ServiceConfigError(`buildFilterUrlParameter: ${problems.join('; ')}`);
  return query;
}

/** The entries of an optional object option (`checkFields` reports one that is not an object). */
const entriesOf = (value: unknown): [string, unknown][] => (isRecord(value) ? Object.entries(value) : []);

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Builds the `src` of an embed iframe for one surface (behaviour 2):
 * - dashboard: `{tenantUrl}/embed/dashboard/{publicId}?session={sessionId}`
 * - app: `{tenantUrl}/embed/d/{deploymentId}/app?session={sessionId}`
 * - chat: `{tenantUrl}/embed/chat?sessionId={sessionId}`
 *
 * then, where given: `f_...` filters, `tg_...` time grains, `allowExport=true` (only when
 * `true`), `show...=false` switches (only when `false`), `locale`, `timezone`. Values are
 * percent-encoded. A base path in `tenantUrl` is kept.
 *
 * These parameters are viewer-editable: nothing that must hold against the viewer goes here;
 * put it in the session (2.7).
 * @throws {ServiceConfigError} when an option is missing or malformed; the message says how to fix it.
 */
export function buildEmbedUrl(options: BuildEmbedUrlOptions): string {
  const base = parseTenantUrl(options.tenantUrl);
  const { surface, sessionId, switches } = options;
  const { publicId, deploymentId, filters, timeGrains } = options as Partial<
    DashboardEmbedUrlOptions & AppEmbedUrlOptions
  >;
  const problems: string[] = [];
  // The options' plain rules, with the protocol's combinators and rules; the per-entry rules follow.
  shape({
    surface: oneOf(SURFACES),
    sessionId: is(isText, process.env.NODE_ENV !== 'production' && 'a new session per iframe load'),
    ...(surface === 'dashboard' && {
      publicId: is(
        (id) => isText(id) && id !== '.' && id !== '..',
        process.env.NODE_ENV !== 'production' && "the dashboard's public id",
      ),
    }),
    ...(surface === 'app' && {
      deploymentId: is(
        (id) => Number.isSafeInteger(id) && (id as number) > 0,
        process.env.NODE_ENV !== 'production' && 'a positive integer',
      ),
    }),
    timeGrains: optional(object),
    switches: optional(object),
    locale: optional(localeRule),
    timezone: optional(timeZoneRule),
  })(options, '', problems);
  const path =
    surface === 'dashboard'
      ? `dashboard/${encodeURIComponent(publicId!)}`
      : surface === 'app'
        ? `d/${deploymentId}/app`
        : 'chat';
  // The standalone chat reads `sessionId`, not `session` (behaviour 2).
  const parameters: [string, string][] = [[surface === 'chat' ? 'sessionId' : 'session', sessionId]];
  if (surface === 'dashboard' || surface === 'app') {
    if (filters !== undefined) parameters.push(...filterParameters(filters, problems));
    for (const [member, grain] of entriesOf(timeGrains)) {
      if (grain === undefined) continue;
      if (!isMemberName(member)) {
        problems.push(
          entryProblem(
            'timeGrains',
            member,
            process.env.NODE_ENV !== 'production' && 'is not a member: write it as "<view>.<dimension>"',
          ),
        );
      } else if (typeof grain !== 'string' || !/^[A-Za-z_]\w*$/.test(grain)) {
        problems.push(
          entryProblem('timeGrains', member, process.env.NODE_ENV !== 'production' && 'needs a granularity name'),
        );
      } else parameters.push([TIME_GRAIN_PARAMETER_PREFIX + member, grain]);
    }
    // Only the literal `true` turns exports on (behaviour 2).
    if (options.allowExport === true) parameters.push(['allowExport', 'true']);
  }

  for (const [name, value] of entriesOf(switches)) {
    if (!/^show[A-Z]\w*$/.test(name))
      problems.push(entryProblem('switches', name, process.env.NODE_ENV !== 'production' && 'is not a show... switch'));
    else if (value !== undefined && typeof value !== 'boolean')
      problems.push(entryProblem('switches', name, process.env.NODE_ENV !== 'production' && 'must be true or false'));
    // Only the literal `false` means anything to the service; shown is the default.
    else if (value === false) parameters.push([name, 'false']);
  }

  for (const name of ['locale', 'timezone'] as const)
    if (options[name] !== undefined) parameters.push([name, options[name]]);

  if (problems.length) throw new ServiceConfigError(`buildEmbedUrl: ${problems.join('; ')}`);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}/embed/${path}?${toQuery(parameters)}`;
}
