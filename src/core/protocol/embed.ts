/**
 * Embed messaging: the browser `postMessage` protocol between a host page and an embedded surface
 * (docs/protocol.md 6.1 to 6.3; behaviour 2). The single home of its rules: the embed
 * channel, the embed URL builder, the React components and the emulator's embed pages all read
 * them from here, in both directions (hosts validate events and build actions, the emulator
 * validates actions and builds events).
 *
 * Validation is tolerant where the service may grow and strict where a mistake would bite:
 * payloads may carry fields this version does not know (they pass through untouched), event types
 * this version does not know pass through as {@link UnknownEmbedEvent}, but every field the
 * interface names must have its documented type.
 *
 * @module
 */
import { isRecord, problem } from './shared';

// ---------------------------------------------------------------------------------------------
// Envelope (6.1)

/** Value of `source` on every message of the protocol, in both directions (6.1). */
export const EMBED_SOURCE = 'service-embed';

/** Prefix of every event type (6.2). */
export const EMBED_EVENT_PREFIX = 'service:event:';

/** Prefix of every action type (6.3). */
export const EMBED_ACTION_PREFIX = 'service:action:';

/** The embedded surfaces (6.3): published dashboard, creator-mode app, standalone chat. */
export const SURFACES = ['dashboard', 'app', 'chat'] as const;

/**
 * Which surface sent an event (6.1, 6.3): `dashboard` (published dashboard), `app` (creator-mode
 * app, including the AI chat inside it), `chat` (standalone analytics chat).
 */
export type Surface = (typeof SURFACES)[number];

/** `event` travels from the embed to the host, `action` from the host to the embed (6.1). */
export type EmbedDirection = 'event' | 'action';

/** Fields every event carries (6.1); `surface` is always present on events. */
export interface EmbedEventEnvelope<TType extends string, TPayload> {
  /** Always `EMBED_SOURCE`. */
  source: typeof EMBED_SOURCE;
  /** Always `event`. */
  direction: 'event';
  /** Event name, `service:event:...`. */
  type: TType;
  /** Shape depends on `type` (6.2). */
  payload: TPayload;
  /** When the embed sent it, epoch milliseconds. */
  timestamp: number;
  /** The surface that sent it. */
  surface: Surface;
}

/** Fields every action carries (6.1); actions never carry `surface`. */
export interface EmbedActionEnvelope<TType extends string, TPayload> {
  /** Always `EMBED_SOURCE`. */
  source: typeof EMBED_SOURCE;
  /** Always `action`. */
  direction: 'action';
  /** Action name, `service:action:...`. */
  type: TType;
  /** Shape depends on `type` (6.3); `{}` when the action takes none. */
  payload: TPayload;
  /** When the host created it, epoch milliseconds. */
  timestamp: number;
}

// ---------------------------------------------------------------------------------------------
// Event payloads (6.2)

/** `service:event:ready`: the embed authenticated and mounted; first event, once per session. */
export interface ReadyPayload {
  /** Embed tenant of the session, or `null` for the account's default tenant. */
  embedTenant: string | null;
  /** Deployment of the session, or `null`. */
  deploymentId: number | null;
  /** `signed` for signed embedding (sessions), `private` for logged-in viewers. */
  mode: 'signed' | 'private';
  /** The surface that became ready. */
  surface: Surface;
  /** Public id of the dashboard, on dashboards. */
  publicId?: string;
}

/** `service:event:view`: a surface is viewed, on load and on each in-embed navigation. */
export interface ViewPayload {
  /** The surface being viewed. */
  surface: Surface;
  /** In-embed path being viewed. */
  path: string;
  /** Public id of the dashboard, on dashboards. */
  publicId?: string;
  /** Title of what is viewed. */
  title?: string;
}

/** `service:event:navigate`: the viewer navigated within the embed. */
export interface NavigatePayload {
  /** The new in-embed path. */
  path: string;
  /** The path before the navigation. */
  previousPath?: string;
}

