/**
 * `useEmbed`: the one React binding of the embeds. `EmbeddedDashboard`, `EmbeddedApp` and
 * `EmbeddedChat` are built from it, and a partner can build their own frame from it too.
 *
 * @module
 */
import { useEffect, useMemo, useState, useSyncExternalStore, type RefCallback } from 'react';
import {
  VIEW_KEYS,
  createEmbedController,
  type EmbedStatus,
  type EmbedViewState,
  type RenewalLimits,
} from '../core/embed-controller';
import type { ChatSwitches, DashboardSwitches, EmbedFilters, EmbedTimeGrain } from '../core/embed-url';
import type { ServiceError } from '../core/errors';
import { isEmbedEventType } from '../core/protocol/embed';
import type {
  AnyEmbedEvent,
  ColorScheme,
  EmbedAction,
  EmbedActionInit,
  EmbedEventOf,
  EmbedTheme,
} from '../core/protocol/embed';
import { useServiceContext } from './context';
import { useLatest } from './use-latest';
import { useStore } from './use-store';

export { DEFAULT_READY_TIMEOUT_MS, DEFAULT_RENEW_AFTER_MS } from '../core/embed-controller';

/** What `onError` receives: the embed's own `service:event:error`, or a local failure as a typed error. */
export type EmbedErrorInfo = EmbedEventOf<'service:event:error'> | ServiceError;

/**
 * The event callbacks of an embed. Each receives the whole typed event (payload at
 * `event.payload`). They are read through a ref: a new inline function on every render never
 * reloads the iframe or re-subscribes.
 */
export interface EmbedCallbacks {
  /** Every event, in order, including types this version does not know (`service:event:session-expired`...). */
  onEvent?: (event: AnyEmbedEvent) => void;
  /** `service:event:ready`: authenticated and mounted (after every load, renewals included). */
  onReady?: (event: EmbedEventOf<'service:event:ready'>) => void;
  /** `service:event:view`: on load and on each in-embed navigation. */
  onView?: (event: EmbedEventOf<'service:event:view'>) => void;
  /** `service:event:navigate`: the viewer navigated inside the embed. */
  onNavigate?: (event: EmbedEventOf<'service:event:navigate'>) => void;
  /** `service:event:dashboard-loaded`: every widget rendered. */
  onDashboardLoaded?: (event: EmbedEventOf<'service:event:dashboard-loaded'>) => void;
  /** `service:event:download`: the viewer exported data or an image. */
  onDownload?: (event: EmbedEventOf<'service:event:download'>) => void;
  /** `service:event:drilldown`: the viewer drilled into a measure. */
  onDrilldown?: (event: EmbedEventOf<'service:event:drilldown'>) => void;
  /** `service:event:ai-query`: the viewer ran an AI query. */
  onAiQuery?: (event: EmbedEventOf<'service:event:ai-query'>) => void;
  /**
   * The embed's `service:event:error` (fatal or not), and the embed's own failures as typed
   * errors: `ServiceConfigError` (bad `tenantUrl`, options, filters or locale; `getEmbedSession`
   * failing or not settling), `ServiceValidationError` (an empty or non-string session id), and a
   * `ServiceError` with code `ready_timeout` or `origin_changed` (the frame navigated away from
   * the tenant), and a session that could not be renewed (`session_failed`, `session_timeout`).
   */
  onError?: (error: EmbedErrorInfo) => void;
  /**
   * `service:event:session-expiring`: the page's session ends soon (at `event.payload.expiresAt`).
   * Informational: the embed renews it in place by itself.
   */
  onSessionExpiring?: (event: EmbedEventOf<'service:event:session-expiring'>) => void;
  /**
   * The page has a new session: it took one in place (`service:action:set-session`, no reload; the
   * viewer's path, filters and unsaved work stay), or, from an embed that cannot, it was reloaded
   * with one at the last path and is ready again.
   */
  onSessionRenewed?: () => void;
}

/**
 * The declarative view state: given at load in the URL or as actions, sent as actions when a
 * prop changes (never a reload), queued until `ready`, and replayed on every new load. Each
 * defaults to `ServiceProvider`'s value of the same name.
 */
