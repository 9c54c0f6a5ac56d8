/**
 * The engine of every embed (dashboard, app, chat): one iframe's life from session to `ready`,
 * its declarative state, its actions and its session renewal. Framework-free and built on the
 * core's store base (`createSubscribable`), like the chat controller: `useEmbed` is a thin React
 * binding over it, a non-React host drives it directly, and its rules are tested without React.
 *
 * @module
 */
import { createEmbedChannel, type EmbedChannel, type EmbedIframe } from './embed-channel';
import {
  buildEmbedUrl,
  buildFilterUrlParameter,
  filterEntries,
  type BuildEmbedUrlOptions,
  type EmbedFilters,
} from './embed-url';
import { ServiceConfigError, ServiceError, ServiceValidationError } from './errors';
import { problem } from './protocol/shared';
import type { AnyEmbedEvent, ColorScheme, EmbedAction, EmbedActionInit, EmbedTheme, Surface } from './protocol/embed';
import type { ServiceErrorCode } from './protocol/error-codes';
import type { EmbedSessionRequest, GetEmbedSession } from './protocol/host-routes';
import { createSubscribable } from './store';

/**
 * Where an embed is in its life, the `data-state` of its root: `loading` (session, then page,
 * until `ready`), `ready` (renewal in place included: the viewer keeps the page), `renewing` (the
 * page is reloaded with a new session, when the embed did not take one in place) and `error`.
 */
export type EmbedStatus = 'loading' | 'ready' | 'renewing' | 'error';

/** What an embed shows, read with `getSnapshot` (`useStore` in React). A new object on every change, never otherwise. */
export interface EmbedSnapshot {
  /** Where the embed is in its life (see {@link EmbedStatus}). */
  readonly status: EmbedStatus;
  /** Why it is in `error`: a typed error (`ServiceConfigError`, `ServiceValidationError`, ...). */
  readonly error: ServiceError | undefined;
}

/** The embed's state that props and actions set and every new load replays. */
export interface EmbedViewState {
  /** `light`, `dark` or `auto` (the viewer's OS preference). */
  colorScheme?: ColorScheme | undefined;
  /** Brand theme (the session API's `embedTheme` shape). */
  theme?: EmbedTheme | undefined;
  /** UI language, a BCP-47 tag such as `de-DE`. */
  locale?: string | undefined;
  /** Dashboard filters, in `EmbedFilters`' object or list form. */
  filters?: EmbedFilters | undefined;
  /** IANA time zone such as `Asia/Tokyo`. */
  timezone?: string | undefined;
}

/** Error codes of the embeds' own failures (on `ServiceError.code`); written out where used, so this table costs no bytes. */
export const EMBED_ERROR_CODES = {
  /** `getEmbedSession` did not settle within `readyTimeoutMs`. */
  sessionTimeout: 'session_timeout',
  /** `getEmbedSession` rejected. */
  sessionFailed: 'session_failed',
  /** The page did not send `ready` within `readyTimeoutMs`. */
  readyTimeout: 'ready_timeout',
  /** The embed reported a fatal `service:event:error`. */
  embedError: 'embed_error',
  /** The frame loaded another document after `ready` and no `ready` followed within `readyTimeoutMs`: it left the tenant. */
  originChanged: 'origin_changed',
} as const satisfies { readonly [name: string]: ServiceErrorCode };

/** How long an embed waits for its session and then for `ready` before showing an error. */
export const DEFAULT_READY_TIMEOUT_MS = 20_000;

/**
 * When a page left open gets a new session: 22 hours after `ready`, ahead of the 24-hour token
 * (the service stops trusting it about an hour early).
 */
// Written as one number: bundlers keep an unused product (`22 * 60 * 60 * 1000`) in every bundle of core.
export const DEFAULT_RENEW_AFTER_MS = 79_200_000;

/**
 * The limits of session renewal in place (`service:action:set-session`), each overridable through
 * the `renewal` option. A renewal starts on `service:event:session-expiring` (at once in a visible
 * page; in a hidden one when it becomes visible, or `hiddenLeadMs` before `expiresAt`, whichever
 * comes first), on `service:event:session-expired`, and `renewAfterMs` after `ready`. One renewal
 * at a time per embed; renewals that follow each other within `maxBackoffMs` wait `backoffMs`,
 * then twice that, and so on up to `maxBackoffMs`; expiry reported again during the wait after a
 * renewal that succeeded is the old session's echo and is dropped.
 */