/** `service:event:dashboard-loaded`: every widget of a dashboard has rendered (after `ready`). */
export interface DashboardLoadedPayload {
  /** Public id of the dashboard. */
  publicId?: string;
  /** How many widgets rendered. */
  widgetCount?: number;
  /** Time from mount to the last widget, in milliseconds. */
  loadDurationMs?: number;
}

/** Formats of {@link DownloadPayload}. */
export type DownloadFormat = 'csv' | 'xlsx' | 'png' | 'pdf';

/**
 * `service:event:download`: the viewer exported data or an image. Never carries the exported
 * rows. The CSV action appears on widgets only when the embed URL has `allowExport=true`.
 */
export interface DownloadPayload {
  /** File format. */
  format: DownloadFormat;
  /** Whether one widget or the whole dashboard was exported. */
  target: 'widget' | 'dashboard';
  /** The widget, when `target` is `widget`. */
  widgetId?: string;
  /** Title of what was exported. */
  title?: string;
  /** Number of exported rows, on data exports. */
  rowCount?: number;
}

/** `service:event:drilldown`: the viewer drilled into a measure. */
export interface DrilldownPayload {
  /** Fully qualified measure, for example `orders.count`. */
  member: string;
  /** The value drilled into, of any JSON type. */
  value?: unknown;
  /** The widget drilled from. */
  widgetId?: string;
}

/** Statuses of {@link AiQueryPayload}. */
export type AiQueryStatus = 'submitted' | 'completed' | 'error';

/**
 * `service:event:ai-query`: the viewer ran an AI query. The event's `surface` is `app` inside the
 * embedded app and `chat` on the standalone chat surface.
 */
export interface AiQueryPayload {
  /** What the viewer asked. */
  query: string;
  /** Where the query is in its life. */
  status: AiQueryStatus;
  /** Chat thread id. */
  chatId?: string;
  /** Agent that answered. */
  agentId?: string;
}

/** `service:event:error`: the embed surfaced an error. */
export interface ErrorPayload {
  /** Human-readable message. */
  message: string;
  /** Error name. */
  name?: string;
  /** Where it happened, for example `embed-render`. */
  context?: string;
  /** `true` when the whole surface went down. */
  fatal?: boolean;
}

/**
 * `service:event:session-expiring` (behaviour 2, payload our choice where the service
 * publishes none): the embed's session ends soon. The host answers with
 * `service:action:set-session` and a new session, and the page carries on without reloading. Sent
 * some minutes ahead (at most 30); older embeds never send it, and hosts must not need it.
 */
export interface SessionExpiringPayload {
  /** When the session ends, epoch milliseconds, when the embed knows it. */
  expiresAt?: number;
}

/** Payload of each known event type (6.2, then behaviour 2). */
export interface EmbedEventPayloads {
  /** The embed authenticated and mounted: once per session, the first event. */
  'service:event:ready': ReadyPayload;
  /** A surface is viewed: on load and on each navigation inside the embed. */
  'service:event:view': ViewPayload;
  /** The viewer navigated inside the embed. */
  'service:event:navigate': NavigatePayload;
  /** Every widget of the dashboard rendered (after `ready`, which comes before data). */
  'service:event:dashboard-loaded': DashboardLoadedPayload;
  /** The viewer exported data or an image (never carries the rows). */
  'service:event:download': DownloadPayload;
  /** The viewer drilled into a measure. */
  'service:event:drilldown': DrilldownPayload;
  /** The viewer ran an AI query, and its progress. */
  'service:event:ai-query': AiQueryPayload;
  /** The embed surfaced an error; `fatal` when the whole surface went down. */
  'service:event:error': ErrorPayload;
  /** The embed's session ends soon: renew it in place with `service:action:set-session`. */
  'service:event:session-expiring': SessionExpiringPayload;
}

