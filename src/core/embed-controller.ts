/**
 * The engine of every embed (dashboard, app, chat): one iframe's life from session to `ready`,
 * its declarative state, its actions and its session renewal. Framework-free and built on the
 * core's store base (`createNotifier`), like the chat controller: `useEmbed` is a thin React
 * binding over it, a non-React host drives it directly, and its rules are tested without React.
 *
 * @module
 */
import { createEmbedChannel, type EmbedChannel } from './embed-channel';
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
import type { EmbedSessionRequest, GetEmbedSession } from './protocol/host-routes';
import { createSubscribable } from './store';

/**
 * Where an embed is in its life, the `data-state` of its root: `loading` (session, then page,
 * until `ready`), `ready`, `renewing` (a new session for a page whose token lapsed) and `error`.
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
} as const;

/** How long an embed waits for its session and then for `ready` before showing an error. */
export const DEFAULT_READY_TIMEOUT_MS = 20_000;

/**
 * When a page left open gets a new session: 22 hours after `ready`, ahead of the 24-hour token
 * (the service stops trusting it about an hour early).
 */
// Written as one number: bundlers keep an unused product (`22 * 60 * 60 * 1000`) in every bundle of core.
export const DEFAULT_RENEW_AFTER_MS = 79_200_000;

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
  /** Every delivered event, known or not. */
  onEvent?(event: AnyEmbedEvent): void;
  /** Local failures, as typed errors (the embed's own fatal `service:event:error` goes to `onEvent`). */
  onError?(error: ServiceError): void;
  /** A renewed page became ready. */
  onSessionRenewed?(): void;
}

/** Returned by {@link createEmbedController}. Every method is bound: pass them around freely. */
export interface EmbedController {
  /** Calls `listener` after each change of the snapshot; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** The current state: the same object until something changed. */
  getSnapshot(): EmbedSnapshot;
  /** Takes the iframe and starts its first load (in a microtask, so StrictMode's remount costs nothing). */
  attach(iframe: HTMLIFrameElement): void;
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
function toServiceError(error: unknown, code: string): ServiceError {
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
  let iframe: HTMLIFrameElement | null = null;
  let channel: EmbedChannel | undefined;
  // Every load, attach and detach starts a new generation; late answers of older ones are dropped.
  let generation = 0;
  let abort: AbortController | undefined;
  // One timer at a time: the session's deadline, then `ready`'s, then the renewal.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let renewing = false;
  let lastPath: string | undefined;
  // What the page should show (props and handle calls), what it was last told, and the last props.
  const desired: Record<string, unknown> = {};
  let told: Record<string, unknown> = {};
  let props: EmbedViewState = {};
  let early: (EmbedAction | EmbedActionInit)[] = [];
  // Whether the current load's `src` is set: before that, the URL will carry the view state.
  let framed = false;

  const emit = (status: EmbedStatus, error?: ServiceError): void => {
    snapshot = { status, error };
    changed();
  };

  const stop = (): void => {
    abort?.abort();
    clearTimeout(timer);
    generation++;
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

  const onEvent = (event: AnyEmbedEvent): void => {
    const { type, payload } = event;
    const options = read();
    if (type === 'service:event:ready') {
      clearTimeout(timer);
      const { renewAfterMs = DEFAULT_RENEW_AFTER_MS } = options;
      if (renewAfterMs > 0 && renewAfterMs < 2 ** 31) timer = setTimeout(renew, renewAfterMs);
      emit('ready');
    } else if (type === 'service:event:view' || type === 'service:event:navigate') {
      lastPath = (payload as { path: string }).path;
    }
    options.onEvent?.(event);
    if (type === 'service:event:ready' && renewing) {
      renewing = false;
      options.onSessionRenewed?.();
    } else if (type === 'service:event:session-expired') {
      renew();
    } else if (type === 'service:event:error' && (payload as { fatal?: boolean }).fatal) {
      // Reported as the event itself through `onEvent` (`useEmbed` hands it to `onError`); the state gets a typed error.
      fail(new ServiceError((payload as { message: string }).message, { code: 'embed_error', cause: event }), false);
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
    const { surface, tenantUrl, getEmbedSession, readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS, url } = options;
    try {
      // The provider's check of `tenantUrl` (ServiceConfigError) covers a missing one too; a host
      // without a provider may leave `tenantError` out.
      if (options.tenantError || !tenantUrl) throw options.tenantError ?? new ServiceConfigError('tenantUrl');
      if (!getEmbedSession) {
        throw new ServiceConfigError(
          process.env.NODE_ENV !== 'production'
            ? 'ServiceProvider needs getEmbedSession, e.g. fetchEmbedSession()'
            : 'getEmbedSession',
        );
      }
      // What the URL carries; the rest of the view state, and where the viewer was, wait in the
      // channel's queue for the new page's `ready`.
      const carried: Record<string, unknown> = { locale: desired.locale, timezone: desired.timezone };
      if (surface !== 'chat') carried.filters = desired.filters;
      const src = (sessionId: string): string =>
        buildEmbedUrl({ ...url, ...carried, surface, tenantUrl, sessionId } as BuildEmbedUrlOptions);
      // Checked before a session is spent on a URL that cannot be built.
      src('-');
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
      if (current !== generation) return;
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
      // `src` first: the channel then waits for the new page's `ready` before sending anything.
      frame.src = src(sessionId);
      told = carried;
      framed = true;
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

  function renew(): void {
    renewing = true;
    void load();
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
      void Promise.resolve().then(() => {
        if (current === generation) void load();
      });
    },
    detach() {
      stop();
      channel?.dispose();
      channel = lastPath = undefined;
      iframe = null;
      framed = renewing = false;
      told = {};
    },
    retry: load,
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