export interface EmbedViewProps {
  /** `light`, `dark` or `auto`. */
  colorScheme?: ColorScheme;
  /** Brand theme (the session API's `embedTheme` shape). */
  theme?: EmbedTheme;
  /** UI language, a BCP-47 tag such as `de-DE`. */
  locale?: string;
  /** Dashboard filters, `{ 'orders.status': 'completed' }` or a list of `{ member, value, operator }`. */
  filters?: EmbedFilters;
  /** IANA time zone such as `Asia/Tokyo`. */
  timezone?: string;
}

/** Options every surface shares. */
export interface EmbedCommonOptions extends EmbedCallbacks, EmbedViewProps {
  /** How long to wait for the session and then for `ready`, in milliseconds. Default 20 000. */
  readyTimeoutMs?: number;
  /**
   * Renew the session of a page left open this long after `ready`, for embeds that never say
   * `session-expiring`. Default 22 hours; `0` never.
   */
  renewAfterMs?: number;
  /** Limits of renewing the session in place (answer timeout, backoff, attempts), over `DEFAULT_RENEWAL_LIMITS`. */
  renewal?: Partial<RenewalLimits>;
}

/** Options of the dashboard and app surfaces. */
export interface EmbedDashboardOptions extends EmbedCommonOptions {
  /** Time grain per time dimension, `{ 'orders.created_at': 'month' }`. Changing it reloads. */
  timeGrains?: { readonly [member: string]: EmbedTimeGrain | undefined };
  /** Show the CSV download on widgets. Default `false`. Changing it reloads. */
  allowExport?: boolean;
  /** `show...` switches; only `false` hides a part. Changing them reloads. */
  switches?: DashboardSwitches;
}

/** Options of {@link useEmbed}, one shape per surface. */
export type UseEmbedOptions =
  | (EmbedDashboardOptions & {
      /** A published dashboard. */
      surface: 'dashboard';
      /** The dashboard's public id, for example `sales-overview`. */
      publicId: string;
    })
  | (EmbedDashboardOptions & {
      /** A creator-mode app. */
      surface: 'app';
      /** The app's deployment id. */
      deploymentId: number;
    })
  | (EmbedCommonOptions & {
      /** The standalone analytics chat. */
      surface: 'chat';
      /** The chat's `show...` switches, sent as URL parameters (only `false` is sent). */
      switches?: ChatSwitches;
    });

/**
 * The ref handle of an embed: `send` for any action, and one method per action taking the
 * value as the matching prop does. A `set...` call also becomes the state replayed on reload.
 * Before `ready`, actions wait and go out in order right after it.
 */
export interface EmbedHandle {
  /** Sends any action. @throws {ServiceValidationError} for an invalid one. */
  send(action: EmbedAction | EmbedActionInit): void;
  /** Sets the embed's colour scheme (`light`, `dark` or `auto`), as the `colorScheme` prop does. */
  setColorScheme(scheme: ColorScheme): void;
  /** Sets the embed's brand theme, as the `theme` prop does. */
  setTheme(theme: EmbedTheme): void;
  /** Sets the embed's UI language, a BCP-47 tag such as `de-DE`, as the `locale` prop does. */
  setLocale(locale: string): void;
  /** Sets the dashboard filters, in the `filters` prop's form. */
  setFilter(filters: EmbedFilters): void;
  /** Navigates the embed to a path of the tenant's embed app, such as `/dashboard/sales-overview`. */
  navigate(path: string): void;
  /** Reloads the embed's data (the iframe and its session stay). */
  refresh(): void;
  /** Sets the time zone dates are shown in, an IANA name such as `Asia/Tokyo`, as the `timezone` prop does. */
  setTimezone(timezone: string): void;
}

/** What {@link useEmbed} returns. */
export interface UseEmbedResult {
  /** `loading`, `ready`, `renewing` or `error`: the `data-state` of the embed's root. */
  status: EmbedStatus;
  /** The typed error in the `error` state. */
  error: ServiceError | undefined;
  /** Loads again with a new session (for the error state's button). */
  retry: () => void;
  /** The actions. Stable for the embed's life. */
  handle: EmbedHandle;
  /** Give it to the `<iframe>`. `undefined` during the server render and hydration: render no iframe then. */
  iframeRef: RefCallback<HTMLIFrameElement> | undefined;
}

