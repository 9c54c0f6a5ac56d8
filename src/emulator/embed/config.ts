/**
 * What the server hands an embed page, and the few names both sides of the page share.
 *
 * The emulator's embed pages are one HTML shell (`html.ts`) plus one browser script (bundled from
 * `page/`). The server authenticates the viewer (exchanges the single-use session), decides what
 * they may see, signs the data token and writes all of it into the shell as
 * {@link EmbedPageConfig}, a JSON data block the script reads on start. This module is imported
 * by both: it holds types and constants only, no Node and no DOM.
 *
 * @module
 */
import type { EmbedTheme, Surface } from '../../core/protocol/embed';
import type { DashboardWidget } from '../../core/protocol/workbook';

/** `id` of the `<script type="application/json">` element that carries the {@link EmbedPageConfig}. */
export const CONFIG_ELEMENT_ID = 'service-embed-config';

/**
 * Test-only URL parameter: `?__emulatorEcho=1` makes the page post a
 * {@link STATE_EVENT_TYPE} event after it mounts, after each action it applies and after each
 * render, carrying {@link EmbedPageState}. The live service has nothing like it: it lets browser
 * tests read the visible effect of an action from a cross-origin iframe, and it exercises the
 * host's handling of event types it does not know.
 */
export const ECHO_PARAMETER = '__emulatorEcho';

/**
 * Type of the debug event of {@link ECHO_PARAMETER}. Not an event of the interface: a valid
 * envelope with a type hosts do not know, which an embed channel passes through as an unknown event.
 */
export const STATE_EVENT_TYPE = 'service:event:x-emulator-state';

/**
 * Posted with payload `{}` (our choice: the service publishes none) when the page's token lapses,
 * by timer or when the data API refuses it. An event type the protocol does not type yet, so
 * hosts receive it as an unknown event.
 */
export const SESSION_EXPIRED_EVENT_TYPE = 'service:event:session-expired';

/**
 * How long before its token lapses an embed page posts `service:event:session-expiring` (with
 * `expiresAt`): 5 minutes, within the "a few minutes, at most 30" the protocol promises hosts.
 */
export const SESSION_EXPIRING_LEAD_MS = 300_000;

/**
 * How often the page reads the emulator's clock (a manual clock included): once a second, so a
 * test that moves the clock sees `session-expiring` and `session-expired` within about a second.
 */
export const CLOCK_POLL_MS = 1_000;

/** `GET`: the emulator's clock, `{ now }` (Unix ms), for the embed pages' session timing. */
export const CLOCK_PATH = '/embed/_clock';

/**
 * `POST`: an embed page exchanges the session of `service:action:set-session` here, as a load
 * would. Body {@link SetSessionRequest}; answers {@link SetSessionAnswer}, or 4xx `{ error }`.
 */
export const SET_SESSION_PATH = '/embed/_session';

/** What the page posts to {@link SET_SESSION_PATH}. */
export interface SetSessionRequest {
  /** The new single-use session, from the host's `set-session`. */
  sessionId: string;
  /** The page's current token (lapsed or not): who the viewer is, which the new session must match. */
  token: string;
  /** What the page shows, checked against the new session as a load checks it. */
  surface: Surface;
  deploymentId: number;
  publicId?: string;
}

/** The answer of {@link SET_SESSION_PATH}: the new tokens; the page keeps everything else. */
export interface SetSessionAnswer {
  token: string;
  /** When the new token lapses (emulator clock, Unix ms). */
  tokenExpiresAt: number;
  /** The new chat token, when the page has a chat. */
  chatToken: string | null;
}

/** A dashboard as the page renders it. */
export interface PageDashboard {
  publicId: string;
  title: string;
  description: string | null;
  /** `CLASSIC` dashboards are rendered widget by widget; `APP` dashboards only get a notice. */
  kind: 'CLASSIC' | 'APP';
  widgets: DashboardWidget[];
}

/** A workbook of the creator-mode app's home. */
export interface PageWorkbook {
  id: number;
  slug: string;
  name: string;
  /** Folder names from the top, `[]` at the root. */
  folderPath: string[];
  /** Its published dashboard, when it has one that may be embedded. */
  dashboard: PageDashboard | null;
}

/** How the page reaches the chat agent. */
export interface PageChat {
  /** `{ai_url}` of the agent, a path on the emulator's origin. */
  url: string;
  agentId: string;
  /** Deployment token for `X-Service-Auth-Token` (claims: the viewer, `scope: ['chat']`). */
  token: string;
}