/** Name of a known event (6.2). */
export type EmbedEventType = keyof EmbedEventPayloads;

/** The event of one known type, for example `EmbedEventOf<'service:event:ready'>`. */
export type EmbedEventOf<T extends EmbedEventType> = EmbedEventEnvelope<T, EmbedEventPayloads[T]>;

/**
 * A valid event of a known type: the envelope, the type and the payload all checked. A
 * discriminated union on `type`, so `switch (event.type)` narrows `payload`.
 */
export type EmbedEvent = { [T in EmbedEventType]: EmbedEventOf<T> }[EmbedEventType];

/**
 * An event with a valid envelope whose `type` this version does not know: a newer service sends
 * events this library has not learned yet (for example `service:event:session-expired`). They
 * are delivered, never dropped and never thrown on, with an untyped payload.
 */
export type UnknownEmbedEvent = EmbedEventEnvelope<`service:event:${string}`, { [key: string]: unknown }>;

/**
 * What an embed channel delivers: a known {@link EmbedEvent} or an {@link UnknownEmbedEvent}.
 * Narrow with {@link isEmbedEvent} before switching on `type`: the unknown variant's open `type`
 * would otherwise keep every payload in play.
 */
export type AnyEmbedEvent = EmbedEvent | UnknownEmbedEvent;

// ---------------------------------------------------------------------------------------------
// Action payloads (6.3; behaviour 2)

/** Color schemes of `set-color-scheme`; `auto` follows the operating system's preference. */
export type ColorScheme = 'light' | 'dark' | 'auto';

/**
 * Brand theme of an embed, the `embedTheme` object the session API accepts and `set-theme` sends.
 * Open: fields beyond those below pass through to the service untouched.
 */