/** `service:event:dashboard-loaded` → `onDashboardLoaded`: the typed callback of a known event. */
const callbackOf = (type: string): keyof EmbedCallbacks =>
  `on${type.slice(14).replace(/(?:^|-)(\w)/g, (_, letter: string) => letter.toUpperCase())}` as keyof EmbedCallbacks;

const subscribeNothing = (): (() => void) => () => {};
const isClient = (): boolean => true;
const isServer = (): boolean => false;

/**
 * One embed iframe, driven: fetches a session from `ServiceProvider`'s `getEmbedSession` (once
 * per load, StrictMode included), builds the URL, listens through `createEmbedChannel` (only its
 * own iframe, only the tenant origin), and renews the session in place when the page says it is
 * ending (`createEmbedController` holds the rules).
 * Must be used within `<ServiceProvider>`.
 */
export function useEmbed(options: UseEmbedOptions): UseEmbedResult {
  const context = useServiceContext('useEmbed');
  // Each prop, else the provider's default of the same name (there is none for `filters`).
  const defaults: EmbedViewState = context.embedDefaults;
  const view: EmbedViewState = {};
  for (const key of VIEW_KEYS) view[key] = (options[key] ?? defaults[key]) as never;
  const { surface } = options;
  const { publicId, deploymentId, timeGrains, allowExport, switches } = options as Partial<
    EmbedDashboardOptions & { publicId: string; deploymentId: number }
  >;
  const url = { publicId, deploymentId, timeGrains, allowExport, switches };
  // What reloads: another dashboard, deployment or tenant, or a URL option without an action.
  const loadKey = JSON.stringify([surface, url, context.tenantUrl]);
  const latest = useLatest({ options, context, url });

  const [controller] = useState(() =>
    createEmbedController(() => {
      const { options: current, context: provider, url: currentUrl } = latest.current;
      // The user's callback of that name, as it is now (undefined ones are skipped).
      const call = (name: keyof EmbedCallbacks, value?: AnyEmbedEvent | ServiceError): void =>
        (latest.current.options[name] as ((value?: unknown) => void) | undefined)?.(value);
      return {
        // `surface`, `readyTimeoutMs`, `renewAfterMs` and `renewal`, then the provider's `tenantUrl`,
        // `tenantError` and `getEmbedSession` (the rest of both goes unread; the callbacks below
        // replace the user's).
        ...current,
        ...provider,
        url: currentUrl,
        onEvent(event) {
          call('onEvent', event);
          if (isEmbedEventType(event.type)) call(callbackOf(event.type), event);
        },
        onError: (error) => call('onError', error),
        onSessionRenewed: () => call('onSessionRenewed'),
      };
    }),
  );
  const snapshot = useStore(controller);

  const [iframe, setIframe] = useState<HTMLIFrameElement | null>(null);
  // False on the server and during hydration (which must match it), true in the browser after.
  const mounted = useSyncExternalStore(subscribeNothing, isClient, isServer);
  useEffect(() => {
    if (!iframe) return;
    controller.attach(iframe);
    return () => controller.detach();
  }, [controller, iframe, loadKey]);

  // After `attach`'s effect on the first commit, so the first load's URL carries these.
  const viewKey = JSON.stringify(view);
  useEffect(() => {
    controller.update(JSON.parse(viewKey) as EmbedViewState);
  }, [controller, viewKey]);

  const handle = useMemo<EmbedHandle>(
    () => ({
      send: controller.send,
      setColorScheme: (scheme) => controller.set('colorScheme', scheme),
      setTheme: (theme) => controller.set('theme', theme),
      setLocale: (locale) => controller.set('locale', locale),
      setFilter: (filters) => controller.set('filters', filters),
      setTimezone: (timezone) => controller.set('timezone', timezone),
      navigate: (path) => controller.send({ type: 'service:action:navigate', payload: { path } }),
      refresh: () => controller.send({ type: 'service:action:refresh' }),
    }),
    [controller],
  );
  return {
    // `status` and `error`.
    ...snapshot,
    retry: controller.retry,
    handle,
    iframeRef: mounted ? setIframe : undefined,
  };
}