export interface RenewalLimits {
  /** How long the page has to answer `set-session` (`ready`, or an error of context `session`) before the iframe is reloaded instead. */
  timeoutMs: number;
  /** The shortest time between two renewals; doubled for each renewal that follows the previous one closely. */
  backoffMs: number;
  /** The longest time between two renewals. */
  maxBackoffMs: number;
  /** Session fetches that may fail in a row before the embed shows the error state. */
  attempts: number;
  /** How long before `expiresAt` a hidden page renews without waiting to be seen. */
  hiddenLeadMs: number;
}

/** The defaults of {@link RenewalLimits}: 10 s to answer, 5 s backoff doubling up to 5 minutes, 3 attempts, 30 s lead. */
export const DEFAULT_RENEWAL_LIMITS: RenewalLimits = {
  timeoutMs: 10_000,
  backoffMs: 5_000,
  maxBackoffMs: 300_000,
  attempts: 3,
  hiddenLeadMs: 30_000,
};

/**
 * What the controller reads. {@link createEmbedController} takes a function returning them and
 * calls it whenever it needs them, so they are always the latest (`useEmbed` passes a getter over
 * a ref; a non-React host may return an object it mutates).
 */
export interface EmbedControllerOptions {
  /** The surface the iframe loads: `dashboard`, `app` or `chat`. */
  surface: Surface;
  /** The tenant host `{base_url}`: where the iframe loads from and the only origin trusted. */
  tenantUrl: string | undefined;
  /** Why `tenantUrl` is unusable, when the host checked it already (`ServiceProvider` does): shown as the error state. */
  tenantError?: ServiceError | undefined;
  /** Fetches a new session id for each load; sessions are single-use. */
  getEmbedSession: GetEmbedSession | undefined;
  /** The surface's URL options besides the session and the view state (publicId, timeGrains, switches...). */
  url: Omit<BuildEmbedUrlOptions, 'tenantUrl' | 'sessionId' | 'surface' | keyof EmbedViewState> & {
    /** The dashboard's public id (`dashboard` surface). */
    publicId?: string;
    /** The app's deployment id (`app` surface). */
    deploymentId?: number;
  };
  /** How long to wait for the session and then for `ready`, in milliseconds. Default {@link DEFAULT_READY_TIMEOUT_MS}. */
  readyTimeoutMs?: number | undefined;
  /** Renew the session of a page left open this long after `ready`; `0` never. Default {@link DEFAULT_RENEW_AFTER_MS}. */
  renewAfterMs?: number | undefined;
  /** Limits of renewal in place, over {@link DEFAULT_RENEWAL_LIMITS}. */
  renewal?: Partial<RenewalLimits> | undefined;
  /** Every delivered event, known or not. */
  onEvent?(event: AnyEmbedEvent): void;
  /** Local failures, as typed errors (the embed's own fatal `service:event:error` goes to `onEvent`). */
  onError?(error: ServiceError): void;
  /** The page has a new session: it took one in place, or was reloaded with one and is ready again. */
  onSessionRenewed?(): void;
}

/** Returned by {@link createEmbedController}. Every method is bound: pass them around freely. */
export interface EmbedController {
  /** Calls `listener` after each change of the snapshot; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** The current state: the same object until something changed. */
  getSnapshot(): EmbedSnapshot;
  /** Takes the iframe and starts its first load (in a microtask, so StrictMode's remount costs nothing). */
  attach(iframe: EmbedIframe): void;
  /** Lets the iframe go: cancels the session fetch and timers, stops listening. */
  detach(): void;
  /** Loads again with a new session (the error state's retry). */
  retry(): void;
  /** Sends an action now, or queued until the page is ready. @throws {ServiceValidationError} */
  send(action: EmbedAction | EmbedActionInit): void;
  /** Sets one part of the view state, as a prop change or a handle method does. */
  set<K extends keyof EmbedViewState>(key: K, value: EmbedViewState[K]): void;
  /** Diffs the declarative props against the last ones and sends what changed. */
  update(props: EmbedViewState): void;
}

/** The keys of {@link EmbedViewState}, in the order a new load replays them. */
export const VIEW_KEYS = ['colorScheme', 'theme', 'locale', 'filters', 'timezone'] as const;

/** The action of each view key but `filters`: its name after `service:action:`, and the payload field (none: the value is the payload). */
const VIEW_ACTIONS: { readonly [key: string]: readonly [string, string?] } = {
  colorScheme: ['set-color-scheme', 'scheme'],
  theme: ['set-theme'],
  locale: ['set-locale', 'locale'],
  timezone: ['set-timezone', 'timezone'],
};