export interface EmbedTheme {
  /** Font family, for example `Inter, sans-serif`. */
  font?: string;
  /** Primary brand color, a CSS color. */
  primaryColor?: string;
  /** Corner radius: a CSS length (`'8px'`) or a number of pixels. */
  borderRadius?: string | number;
  /** Colors of the AI chat. */
  analyticsChat?: {
    /** Background of the chat panel. */
    backgroundColor?: string;
    /** Colors of the message input. */
    chatInput?: {
      /** Background of the message input, a CSS color. */
      backgroundColor?: string;
      /** Border of the message input, a CSS color. */
      borderColor?: string;
      [key: string]: unknown;
    };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** `service:action:set-color-scheme`: switch the color scheme. */
export interface SetColorSchemePayload {
  /** `light`, `dark`, or `auto` (the OS preference). */
  scheme: ColorScheme;
}

/** `service:action:set-theme`: apply a brand theme. */
export type SetThemePayload = EmbedTheme;

/** `service:action:set-locale`: switch the UI language. */
export interface SetLocalePayload {
  /** A full code (`es-MX`), short code (`es`) or regional variant (`es-AR`); see `resolveLocale`. */
  locale: string;
}

/** `service:action:set-filter`: push filters into a dashboard. */
export interface SetFilterPayload {
  /**
   * One or more `f_<view>.<dimension>=<JSON>` parameters joined by `&`, the JSON percent-encoded
   * (`buildFilterUrlParameter` of the embed URL builder writes it).
   */
  filterUrlParameter: string;
}

/** `service:action:navigate`: navigate to an in-embed path. */
export interface NavigateActionPayload {
  /** A path of the embed app, such as `/dashboard/sales-overview`. */
  path: string;
}

/** `service:action:refresh`: re-run the queries. Takes no payload (sent as `{}`). */
export type RefreshPayload = Record<string, never>;

/** `service:action:set-timezone` (behaviour 2): switch the time zone. */
export interface SetTimezonePayload {
  /** IANA time zone name, for example `Asia/Tokyo`. */
  timezone: string;
}

/**
 * `service:action:set-session` (behaviour 2): a new session for the page, renewing it in
 * place. The page exchanges it as a load would (single use, within 5 minutes, the same tenant and
 * viewer, the same surface) and keeps its state. It answers with `service:event:ready` (once per
 * session) when it took the session, and with `service:event:error` whose `context` is `session`
 * when it refused it; the host then reloads the iframe with another session.
 */
export interface SetSessionPayload {
  /** The new single-use session id, from generate-session. */
  sessionId: string;
}

/** Payload of each action type (6.3; behaviour 2). */
export interface EmbedActionPayloads {
  /** Switch the colour scheme. */
  'service:action:set-color-scheme': SetColorSchemePayload;
  /** Apply a brand theme. */
  'service:action:set-theme': SetThemePayload;
  /** Change the UI language. */
  'service:action:set-locale': SetLocalePayload;
  /** Replace the dashboard filters. */
  'service:action:set-filter': SetFilterPayload;
  /** Navigate to a path inside the embed. */
  'service:action:navigate': NavigateActionPayload;
  /** Run the queries again. */
  'service:action:refresh': RefreshPayload;
  /** Change the time zone dates are shown in. */
  'service:action:set-timezone': SetTimezonePayload;
  /** Hand the page a new session: renewal in place, no reload. */
  'service:action:set-session': SetSessionPayload;
}

/** Name of an action. */
export type EmbedActionType = keyof EmbedActionPayloads;

/** The action of one type, for example `EmbedActionOf<'service:action:navigate'>`. */
export type EmbedActionOf<T extends EmbedActionType> = EmbedActionEnvelope<T, EmbedActionPayloads[T]>;

/** A complete action message, as posted to the embed: a discriminated union on `type`. */
export type EmbedAction = { [T in EmbedActionType]: EmbedActionOf<T> }[EmbedActionType];

/**
 * An action with a valid envelope whose `type` this version does not know. Embeds (the emulator)
 * ignore these rather than fail, so a newer host never breaks an older embed.
 */
export type UnknownEmbedAction = EmbedActionEnvelope<`service:action:${string}`, { [key: string]: unknown }>;

// ---------------------------------------------------------------------------------------------
// Locales and time zones (behaviour 2)

/** Locales the embed ships (behaviour 2); the first is the default. */
export const SUPPORTED_LOCALES = [
  'en-US',
  'de-DE',
  'es-ES',
  'es-MX',
  'fr-FR',
  'it-IT',
  'ja-JP',
  'nb-NO',
  'pt-BR',
  'pt-PT',
  'sv-SE',
  'vi-VN',
] as const;

/** A locale the embed ships. */
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];

/** The locale used when none is given or none matches. */
export const DEFAULT_LOCALE: SupportedLocale = 'en-US';

/**
 * Resolves a requested locale to one the embed ships (behaviour 2): an exact match
 * (case-insensitive, `_` read as `-`) wins; otherwise a short code (`es`) or an unshipped variant
 * (`es-AR`) resolves to the first shipped locale of that language (`es-ES`); anything else, or
 * nothing, resolves to `en-US`.
 */
export function resolveLocale(input: string | null | undefined): SupportedLocale {
  const tag = (input ?? '').trim().replace(/_/g, '-').toLowerCase();
  const language = tag.split('-')[0];
  return (
    SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === tag) ??
    SUPPORTED_LOCALES.find((locale) => locale.slice(0, locale.indexOf('-')).toLowerCase() === language) ??
    DEFAULT_LOCALE
  );
}

/**
 * True when `value` looks like a BCP-47 tag the embed can resolve: a 2 or 3 letter language and
 * optional subtags (`es`, `es-AR`, `zh-Hant-TW`; `_` accepted for `-`).
 */
export function isLocaleTag(value: string): boolean {
  return /^[a-z]{2,3}(?:[-_][a-z\d]{1,8})*$/i.test(value);
}

