/**
 * A fake embed peer for tests of embed hosts (`EmbeddedDashboard`, `EmbeddedApp`,
 * `EmbeddedChat`, or `createEmbedChannel` directly): it stands in for the service's page inside
 * the real iframe, emits the events a test chooses in the protocol's envelope (6.1, 6.2) and
 * records the actions it receives (6.3).
 *
 * @module
 */
import { tenantOrigin } from '../core/embed-url';
import {
  createEmbedEvent,
  parseEmbedAction,
  type EmbedAction,
  type EmbedActionType,
  type EmbedEventInit,
  type Surface,
} from '../core/protocol/embed';
import { createSubscribable } from '../core/store';

/** An event for the fake to emit: {@link EmbedEventInit} whose `surface` defaults to the load's. */
export type FakeEmbedEvent = EmbedEventInit extends infer T
  ? T extends EmbedEventInit
    ? Omit<T, 'surface'> & {
        /** The surface the event claims to come from. Default: the current load's, so tests rarely set it. */
        surface?: Surface;
      }
    : never
  : never;

/** One load of the fake: the URL the host gave the iframe, and what the fake read from it. */
export interface FakeEmbedLoad {
  /** The iframe's `src` as the host set it (its session, filters, locale... are in it: assert on them). */
  url: string;
  /** The surface of the URL's path (`/embed/dashboard/...`, `/embed/d/{id}/app`, `/embed/chat`); `dashboard` when unknown. */
  surface: Surface;
  /** The dashboard's public id, from `/embed/dashboard/{publicId}`. */
  publicId?: string;
  /** The deployment, from `/embed/d/{deploymentId}/app`. */
  deploymentId?: number;
}

/** Options of {@link createFakeEmbed}. */
export interface FakeEmbedOptions {
  /**
   * The iframe to play in. Without it, the fake plays in every iframe (that passes `match`) found
   * under `within` now or added later, so it also follows an embed component's retries.
   */
  iframe?: HTMLIFrameElement;
  /** Where to look for iframes when `iframe` is not given. Default `document`. */
  within?: ParentNode;
  /** Which of the found iframes to play in. Default all. */
  match?: (iframe: HTMLIFrameElement) => boolean;
  /**
   * The events emitted, in order, on each load. Default {@link defaultEmbedEvents}: `ready`, `view`
   * and, on dashboards, `dashboard-loaded`, as the service sends them. `[]` for a page that never
   * says ready (a ready timeout), then drive it with `emit`.
   */
  events?: readonly FakeEmbedEvent[] | ((load: FakeEmbedLoad) => readonly FakeEmbedEvent[]);
  /**
   * How long `loaded`, `emit` and `emitRaw` wait (for a page, then for the host to receive the
   * message) before they reject, and the default of `waitForAction`. Default 5000 ms.
   */
  timeoutMs?: number;
}

/** A fake embed peer, returned by {@link createFakeEmbed}. */
export interface FakeEmbed {
  /** What to give the host as `tenantUrl`: the test page's origin, the only one the fake can play (see {@link createFakeEmbed}). */
  readonly tenantUrl: string;
  /** Every load, in order: a new `src` (a new session) is a new load. */
  readonly loads: readonly FakeEmbedLoad[];
  /** Every valid action the host sent, in order, across loads. */
  readonly actions: readonly EmbedAction[];
  /** Every message the host posted to the fake, as received, valid or not. */
  readonly received: readonly unknown[];
  /** Resolves with the `count`-th load (1 for the first) once its page is ready to emit; rejects after `timeoutMs`. */
  loaded(count?: number): Promise<FakeEmbedLoad>;
  /**
   * Emits an event from the current page (its `surface` defaults to the load's); resolves once the
   * host window has received it and its listeners have run. Waits for a loaded page; rejects when
   * there is none, or the host has not received the message, within `timeoutMs` (default 5 s) each.
   */
  emit(event: FakeEmbedEvent): Promise<void>;
  /** Posts any message from the current page, as it is: forged, malformed or unknown events. */
  emitRaw(message: unknown): Promise<void>;
  /** Resolves with the first received action of `type` (already received or to come); rejects after `timeoutMs` (default the fake's `timeoutMs`). */
  waitForAction<T extends EmbedActionType>(
    type: T,
    options?: { timeoutMs?: number },
  ): Promise<
    Extract<
      EmbedAction,
      {
        /** The action type waited for: the promise resolves with the action of that type. */
        type: T;
      }
    >
  >;
  /** Stops watching and listening; the iframes keep their current page. Safe to call more than once. */
  dispose(): void;
}

/**
 * The events the service sends on a load (behaviour 2): `ready` (`mode: 'signed'`), then
 * `view` of the surface's first path, then `dashboard-loaded` on dashboards.
 */