/** The action that brings the page from `previous` to `value` for `key`; `undefined` when there is nothing to send. */
function viewAction(key: keyof EmbedViewState, value: unknown, previous: unknown): EmbedActionInit | undefined {
  if (key === 'filters') {
    // Every member set before and not now is cleared with an empty value.
    const next: Record<string, unknown> = {};
    for (const [member] of filterEntries(previous) ?? []) next[member as string] = { value: [] };
    for (const [member, condition] of filterEntries(value) ?? [])
      if (condition != null) next[member as string] = condition;
    const filterUrlParameter = buildFilterUrlParameter(next as EmbedFilters);
    return filterUrlParameter ? { type: 'service:action:set-filter', payload: { filterUrlParameter } } : undefined;
  }
  if (value === undefined) return;
  const [name, field] = VIEW_ACTIONS[key]!;
  return { type: `service:action:${name}`, payload: field ? { [field]: value } : value } as EmbedActionInit;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A typed error for anything thrown; `ServiceError`s pass as they are. */
function toServiceError(error: unknown, code: ServiceErrorCode): ServiceError {
  return ServiceError.isInstance(error)
    ? error
    : new ServiceConfigError(String((error as Error)?.message ?? error), { code, cause: error });
}

/**
 * Creates the controller of one embed. Nothing happens until {@link EmbedController.attach};
 * creating it touches no browser API (server rendering creates one too).
 */
export function createEmbedController(read: () => EmbedControllerOptions): EmbedController {
  let snapshot: EmbedSnapshot = { status: 'loading', error: undefined };
  const { subscribe, notify: changed } = createSubscribable();
  let iframe: EmbedIframe | null = null;
  let channel: EmbedChannel | undefined;
  // Every load, attach and detach starts a new generation; late answers of older ones are dropped.
  let generation = 0;
  let abort: AbortController | undefined;
  // One timer at a time: the session's deadline, then `ready`'s, then the next renewal (or the
  // page's answer to `set-session`).
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A reload with a new session is under way (status `renewing`).
  let renewing = false;
  // A renewal in place is under way (session fetch, then the page's answer): one at a time.
  let inPlace = false;
  // Session renewal waits for the page to be seen (`session-expiring` in a hidden page).
  let deferred = false;
  // Renewal pacing: when the last one started, how many followed each other closely, when the
  // next may start, until when expiry reports are the echo of a renewal that succeeded, and
  // session fetches failed in a row.
  let lastStart = -Infinity;
  let streak = 0;
  let nextStart = 0;
  let quietUntil = 0;
  let failures = 0;
  // `load` events of the frame since its `src` was set: the second is another document.
  let loads = 0;
  let lastPath: string | undefined;
  // What the page should show (props and handle calls), what it was last told, and the last props.
  const desired: Record<string, unknown> = {};
  let told: Record<string, unknown> = {};
  let props: EmbedViewState = {};
  let early: (EmbedAction | EmbedActionInit)[] = [];
  // Whether the current load's `src` is set: before that, the URL will carry the view state.
  let framed = false;

  const limits = (): RenewalLimits => ({ ...DEFAULT_RENEWAL_LIMITS, ...read().renewal });

  const emit = (status: EmbedStatus, error?: ServiceError): void => {
    snapshot = { status, error };
    changed();
  };

  const stop = (): void => {
    abort?.abort();
    clearTimeout(timer);
    generation++;
    inPlace = deferred = false;
  };

  const fail = (error: ServiceError, report = true): void => {
    stop();
    emit('error', error);
    if (report) read().onError?.(error);
  };

  /** Sends `key`'s desired value when the current page was told something else (after its `src` is set). */
  const tell = (key: keyof EmbedViewState): void => {
    const value = desired[key];
    if (!channel || !framed || same(value, told[key])) return;
    const action = viewAction(key, value, told[key]);
    if (action) channel.send(action);
    told[key] = value;
  };

  const hidden = (): boolean => iframe?.ownerDocument.visibilityState === 'hidden';

  /** A new session for the page, through `getEmbedSession`, within `readyTimeoutMs`. */
  const fetchSession = async (options: EmbedControllerOptions): Promise<string> => {
    const { surface, getEmbedSession, readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS, url } = options;
    if (!getEmbedSession) {
      throw new ServiceConfigError(
        process.env.NODE_ENV !== 'production'
          ? 'ServiceProvider needs getEmbedSession, e.g. fetchEmbedSession()'
          : 'getEmbedSession',
      );
    }
    const request: EmbedSessionRequest = { surface };
    if (url.publicId !== undefined) request.publicId = url.publicId;
    if (url.deploymentId !== undefined) request.deploymentId = url.deploymentId;
    const { signal } = (abort = new AbortController());
    const sessionId: unknown = await new Promise<string>((resolve, reject) => {
      // The failure this rejects with stops the load, which aborts the fetch.
      timer = setTimeout(
        // Runtime failures keep their sentence in every build: viewers see it in the error state.
        () =>
          reject(
            new ServiceConfigError(`getEmbedSession did not settle in ${readyTimeoutMs} ms`, {
              code: 'session_timeout',
            }),
          ),
        readyTimeoutMs,
      );
      getEmbedSession(request, { signal }).then(resolve, (error: unknown) =>
        reject(toServiceError(error, 'session_failed')),
      );
    });
    clearTimeout(timer);
    if (typeof sessionId !== 'string' || !sessionId.trim()) {
      throw new ServiceValidationError([
        problem(
          'sessionId',
          process.env.NODE_ENV !== 'production' &&
            `getEmbedSession must resolve with a session id, got ${JSON.stringify(sessionId)}`,
        ),
      ]);
    }
    return sessionId;
  };

  /** Falls back to loading the page again with a new session, at the last path, the view state replayed. */
  const reload = (): void => {
    renewing = true;
    // `load` never rejects: its failures end in `fail` (the error state and `onError`).
    void load();
  };

  /**
   * Renews the session in place, now or when pacing allows: one renewal at a time, only for a
   * ready page, expiry reported again just after a renewal that succeeded dropped.
   */
  function renew(): void {
    deferred = false;
    const now = Date.now();
    if (inPlace || snapshot.status !== 'ready' || now < quietUntil) return;
    clearTimeout(timer);
    if (now < nextStart) {
      timer = setTimeout(renew, nextStart - now);
      return;
    }
    void renewInPlace(now);
  }

  async function renewInPlace(now: number): Promise<void> {
    const { timeoutMs, backoffMs, maxBackoffMs, attempts } = limits();
    inPlace = true;
    streak = now - lastStart < maxBackoffMs ? streak + 1 : 0;
    lastStart = now;
    nextStart = now + Math.min(backoffMs * 2 ** streak, maxBackoffMs);
    const current = generation;
    try {
      const sessionId = await fetchSession(read());
      if (current !== generation) return;
      channel?.send({ type: 'service:action:set-session', payload: { sessionId } });
      // Its answer is `ready` (taken) or an error of context `session` (refused); silence means an
      // embed that cannot renew in place.
      timer = setTimeout(() => {
        inPlace = false;
        reload();
      }, timeoutMs);
    } catch (error) {
      if (current !== generation) return;
      inPlace = false;
      if (++failures >= attempts) fail(toServiceError(error, 'session_failed'));
      else renew();
    }
  }

  /** `session-expiring`: a visible page renews now, a hidden one when seen or `hiddenLeadMs` before `expiresAt`. */
  const expiring = (expiresAt?: number): void => {
    if (!hidden()) return renew();
    const wait = (expiresAt ?? Infinity) - limits().hiddenLeadMs - Date.now();
    if (wait <= 0) return renew();
    deferred = true;
    clearTimeout(timer);
    if (wait < 2 ** 31) timer = setTimeout(renew, wait);
  };

  const onVisibility = (): void => {
    if (deferred && !hidden()) renew();
  };

  const onLoad = (): void => {
    if (!framed || ++loads < 2) return;
    // Another document in the frame (a redirect, a link opened in it): it stays hidden until it
    // says `ready` from the tenant origin, or the embed shows that it left.
    clearTimeout(timer);
    inPlace = deferred = false;
    emit('loading');
    const { readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS } = read();
    timer = setTimeout(
      () =>
        fail(
          new ServiceError(
            process.env.NODE_ENV !== 'production'
              ? `The frame left the tenant: another document loaded and no ready came in ${readyTimeoutMs} ms`
              : 'origin_changed',
            { code: 'origin_changed' },
          ),
        ),
      readyTimeoutMs,
    );
  };

  const onEvent = (event: AnyEmbedEvent): void => {
    const { type, payload } = event;
    const options = read();
    const ready = type === 'service:event:ready';
    if (ready) {
      clearTimeout(timer);
      const { renewAfterMs = DEFAULT_RENEW_AFTER_MS } = options;
      // A page that never says `session-expiring` still renews before its token lapses.
      if (renewAfterMs > 0 && renewAfterMs < 2 ** 31) timer = setTimeout(expiring, renewAfterMs);
      // A page that took a session in place stays as it was: no new snapshot.
      if (snapshot.status !== 'ready') emit('ready');
    } else if (type === 'service:event:view' || type === 'service:event:navigate') {
      lastPath = (payload as { path: string }).path;
    }
    options.onEvent?.(event);
    if (ready && (renewing || inPlace)) {
      if (inPlace) quietUntil = nextStart;
      renewing = inPlace = false;
      failures = 0;
      options.onSessionRenewed?.();
    } else if (type === 'service:event:session-expiring') {
      expiring((payload as { expiresAt?: number }).expiresAt);
    } else if (type === 'service:event:session-expired') {
      renew();
    } else if (type === 'service:event:error') {
      const { message, fatal, context } = payload as { message: string; fatal?: boolean; context?: string };
      if (inPlace && context === 'session') {
        // The page refused the new session: load it again with another one.
        inPlace = false;
        reload();
      } else if (fatal) {
        // Reported as the event itself through `onEvent` (`useEmbed` hands it to `onError`); the state gets a typed error.
        fail(new ServiceError(message, { code: 'embed_error', cause: event }), false);
      }
    }
  };

  async function load(): Promise<void> {
    stop();
    const current = generation;
    const frame = iframe;
    framed = false;
    if (!frame) return;
    emit(renewing ? 'renewing' : 'loading');
    const options = read();
    const { surface, tenantUrl, readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS, url } = options;
    try {
      // The provider's check of `tenantUrl` (ServiceConfigError) covers a missing one too; a host
      // without a provider may leave `tenantError` out.
      if (options.tenantError || !tenantUrl) throw options.tenantError ?? new ServiceConfigError('tenantUrl');
      // What the URL carries; the rest of the view state, and where the viewer was, wait in the
      // channel's queue for the new page's `ready`.
      const carried: Record<string, unknown> = { locale: desired.locale, timezone: desired.timezone };
      if (surface !== 'chat') carried.filters = desired.filters;
      const src = (sessionId: string): string =>
        buildEmbedUrl({ ...url, ...carried, surface, tenantUrl, sessionId } as BuildEmbedUrlOptions);
      // Checked before a session is spent on a URL that cannot be built.
      src('-');
      const sessionId = await fetchSession(options);
      if (current !== generation) return;
      // `src` first: the channel then waits for the new page's `ready` before sending anything.
      frame.src = src(sessionId);
      told = carried;
      framed = true;
      loads = 0;
      VIEW_KEYS.forEach(tell);
      if (lastPath !== undefined) channel?.send({ type: 'service:action:navigate', payload: { path: lastPath } });
      timer = setTimeout(
        () => fail(new ServiceError(`No ready from the embed in ${readyTimeoutMs} ms`, { code: 'ready_timeout' })),
        readyTimeoutMs,
      );
    } catch (error) {
      if (current === generation) fail(toServiceError(error, 'session_failed'));
    }
  }

  return {
    subscribe,
    getSnapshot: () => snapshot,
    attach(frame) {
      iframe = frame;
      const current = ++generation;
      const { tenantUrl, tenantError } = read();
      if (!tenantError && tenantUrl) {
        channel = createEmbedChannel({ iframe: frame, tenantUrl, onEvent });
        early.forEach(channel.send);
      }
      early = [];
      frame.addEventListener('load', onLoad);
      frame.ownerDocument.addEventListener('visibilitychange', onVisibility);
      void Promise.resolve().then(() => {
        if (current === generation) void load();
      });
    },
    detach() {
      stop();
      channel?.dispose();
      iframe?.removeEventListener('load', onLoad);
      iframe?.ownerDocument.removeEventListener('visibilitychange', onVisibility);
      channel = lastPath = undefined;
      iframe = null;
      framed = renewing = false;
      told = {};
    },
    retry() {
      failures = 0;
      void load();
    },
    send(action) {
      if (channel) channel.send(action);
      else early.push(action);
    },
    set(key, value) {
      const previous: unknown = desired[key];
      desired[key] = value;
      try {
        tell(key);
      } catch (error) {
        // A bad value from a handle call throws to its caller and is forgotten.
        desired[key] = previous;
        throw error;
      }
    },
    update(next) {
      for (const key of VIEW_KEYS) {
        if (same(next[key], props[key])) continue;
        desired[key] = next[key];
        try {
          tell(key);
        } catch (error) {
          fail(toServiceError(error, 'invalid_options'));
        }
      }
      props = { ...next };
    },
  };
}