/** True when `value` is an IANA time zone name this runtime knows, for example `Asia/Tokyo`. */
export function isTimeZone(value: string): boolean {
  try {
    // The runtime's own time zone database is the authority; it throws a RangeError otherwise.
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Filter and time grain URL parameters (behaviour 2; 6.3 set-filter)

/** Prefix of a preset filter URL parameter: `f_<view>.<dimension>=<JSON>`. */
export const FILTER_PARAMETER_PREFIX = 'f_';

/** Prefix of a time grain URL parameter: `tg_<view>.<dimension>=<granularity>`. */
export const TIME_GRAIN_PARAMETER_PREFIX = 'tg_';

/** True when `value` names a member as `<view>.<dimension>`: no spaces, at least one dot. */
export function isMemberName(value: string): boolean {
  return /^[^\s.]+\.\S+$/.test(value) && !value.endsWith('.');
}

/**
 * True when `value` is a valid `filterUrlParameter` of `set-filter` (6.3): one or more
 * `f_<view>.<dimension>=<JSON>` parameters joined by `&`, each value JSON (percent-encoded or not).
 */
export function isFilterUrlParameter(value: string): boolean {
  let count = 0;
  for (const [name, json] of new URLSearchParams(value)) {
    if (!name.startsWith(FILTER_PARAMETER_PREFIX) || !isMemberName(name.slice(FILTER_PARAMETER_PREFIX.length))) {
      return false;
    }
    try {
      JSON.parse(json);
    } catch {
      return false;
    }
    count++;
  }
  return count > 0;
}

// ---------------------------------------------------------------------------------------------
// Validation
//
// Checked by hand with a few tiny combinators rather than with valibot: the embed channel must
// stay under 3 kB gzipped, and the schemas alone would take more than that. Each rule below is
// still the only place its field is checked; the embed URL builder checks its options with the
// same combinators and the same locale and time zone rules.

/**
 * Checks `value` found at `path`, adding a problem to `problems` for each thing wrong: the path,
 * then in development what was expected and what came (see `problem`).
 */
export type Rule = (value: unknown, path: string, problems: string[]) => void;

/** One rule per field of `T`, index signatures left out (extra fields pass through). */
type Rules<T> = { [K in keyof T as string extends K ? never : K]-?: Rule };

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' && value !== null
    ? 'an object'
    : typeof value === 'function'
      ? 'a function'
      : String(value);
}

/**
 * A rule passing the values `test` accepts: `${path}: expected ${expected}, got ...` otherwise
 * (`${path}` alone in production, where `expected` is given behind the development condition of
 * `problem` and so is `false`).
 */
export const is =
  (test: (value: unknown) => boolean, expected: string | false): Rule =>
  (value, path, problems) => {
    if (!test(value))
      problems.push(
        problem(path, process.env.NODE_ENV !== 'production' && `expected ${expected}, got ${describe(value)}`),
      );
  };

/** `rule`, or absent. */
export const optional =
  (rule: Rule): Rule =>
  (value, path, problems) => {
    if (value !== undefined) rule(value, path, problems);
  };

const nullable =
  (rule: Rule): Rule =>
  (value, path, problems) => {
    if (value !== null) rule(value, path, problems);
  };

/** One of `options`, quoted in the problem. */
export const oneOf = (options: readonly unknown[]): Rule =>
  is(
    (value) => options.includes(value),
    process.env.NODE_ENV !== 'production' && options.map((option) => JSON.stringify(option)).join(' or '),
  );

// Loose: fields a newer service adds pass through instead of failing the message.
/** An object whose named fields pass their rules (other fields pass through). */
export const shape =
  (fields: { readonly [field: string]: Rule }): Rule =>
  (value, path, problems) => {
    if (!isRecord(value)) {
      problems.push(
        problem(path, process.env.NODE_ENV !== 'production' && `expected an object, got ${describe(value)}`),
      );
      return;
    }
    for (const field in fields) fields[field]!(value[field], path ? `${path}.${field}` : field, problems);
  };

const text = (test: (value: string) => boolean, expected: string | false): Rule =>
  is((value) => typeof value === 'string' && test(value), expected);
const string = /*#__PURE__*/ text(() => true, process.env.NODE_ENV !== 'production' && 'a string');
const optionalString = /*#__PURE__*/ optional(string);
const number = /*#__PURE__*/ is(
  (value) => typeof value === 'number' && Number.isFinite(value),
  process.env.NODE_ENV !== 'production' && 'a finite number',
);
const optionalNumber = /*#__PURE__*/ optional(number);
const surface = /*#__PURE__*/ oneOf(SURFACES);
/** Any object. */
export const object = /*#__PURE__*/ shape({});
/** A BCP-47 tag, for `set-locale` and the embed URL's `locale`. */
export const localeRule = /*#__PURE__*/ text(isLocaleTag, process.env.NODE_ENV !== 'production' && 'a BCP-47 tag');
/** An IANA time zone, for `set-timezone` and the embed URL's `timezone`. */
export const timeZoneRule = /*#__PURE__*/ text(
  isTimeZone,
  process.env.NODE_ENV !== 'production' && 'an IANA time zone',
);

// The tables are built in pure calls: a bundle that never checks an embed message (the native chat)
// drops them with their rules.
const eventPayloadRules: { [T in EmbedEventType]: Rules<EmbedEventPayloads[T]> } = /*#__PURE__*/ (() => ({
  'service:event:ready': {
    embedTenant: nullable(string),
    deploymentId: nullable(number),
    mode: oneOf(['signed', 'private']),
    surface,
    publicId: optionalString,
  },
  'service:event:view': { surface, path: string, publicId: optionalString, title: optionalString },
  'service:event:navigate': { path: string, previousPath: optionalString },
  'service:event:dashboard-loaded': {
    publicId: optionalString,
    widgetCount: optionalNumber,
    loadDurationMs: optionalNumber,
  },
  'service:event:download': {
    format: oneOf(['csv', 'xlsx', 'png', 'pdf']),
    target: oneOf(['widget', 'dashboard']),
    widgetId: optionalString,
    title: optionalString,
    rowCount: optionalNumber,
  },
  // `value` may be any JSON value, or absent.
  'service:event:drilldown': { member: string, value: () => {}, widgetId: optionalString },
  'service:event:ai-query': {
    query: string,
    status: oneOf(['submitted', 'completed', 'error']),
    chatId: optionalString,
    agentId: optionalString,
  },
  'service:event:error': {
    message: string,
    name: optionalString,
    context: optionalString,
    fatal: optional(is((value) => typeof value === 'boolean', process.env.NODE_ENV !== 'production' && 'a boolean')),
  },
  'service:event:session-expiring': { expiresAt: optionalNumber },
}))();

const actionPayloadRules: { [T in EmbedActionType]: Rules<EmbedActionPayloads[T]> } = /*#__PURE__*/ (() => ({
  'service:action:set-color-scheme': { scheme: oneOf(['light', 'dark', 'auto']) },
  'service:action:set-theme': {
    font: optionalString,
    primaryColor: optionalString,
    borderRadius: optional(
      is(
        (value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)),
        process.env.NODE_ENV !== 'production' && 'a CSS length or pixels',
      ),
    ),
    analyticsChat: optional(
      shape({
        backgroundColor: optionalString,
        chatInput: optional(shape({ backgroundColor: optionalString, borderColor: optionalString })),
      }),
    ),
  },
  'service:action:set-locale': { locale: localeRule },
  'service:action:set-filter': {
    filterUrlParameter: text(
      isFilterUrlParameter,
      process.env.NODE_ENV !== 'production' && 'f_<view>.<dimension>=<JSON>, joined by &',
    ),
  },
  'service:action:navigate': { path: string },
  'service:action:refresh': {},
  'service:action:set-timezone': { timezone: timeZoneRule },
  'service:action:set-session': {
    sessionId: text((value) => value.trim() !== '', process.env.NODE_ENV !== 'production' && 'a session id'),
  },
}))();