export function defaultEmbedEvents(load: FakeEmbedLoad): FakeEmbedEvent[] {
  const { surface, publicId, deploymentId } = load;
  const ids = publicId === undefined ? {} : { publicId };
  const events: FakeEmbedEvent[] = [
    {
      type: 'service:event:ready',
      payload: { embedTenant: null, deploymentId: deploymentId ?? null, mode: 'signed', surface, ...ids },
    },
    {
      type: 'service:event:view',
      payload: {
        surface,
        path: surface === 'dashboard' ? `/dashboard/${publicId ?? ''}` : surface === 'chat' ? '/chat' : '/',
        ...ids,
      },
    },
  ];
  if (surface === 'dashboard')
    events.push({ type: 'service:event:dashboard-loaded', payload: { ...ids, widgetCount: 0, loadDurationMs: 0 } });
  return events;
}

/** Reads the surface and ids from an embed URL's path (the forms of `buildEmbedUrl`). */
function loadOf(url: string): FakeEmbedLoad {
  const path = new URL(url, 'http://relative.invalid').pathname;
  const dashboard = /\/embed\/dashboard\/([^/]+)\/?$/.exec(path);
  if (dashboard) return { url, surface: 'dashboard', publicId: decodeURIComponent(dashboard[1]!) };
  const app = /\/embed\/d\/(\d+)\/app\/?$/.exec(path);
  if (app) return { url, surface: 'app', deploymentId: Number(app[1]) };
  return { url, surface: /\/embed\/chat\/?$/.test(path) ? 'chat' : 'dashboard' };
}

/** JSON for inside a `<script>`: no `<` can close it. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The fake's page: forwards to the host what the fake tells it (a command carrying the nonce),
 * so the host sees it come from the iframe's own window. A script inside the page is needed for
 * that: a browser stamps a message's `source` with the window of the script that posts it.
 */
function pageHtml(origin: string, nonce: string, loadNumber: number): string {
  return `<!doctype html><html lang="en" data-fake-embed="${nonce}" data-fake-load="${loadNumber}"><meta charset="utf-8"><title>fake embed</title><body><script>
(() => {
  const origin = ${scriptJson(origin)};
  const nonce = ${scriptJson(nonce)};
  addEventListener('message', (event) => {
    const data = event.data;
    if (event.source !== parent || event.origin !== origin || !data || data.fakeEmbed !== nonce) return;
    parent.postMessage(data.message, origin);
  });
})();
</script></body></html>`;
}

function randomNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

interface Page {
  window: Window;
  load: FakeEmbedLoad;
}

/** Which element of the page's document says whose page it is, and for which load. */
function pageStamp(iframe: HTMLIFrameElement): { nonce?: string; load?: string } {
  const root = iframe.contentDocument?.documentElement;
  return { nonce: root?.dataset['fakeEmbed'], load: root?.dataset['fakeLoad'] };
}

/**
 * Creates a fake embed peer. When the host sets an iframe's `src` (the embed URL with its
 * session), the fake records the load and gives the iframe a `srcdoc` page of its own instead (a
 * `srcdoc` wins over `src`), which emits `events` in order through `postMessage` to the host's
 * origin, never `*`. Actions the host posts to that page are recorded in `actions`.
 *
 * Limits, by design of the browser: the fake's page has the test page's origin, so the host's
 * `tenantUrl` must be {@link FakeEmbed.tenantUrl} (`location.origin`; http works on loopback
 * hosts such as `localhost`, as vitest browser mode and Playwright's dev servers use); real
 * browsers only (vitest browser mode, Playwright; not jsdom, which runs no `srcdoc` scripts);
 * the test page's CSP, if any, must allow inline scripts in `srcdoc` frames. It plays the page's
 * messaging only: nothing is rendered, no session is checked. Cross-origin behaviour (a foreign
 * page in the iframe) needs a second origin, as the library's own browser tests use.
 */