/** Everything the server decides for one page load. */
export interface EmbedPageConfig {
  surface: Surface;
  /**
   * Set when the page cannot mount (missing, unknown, expired or used session; dashboard not found
   * or not embeddable): the page shows it and posts a fatal `service:event:error`, nothing else.
   */
  error?: {
    /** English, stable: the `message` of the `error` event. */
    message: string;
    /** The same in the page's locale: what the viewer reads. */
    display: string;
    /** `context` of the event: `embed-auth` (the session) or `embed-load` (what it names). */
    context: string;
    name: string;
  };
  /** `embedTenant` of `ready`: the session's embed tenant (the account name for its own tenant). */
  embedTenant: string | null;
  deploymentId: number | null;
  /** Locale and time zone of the session's settings, used when the URL names none. */
  defaultLocale: string;
  defaultTimezone: string;
  /** `{data_url}` of the deployment (a path on the emulator's origin) and the viewer's JWT for it. */
  dataUrl: string;
  token: string;
  /**
   * When `token` lapses, by the emulator's clock (Unix ms), which the page reads from
   * {@link CLOCK_PATH} every second: {@link SESSION_EXPIRING_LEAD_MS} before it, the page posts
   * `service:event:session-expiring`; at it, {@link SESSION_EXPIRED_EVENT_TYPE}. Absent on error pages.
   */
  tokenExpiresAt?: number;
  /** The session's `embedTheme`; `set-theme` merges over it. */
  theme: EmbedTheme;
  /** Dashboard surface: the dashboard. */
  dashboard?: PageDashboard;
  /** App surface: the deployment's workbooks. */
  workbooks?: PageWorkbook[];
  /** The agent, when the deployment has one; `null` otherwise (AI questions then fail visibly). */
  chat: PageChat | null;
  /** Whether the AI chat launcher shows on published dashboards (session `settings.showDashboardChat`, else the account toggle). */
  showDashboardChat: boolean;
  /** Who is viewing, for the greeting. */
  viewer: { displayName: string };
}

/** One widget in {@link EmbedPageState}. */
export interface EmbedPageWidgetState {
  /** Widget id in the dashboard config. */
  id: string;
  /** Widget type, such as `chart` or `table`. */
  type: string;
  /** Its visible title. */
  title: string;
  /** Whether its query is running, answered or failed. */
  status: 'loading' | 'ready' | 'error';
  /** Rows of the last result (chart and table widgets). */
  rowCount?: number;
  /** Whether its CSV download button is shown (`allowExport=true`). */
  exportable: boolean;
}

/** The `show...=false` switches of the URL (behaviour 2): `true` means shown. */
export interface EmbedSwitches {
  header: boolean;
  title: boolean;
  exportMenu: boolean;
  newChat: boolean;
  chatInput: boolean;
  chatHistory: boolean;
}

/**
 * What the debug event of {@link ECHO_PARAMETER} carries: the page's state as the viewer sees it,
 * read back from the DOM and computed styles where it is visual.
 */
export interface EmbedPageState {
  /** Increases with every state event of this page. */
  seq: number;
  /** What caused it: `mount`, `render`, or the action type that was applied. */
  reason: string;
  /** The colour scheme asked for (URL, session or action). */
  colorScheme: 'light' | 'dark' | 'auto';
  /** The scheme in effect (`auto` resolved through `prefers-color-scheme`). */
  appliedScheme: 'light' | 'dark';
  /** Computed colors and theme values of the page. */
  computed: {
    /** The page's background colour as computed (`rgb(...)`): shows the scheme and theme in effect. */
    background: string;
    /** The page's text colour as computed (`rgb(...)`). */
    text: string;
    /** The theme's primary colour as computed (`rgb(...)`), read from a probe element. */
    primary: string;
    /** The theme's corner radius as computed, such as `6px` (the default). */
    borderRadius: string;
    /** The page's font family as computed. */
    fontFamily: string;
  };
  /** The locale in effect. */
  locale: string;
  /** `lang` of the document. */
  lang: string;
  /** The time zone in effect, an IANA name. */
  timezone: string;
  /** The path the page shows (what `navigate` and `view` events carry). */
  path: string;
  /** Text of the visible main heading. */
  heading: string;
  /** Active filters as `member` to their JSON condition. */
  filters: Record<string, unknown>;
  /** Time grains from `tg_` parameters. */
  timeGrains: Record<string, string>;
  /** How many times the queries were re-run by `refresh` (the action or the button). */
  refreshCount: number;
  /** How many `/v1/load` requests the page has started in total. */
  queryRuns: number;
  /** Text of the "last refreshed" line, in the page's locale and time zone. */
  refreshedText: string;
  /** Text of the time zone line. */
  timezoneText: string;
  /** The widgets on screen, in order. */
  widgets: EmbedPageWidgetState[];
  /** Which optional parts are shown: the URL's switches, and the dashboard's chat launcher. */
  visible: EmbedSwitches & {
    /** Whether a dashboard shows its AI chat launcher (session `settings.showDashboardChat`). */
    chatLauncher: boolean;
  };
  /** Labels of the visible buttons, in document order (a quick read of the UI's language). */
  buttons: string[];
  /** Chat messages on screen, as `role: text`. */
  chatMessages: string[];
}