/**
 * Every known event type, in the order of 6.2, then those of behaviour 2: the keys of the
 * rules, so the two never drift apart.
 */
export const EMBED_EVENT_TYPES: readonly [
  'service:event:ready',
  'service:event:view',
  'service:event:navigate',
  'service:event:dashboard-loaded',
  'service:event:download',
  'service:event:drilldown',
  'service:event:ai-query',
  'service:event:error',
  'service:event:session-expiring',
] = /*#__PURE__*/ Object.keys(eventPayloadRules) as never;

/** Every action type, in the order of 6.3, then those of behaviour 2 (the keys of the rules). */
export const EMBED_ACTION_TYPES: readonly [
  'service:action:set-color-scheme',
  'service:action:set-theme',
  'service:action:set-locale',
  'service:action:set-filter',
  'service:action:navigate',
  'service:action:refresh',
  'service:action:set-timezone',
  'service:action:set-session',
] = /*#__PURE__*/ Object.keys(actionPayloadRules) as never;

/** The outcome of {@link parseEmbedEvent} or `parseEmbedAction`. */
export type EmbedParseResult<TKnown, TUnknown> =
  | {
      /** Envelope, known type and payload all valid. */
      kind: 'known';
      /** The message as received, extra fields included. */
      message: TKnown;
    }
  | {
      /** A valid envelope of a type this version does not know: deliver (events) or ignore (actions). */
      kind: 'unknown';
      /** The message as received. */
      message: TUnknown;
    }
  | {
      /** Not a message of the protocol, or a known type with a bad payload: drop it. */
      kind: 'invalid';
      /** What is wrong, one entry per problem, each starting with its field path. */
      problems: string[];
    };