export function createFakeEmbed(options: FakeEmbedOptions = {}): FakeEmbed {
  const host = (options.iframe?.ownerDocument ?? document).defaultView;
  if (!host) throw new TypeError('createFakeEmbed: no window (run it in a real browser)');
  const origin = tenantOrigin(host.location.origin);
  const nonce = randomNonce();
  const limitMs = options.timeoutMs ?? 5000;

  const loads: FakeEmbedLoad[] = [];
  const actions: EmbedAction[] = [];
  const received: unknown[] = [];
  const pages: Page[] = [];
  const cleanups: (() => void)[] = [];
  let disposed = false;
  /** Waiters are called after every page load and every received message, until `dispose`. */
  const waiters = createSubscribable();
  const wake = (): void => {
    if (!disposed) waiters.notify();
  };
  let current: Page | undefined;
  /** Messages from the current page delivered to the host, and how many were posted. */
  let delivered = 0;
  let posted = 0;

  const onHostMessage = (event: MessageEvent): void => {
    if (!current || event.source !== current.window) return;
    delivered += 1;
    // After the other listeners of this message (the host's channel) have run.
    setTimeout(wake, 0);
  };
  host.addEventListener('message', onHostMessage);
  cleanups.push(() => host.removeEventListener('message', onHostMessage));

  const until = <T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const waiter = (): void => {
        const value = check();
        if (value === undefined) return;
        done();
        resolve(value);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`createFakeEmbed: ${what} did not happen within ${timeoutMs} ms`));
      }, timeoutMs);
      const stop = waiters.subscribe(waiter);
      const done = (): void => {
        clearTimeout(timer);
        stop();
      };
      waiter();
    });

  /** Posts `message` (or what it makes of the page's load) from the current page, once there is one. */
  const post = async (message: unknown | ((load: FakeEmbedLoad) => unknown)): Promise<void> => {
    const page = await until(() => current, limitMs, 'a loaded page to emit from');
    if (typeof message === 'function') message = (message as (load: FakeEmbedLoad) => unknown)(page.load);
    posted += 1;
    const target = posted;
    page.window.postMessage({ fakeEmbed: nonce, message }, origin);
    await until(
      () => (delivered >= target || current !== page ? true : undefined),
      limitMs,
      'delivery of an emitted message',
    );
  };

  const emit = (event: FakeEmbedEvent, load: FakeEmbedLoad): Promise<void> =>
    post(createEmbedEvent({ surface: load.surface, ...event } as EmbedEventInit));

  const onPageLoad = (iframe: HTMLIFrameElement, load: FakeEmbedLoad): void => {
    const window = iframe.contentWindow;
    const stamp = pageStamp(iframe);
    if (disposed || !window || stamp.nonce !== nonce || stamp.load !== String(loads.indexOf(load))) return;
    if (pages.some((page) => page.load === load)) return;
    const page: Page = { window, load };
    const onAction = (event: MessageEvent): void => {
      if (event.source !== host || (event.data as { fakeEmbed?: unknown } | null)?.fakeEmbed === nonce) return;
      received.push(event.data);
      const result = parseEmbedAction(event.data);
      if (result.kind === 'known') actions.push(result.message);
      wake();
    };
    window.addEventListener('message', onAction);
    cleanups.push(() => window.removeEventListener('message', onAction));
    pages.push(page);
    current = page;
    delivered = 0;
    posted = 0;
    wake();
    const events =
      typeof options.events === 'function' ? options.events(load) : (options.events ?? defaultEmbedEvents(load));
    void (async () => {
      for (const event of events) {
        if (current !== page || disposed) return;
        await emit(event, load);
      }
    })().catch(() => {
      // A page replaced mid-sequence: the new load emits its own events.
    });
  };

  const play = (iframe: HTMLIFrameElement): void => {
    let load: FakeEmbedLoad | undefined;
    const onLoad = (): void => {
      if (load) onPageLoad(iframe, load);
    };
    const takeSrc = (): void => {
      const src = iframe.getAttribute('src');
      if (disposed || !src || src === 'about:blank') return;
      load = loadOf(iframe.src || src);
      loads.push(load);
      if (current && current.window === iframe.contentWindow) current = undefined;
      // A fresh page per load, like a real navigation: the nonce-stamped page says which load it serves.
      iframe.srcdoc = pageHtml(origin, nonce, loads.length - 1);
    };
    const observer = new MutationObserver(takeSrc);
    observer.observe(iframe, { attributes: true, attributeFilter: ['src'] });
    iframe.addEventListener('load', onLoad);
    cleanups.push(() => {
      observer.disconnect();
      iframe.removeEventListener('load', onLoad);
    });
    takeSrc();
  };

  if (options.iframe) {
    play(options.iframe);
  } else {
    const root = options.within ?? host.document;
    const seen = new WeakSet<HTMLIFrameElement>();
    const scan = (): void => {
      for (const iframe of Array.from(root.querySelectorAll('iframe'))) {
        if (seen.has(iframe) || (options.match && !options.match(iframe))) continue;
        seen.add(iframe);
        play(iframe);
      }
    };
    const observer = new MutationObserver(scan);
    observer.observe(root as Node, { childList: true, subtree: true });
    cleanups.push(() => observer.disconnect());
    scan();
  }

  return {
    tenantUrl: origin,
    loads,
    actions,
    received,
    loaded: (count = 1) =>
      until(() => (pages.length >= count ? pages[count - 1]!.load : undefined), limitMs, `load ${count}`),
    emit: (event) =>
      post((load: FakeEmbedLoad) => createEmbedEvent({ surface: load.surface, ...event } as EmbedEventInit)),
    emitRaw: (message) => post(() => message),
    waitForAction: <T extends EmbedActionType>(type: T, { timeoutMs = limitMs }: { timeoutMs?: number } = {}) =>
      until(
        () => actions.find((action): action is Extract<EmbedAction, { type: T }> => action.type === type),
        timeoutMs,
        `action ${type}`,
      ),
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const cleanup of cleanups.splice(0)) cleanup();
      current = undefined;
    },
  };
}