function parse(
  value: unknown,
  direction: EmbedDirection,
  payloadRules: { readonly [type: string]: { readonly [field: string]: Rule } },
): EmbedParseResult<unknown, unknown> {
  const problems: string[] = [];
  // 6.1: `source` is checked first, so messages of other libraries fail with one clear reason.
  if (!isRecord(value) || value.source !== EMBED_SOURCE) {
    problems.push(problem('source', process.env.NODE_ENV !== 'production' && `expected "${EMBED_SOURCE}"`));
  } else {
    // The envelope of both directions, one rule set (6.1).
    shape({
      direction: oneOf([direction]),
      type: text(
        (type) => type.startsWith(`service:${direction}:`),
        process.env.NODE_ENV !== 'production' && `a name starting with "service:${direction}:"`,
      ),
      payload: object,
      timestamp: number,
      // 6.1: `surface` is always present on events and never on actions.
      surface:
        direction === 'event'
          ? surface
          : (_, path, found) => {
              if ('surface' in value)
                found.push(problem(path, process.env.NODE_ENV !== 'production' && 'not allowed on actions'));
            },
    })(value, '', problems);
    if (!problems.length) {
      const fields = Object.hasOwn(payloadRules, value.type as string) ? payloadRules[value.type as string] : undefined;
      if (!fields) return { kind: 'unknown', message: value };
      shape(fields)(value.payload, 'payload', problems);
    }
  }
  return problems.length ? { kind: 'invalid', problems } : { kind: 'known', message: value };
}

/**
 * Reads a value received from an embed (the `data` of a `message` event). Three outcomes:
 * `known` (envelope, known type and payload all valid), `unknown` (valid envelope of an event
 * type this version does not know: deliver it as it is) and `invalid` with the problems found,
 * one each: its field path, with what is wrong in development builds. Never throws. The message is returned as received, extra fields included.
 */
export function parseEmbedEvent(value: unknown): EmbedParseResult<EmbedEvent, UnknownEmbedEvent> {
  return parse(value, 'event', eventPayloadRules) as EmbedParseResult<EmbedEvent, UnknownEmbedEvent>;
}

/**
 * Reads a value received from a host (what an embed, such as the emulator's, gets). Same outcomes
 * as {@link parseEmbedEvent}: an embed should ignore `unknown` actions rather than fail.
 */
export function parseEmbedAction(value: unknown): EmbedParseResult<EmbedAction, UnknownEmbedAction> {
  return parse(value, 'action', actionPayloadRules) as EmbedParseResult<EmbedAction, UnknownEmbedAction>;
}

/** True when `value` is an event with a valid envelope, a known type and a valid payload (6.1, 6.2). */
export function isEmbedEvent(value: unknown): value is EmbedEvent {
  return parseEmbedEvent(value).kind === 'known';
}

/** True when `value` is an action with a valid envelope, a known type and a valid payload (6.1, 6.3). */
export function isEmbedAction(value: unknown): value is EmbedAction {
  return parseEmbedAction(value).kind === 'known';
}

/** True when `type` names an event type this version knows (6.2, behaviour 2). Checks the name only. */
export function isEmbedEventType(type: string): type is EmbedEventType {
  return Object.hasOwn(eventPayloadRules, type);
}

// ---------------------------------------------------------------------------------------------
// Builders

/** `payload` may be left out when every field of it is optional (for example `refresh`). */
type PayloadField<TPayload> =
  Record<string, never> extends TPayload
    ? {
        /** The payload of the type; `{}` when left out. */
        payload?: TPayload;
      }
    : {
        /** The payload of the type (6.2, 6.3). */
        payload: TPayload;
      };

/**
 * What {@link createEmbedAction} needs: the `type`, its `payload`, and optionally the `timestamp`.
 * An embed channel's `send` also takes this, so hosts rarely build envelopes by hand.
 */
export type EmbedActionInit = {
  [T in EmbedActionType]: {
    /** The action, `service:action:...`. */
    type: T;
    /** When it was created, epoch milliseconds. Default: now. */
    timestamp?: number;
  } & PayloadField<EmbedActionPayloads[T]>;
}[EmbedActionType];

/** What `createEmbedEvent` needs: the `surface`, the `type`, its `payload` and optionally the `timestamp`. */
export type EmbedEventInit = {
  [T in EmbedEventType]: {
    /** The surface sending it. */
    surface: Surface;
    /** The event, `service:event:...`. */
    type: T;
    /** When it was sent, epoch milliseconds. Default: now. */
    timestamp?: number;
  } & PayloadField<EmbedEventPayloads[T]>;
}[EmbedEventType];

/**
 * Builds an action message (6.1): stamps `source`, `direction: 'action'` and `timestamp` (now,
 * unless given), never `surface`; `payload` defaults to `{}`. Does not validate: an embed
 * channel's `send` does, and TypeScript checks the payload here.
 */
export function createEmbedAction<I extends EmbedActionInit>(init: I): EmbedActionOf<I['type']> {
  return {
    source: EMBED_SOURCE,
    direction: 'action',
    type: init.type,
    payload: init.payload ?? {},
    timestamp: init.timestamp ?? Date.now(),
  } as EmbedActionOf<I['type']>;
}

/**
 * Builds an event message (6.1), the embed's side of the protocol (the emulator and test fakes):
 * stamps `source`, `direction: 'event'`, `surface` and `timestamp` (now, unless given);
 * `payload` defaults to `{}`. Does not validate.
 */
export function createEmbedEvent<I extends EmbedEventInit>(init: I): EmbedEventOf<I['type']> {
  return {
    source: EMBED_SOURCE,
    direction: 'event',
    type: init.type,
    payload: init.payload ?? {},
    timestamp: init.timestamp ?? Date.now(),
    surface: init.surface,
  } as EmbedEventOf<I['type']>;
}
