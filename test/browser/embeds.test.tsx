/**
 * The embed components in real Chromium: the host page on `localhost` (the test page, with the
 * partner's session route made with `createSessionHandler`), the emulator's embed pages on
 * `127.0.0.1`, another origin.
 */
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { StrictMode, createRef, useEffect, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';
import {
  EmbeddedApp,
  EmbeddedChat,
  DEFAULT_RENEWAL_LIMITS,
  EmbeddedDashboard,
  ServiceProvider,
  fetchEmbedSession,
  type AnyEmbedEvent,
  type EmbedErrorInfo,
  type EmbedHandle,
  type EmbeddedAppProps,
  type GetEmbedSession,
} from '../../src';
import { createFakeEmbed } from '../../src/testing';
import '../../src/styles.css';

interface Config {
  tenantUrl: string;
  embedSessionUrl: string;
}

const config = (await (await fetch('/__service/config')).json()) as Config;

/** The route's `getEmbedSession`, counting its calls. */
function countingSession(url = config.embedSessionUrl): GetEmbedSession & { calls: number } {
  const fetchSession = fetchEmbedSession(url);
  const get = Object.assign(
    (request: Parameters<GetEmbedSession>[0], options: Parameters<GetEmbedSession>[1]) => {
      get.calls += 1;
      return fetchSession(request, options);
    },
    { calls: 0 },
  );
  return get;
}

function Provider({
  children,
  getEmbedSession,
  tenantUrl = config.tenantUrl,
}: {
  children: ReactNode;
  getEmbedSession?: GetEmbedSession;
  tenantUrl?: string;
}) {
  return (
    <ServiceProvider
      tenantUrl={tenantUrl}
      getEmbedSession={getEmbedSession ?? fetchEmbedSession(config.embedSessionUrl)}
    >
      {children}
    </ServiceProvider>
  );
}

const types = (events: readonly AnyEmbedEvent[]): string[] => events.map((event) => event.type);
const rootOf = (container: HTMLElement, index = 0): HTMLElement =>
  container.querySelectorAll<HTMLElement>('[data-service-embed]')[index]!;

afterEach(() => cleanup());

describe('event sequence of each surface, typed, in order', () => {
  it('dashboard: ready, view, dashboard-loaded reach onEvent and the typed callbacks', async () => {
    const events: AnyEmbedEvent[] = [];
    const typed: string[] = [];
    const { container } = render(
      <Provider>
        <EmbeddedDashboard
          publicId="sales-overview"
          onEvent={(event) => events.push(event)}
          onReady={(event) => typed.push(`ready:${event.payload.publicId}:${event.payload.mode}`)}
          onView={(event) => typed.push(`view:${event.payload.path}`)}
          onDashboardLoaded={(event) => typed.push(`loaded:${event.payload.widgetCount! > 0}`)}
        />
      </Provider>,
    );
    expect(rootOf(container).dataset['state']).toBe('loading');
    expect(container.querySelector('[data-part="placeholder"]')?.textContent).toBe('Loading the dashboard…');
    await waitFor(() => expect(typed).toHaveLength(3), { timeout: 15_000 });
    expect(typed).toEqual(['ready:sales-overview:signed', 'view:/dashboard/sales-overview', 'loaded:true']);
    expect(types(events)).toEqual(['service:event:ready', 'service:event:view', 'service:event:dashboard-loaded']);
    expect(rootOf(container).dataset['state']).toBe('ready');
    expect(container.querySelector('[data-part="placeholder"]')).toBeNull();
    const iframe = container.querySelector('iframe')!;
    expect(iframe.title).toBe('Dashboard');
    expect(iframe.getAttribute('allow')).toBe('clipboard-write; fullscreen');
    expect(new URL(iframe.src).origin).toBe(new URL(config.tenantUrl).origin);
  });

  it('app: ready then view; navigating inside it reports navigate and view', async () => {
    const events: string[] = [];
    const ref = createRef<EmbedHandle>();
    render(
      <Provider>
        <EmbeddedApp
          ref={ref}
          deploymentId={1}
          onReady={(event) => events.push(`ready:${event.surface}:${event.payload.deploymentId}`)}
          onView={(event) => events.push(`view:${event.payload.path}`)}
          onNavigate={(event) => events.push(`navigate:${event.payload.previousPath}>${event.payload.path}`)}
        />
      </Provider>,
    );
    await waitFor(() => expect(events).toHaveLength(2), { timeout: 15_000 });
    expect(events).toEqual(['ready:app:1', 'view:/']);
    ref.current!.navigate('/workbooks/sales-overview');
    await waitFor(() => expect(events).toHaveLength(4));
    expect(events.slice(2)).toEqual(['navigate:/>/workbooks/sales-overview', 'view:/workbooks/sales-overview']);
  });

  it('chat: ready then view, with the chat switches in the URL', async () => {
    const events: string[] = [];
    const { container } = render(
      <Provider>
        <EmbeddedChat
          switches={{ showChatHistory: false }}
          onReady={(event) => events.push(`ready:${event.surface}`)}
          onView={(event) => events.push(`view:${event.payload.surface}`)}
        />
      </Provider>,
    );
    await waitFor(() => expect(events).toEqual(['ready:chat', 'view:chat']), { timeout: 15_000 });
    const iframe = container.querySelector('iframe')!;
    expect(iframe.title).toBe('Analytics chat');
    expect(iframe.getAttribute('allow')).toBe('clipboard-write');
    const url = new URL(iframe.src);
    expect(url.pathname).toBe('/embed/chat');
    expect(url.searchParams.get('showChatHistory')).toBe('false');
  });
});

describe('actions and declarative props have their visible effect', () => {
  it('actions sent before ready arrive after it, in order', async () => {
    const ref = createRef<EmbedHandle>();
    const views: string[] = [];
    render(
      <Provider>
        <EmbeddedApp ref={ref} deploymentId={1} onView={(event) => views.push(event.payload.path)} />
      </Provider>,
    );
    // Before any session exists: queued, then sent in order right after ready.
    ref.current!.setLocale('de-DE');
    ref.current!.navigate('/chat');
    ref.current!.navigate('/workbooks/sales-overview');
    await waitFor(() => expect(views).toEqual(['/', '/chat', '/workbooks/sales-overview']), { timeout: 15_000 });
    const frame = await commands.inspectEmbedFrame('/embed/d/1/app');
    expect(frame.lang).toBe('de-DE');
    expect(frame.path).toBe('/embed/d/1/app');
  });

  it('each handle method and each prop change reaches the page without a reload', async () => {
    const ref = createRef<EmbedHandle>();
    const session = countingSession();
    let ready = 0;
    type Props = {
      colorScheme: 'light' | 'dark';
      locale: string;
      timezone: string;
      status?: string;
      primaryColor?: string;
    };
    const control: { setProps?: (props: Props) => void } = {};
    function Host() {
      const [props, set] = useState<Props>({ colorScheme: 'light', locale: 'en-US', timezone: 'UTC' });
      useEffect(() => {
        control.setProps = set;
      }, []);
      return (
        <Provider getEmbedSession={session}>
          <EmbeddedDashboard
            ref={ref}
            publicId="sales-overview"
            colorScheme={props.colorScheme}
            locale={props.locale}
            timezone={props.timezone}
            filters={props.status ? { 'orders.status': props.status } : {}}
            theme={props.primaryColor ? { primaryColor: props.primaryColor } : undefined}
            onReady={() => (ready += 1)}
          />
        </Provider>
      );
    }
    render(<Host />);
    await waitFor(() => expect(ready).toBe(1), { timeout: 15_000 });
    const part = '/embed/dashboard/sales-overview';
    await waitFor(
      async () =>
        expect(Object.values((await commands.inspectEmbedFrame(part)).rows).every((rows) => rows !== undefined)).toBe(
          true,
        ),
      { timeout: 15_000 },
    );
    const before = await commands.inspectEmbedFrame(part);
    expect(before).toMatchObject({ lang: 'en-US', requestedScheme: 'light' });

    act(() =>
      control.setProps!({
        colorScheme: 'dark',
        locale: 'fr-FR',
        timezone: 'Asia/Tokyo',
        status: 'completed',
        primaryColor: '#00aa00',
      }),
    );
    let completed: Record<string, string | undefined> = {};
    await waitFor(
      async () => {
        const after = await commands.inspectEmbedFrame(part);
        expect(after).toMatchObject({
          lang: 'fr-FR',
          requestedScheme: 'dark',
          appliedScheme: 'dark',
          primaryColor: 'rgb(0, 170, 0)',
        });
        completed = after.rows;
        expect(after.timezoneText).toContain('Asia/Tokyo');
        expect(after.rows).not.toEqual(before.rows);
      },
      { timeout: 15_000 },
    );

    // Handle methods, one per action.
    ref.current!.setColorScheme('light');
    ref.current!.setLocale('ja-JP');
    ref.current!.setTimezone('Europe/Berlin');
    ref.current!.setTheme({ primaryColor: '#ff0000' });
    ref.current!.refresh();
    ref.current!.setFilter({ 'orders.status': 'cancelled' });
    await waitFor(
      async () => {
        const after = await commands.inspectEmbedFrame(part);
        expect(after).toMatchObject({
          lang: 'ja-JP',
          requestedScheme: 'light',
          refreshCount: '1',
          primaryColor: 'rgb(255, 0, 0)',
        });
        expect(after.timezoneText).toContain('Europe/Berlin');
        expect(Object.values(after.rows).every((rows) => rows !== undefined)).toBe(true);
        expect(after.rows).not.toEqual(completed);
      },
      { timeout: 15_000 },
    );
    ref.current!.send({
      type: 'service:action:navigate',
      payload: { path: '/dashboard/sales-overview/widgets/revenue-kpi' },
    });
    await waitFor(
      async () => expect(Object.keys((await commands.inspectEmbedFrame(part)).rows)).toEqual(['revenue-kpi']),
      { timeout: 15_000 },
    );
    expect(() => ref.current!.setLocale('not a locale!')).toThrow(/locale/);
    // None of it reloaded the iframe.
    expect(session.calls).toBe(1);
    expect(ready).toBe(1);
  });
});

describe('StrictMode, inline callbacks and unmount', () => {
  it('one session and one iframe load per mounted embed, whatever the re-renders', async () => {
    const session = countingSession();
    const ready: number[] = [];
    const control: { rerender?: () => void } = {};
    function Host() {
      const [count, setCount] = useState(0);
      useEffect(() => {
        control.rerender = () => setCount((value) => value + 1);
      }, []);
      // New inline functions and objects on every render.
      return (
        <Provider getEmbedSession={session}>
          <EmbeddedDashboard
            publicId="orders-ops"
            theme={{ primaryColor: '#2454d6' }}
            onReady={() => ready.push(count)}
            onEvent={() => undefined}
          />
        </Provider>
      );
    }
    const before = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/embed/dashboard/orders-ops')).length;
    render(
      <StrictMode>
        <Host />
      </StrictMode>,
    );
    for (let index = 0; index < 5; index++) act(() => control.rerender!());
    await waitFor(() => expect(ready).toHaveLength(1), { timeout: 15_000 });
    for (let index = 0; index < 5; index++) act(() => control.rerender!());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(session.calls).toBe(1);
    expect(ready).toHaveLength(1);
    const loads =
      performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/embed/dashboard/orders-ops'))
        .length - before;
    expect(loads).toBe(1);
  });

  it('unmount removes every message listener it added', async () => {
    const added = new Set<unknown>();
    const original = { add: window.addEventListener, remove: window.removeEventListener };
    window.addEventListener = function (this: Window, type: string, listener: unknown, options?: unknown) {
      if (type === 'message') added.add(listener);
      return original.add.call(this, type, listener as EventListener, options as boolean);
    } as typeof window.addEventListener;
    window.removeEventListener = function (this: Window, type: string, listener: unknown, options?: unknown) {
      if (type === 'message') added.delete(listener);
      return original.remove.call(this, type, listener as EventListener, options as boolean);
    } as typeof window.removeEventListener;
    try {
      let ready = 0;
      const { unmount } = render(
        <StrictMode>
          <Provider>
            <EmbeddedDashboard publicId="sales-overview" onReady={() => (ready += 1)} />
          </Provider>
        </StrictMode>,
      );
      await waitFor(() => expect(ready).toBe(1), { timeout: 15_000 });
      expect(added.size).toBeGreaterThan(0);
      unmount();
      expect(added.size).toBe(0);
    } finally {
      window.addEventListener = original.add;
      window.removeEventListener = original.remove;
    }
  });
});

describe('forged, malformed and foreign messages never reach a callback', () => {
  const embedOrigin = inject('embedOrigin');
  const otherEmbedOrigin = inject('otherEmbedOrigin');
  const event = (type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
    source: 'service-embed',
    direction: 'event',
    type,
    payload,
    timestamp: Date.now(),
    surface: 'dashboard',
    ...extra,
  });

  it('only the events of its own iframe, from the tenant origin, well formed', async () => {
    const events: AnyEmbedEvent[] = [];
    const other: AnyEmbedEvent[] = [];
    const { container } = render(
      // The fake embed plays the tenant: it sends `ready` on load and emits what it is told to.
      <Provider tenantUrl={embedOrigin} getEmbedSession={async () => 'fake-session'}>
        <EmbeddedDashboard publicId="a" onEvent={(received) => events.push(received)} />
        <EmbeddedDashboard publicId="a" onEvent={(received) => other.push(received)} />
      </Provider>,
    );
    await waitFor(() => expect(events).toHaveLength(1));
    await waitFor(() => expect(other).toHaveLength(1));
    const [mine, theirs] = [...container.querySelectorAll('iframe')];
    const proto = JSON.parse(
      '{"source":"service-embed","direction":"event","type":"service:event:view","payload":{"__proto__":{"path":"/x"},"surface":"dashboard"},"timestamp":1,"surface":"dashboard"}',
    ) as unknown;
    const forged = [
      event('service:event:view', { surface: 'dashboard', path: '/wrong-source' }, { source: 'someone-else' }),
      event('service:event:view', { surface: 'dashboard', path: '/wrong-direction' }, { direction: 'action' }),
      event('service:event:view', { surface: 'dashboard' }),
      event('service:event:view', 'not an object'),
      event('service:event:ready', { embedTenant: 1, deploymentId: null, mode: 'signed', surface: 'dashboard' }),
      proto,
      'a string',
      null,
    ];
    mine!.contentWindow!.postMessage(
      { fake: 'emit', messages: [...forged, event('service:event:x-end', {})] },
      embedOrigin,
    );
    // The host window itself.
    window.postMessage(event('service:event:view', { surface: 'dashboard', path: '/from-host' }), location.origin);
    await waitFor(() => expect(types(events)).toContain('service:event:x-end'));
    expect(types(events)).toEqual(['service:event:ready', 'service:event:x-end']);
    // Two iframes of the same tenant origin, even of the same dashboard, never see each other's events.
    expect(types(other)).toEqual(['service:event:ready']);
    theirs!.contentWindow!.postMessage({ fake: 'emit', messages: [event('service:event:x-theirs', {})] }, embedOrigin);
    await waitFor(() => expect(types(other)).toContain('service:event:x-theirs'));
    expect(types(events)).not.toContain('service:event:x-theirs');

    // Its own iframe, navigated to a foreign origin: still nothing.
    mine!.contentWindow!.postMessage(
      {
        fake: 'navigate',
        to: `${otherEmbedOrigin}/embed?parent=${encodeURIComponent(location.origin)}&emit=${encodeURIComponent(JSON.stringify([event('service:event:x-foreign', {})]))}`,
      },
      embedOrigin,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(types(events)).toEqual(['service:event:ready', 'service:event:x-end']);
  });
});

describe('session renewal with the emulator clock', () => {
  const MINUTE = 60_000;
  const DAY = 24 * 60 * MINUTE;

  /**
   * An `EmbeddedApp` on this file's manual-clock emulator, dark and in German, taken to a workbook:
   * what it reported, how often a session was minted and the iframe loaded, and every
   * `data-state` it went through after its first `ready`.
   */
  async function renewable(
    options: {
      /** Which session the n-th `getEmbedSession` call resolves with; default a fresh one. */
      session?: (call: number, request: Parameters<GetEmbedSession>[0]) => Promise<string>;
      renewal?: EmbeddedAppProps['renewal'];
    } = {},
  ) {
    const tenantUrl = await commands.clockedEmulator();
    let calls = 0;
    const getEmbedSession: GetEmbedSession = (request) => {
      calls += 1;
      return options.session?.(calls, request) ?? commands.mintClockedSession({ ...request });
    };
    const ref = createRef<EmbedHandle>();
    const events: string[] = [];
    const errors: EmbedErrorInfo[] = [];
    let renewed = 0;
    const { container } = render(
      <Provider tenantUrl={tenantUrl} getEmbedSession={getEmbedSession}>
        <EmbeddedApp
          ref={ref}
          deploymentId={1}
          colorScheme="dark"
          locale="de-DE"
          renewal={options.renewal}
          onEvent={(event) =>
            events.push(
              event.type === 'service:event:view' ? `view:${(event.payload as { path: string }).path}` : event.type,
            )
          }
          onError={(error) => errors.push(error)}
          onSessionRenewed={() => (renewed += 1)}
        />
      </Provider>,
    );
    const iframe = container.querySelector('iframe')!;
    let loads = 0;
    iframe.addEventListener('load', () => (loads += 1));
    await waitFor(() => expect(events).toContain('view:/'), { timeout: 15_000 });
    ref.current!.navigate('/workbooks/sales-overview');
    await waitFor(() => expect(events).toContain('view:/workbooks/sales-overview'));
    const frameUrl = `${tenantUrl}/embed/d/1/app`;
    const place = await waitFor(async () => {
      const frame = await commands.inspectEmbedFrame(frameUrl);
      expect(frame).toMatchObject({ lang: 'de-DE', requestedScheme: 'dark' });
      expect(frame.heading).not.toBe('');
      return frame;
    });
    await waitFor(() => expect(loads).toBe(1));
    const states: string[] = [];
    new MutationObserver(() => states.push(rootOf(container).dataset['state']!)).observe(rootOf(container), {
      attributes: true,
      attributeFilter: ['data-state'],
    });
    return {
      frameUrl,
      place,
      events,
      errors,
      states,
      ref,
      calls: () => calls,
      loads: () => loads,
      renewed: () => renewed,
      count: (type: string) => events.filter((event) => event === type).length,
      views: () => events.filter((event) => event.startsWith('view:')),
    };
  }

  /** `document.visibilityState` as the test says, with `visibilitychange` when it changes; `restore` puts the browser's back. */
  function visibility(state: DocumentVisibilityState) {
    let current = state;
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => current });
    document.dispatchEvent(new Event('visibilitychange'));
    return {
      set(next: DocumentVisibilityState) {
        current = next;
        document.dispatchEvent(new Event('visibilitychange'));
      },
      restore() {
        delete (document as { visibilityState?: unknown }).visibilityState;
      },
    };
  }

  it('on session-expiring: renewed in place, one iframe load, the viewer kept where they were, onSessionRenewed', async () => {
    const app = await renewable();
    // Four minutes before the page's 24-hour token lapses: it says session-expiring.
    await commands.advanceEmulatorClock(DAY - 4 * MINUTE);
    await waitFor(() => expect(app.renewed()).toBe(1), { timeout: 15_000 });
    expect(app.count('service:event:session-expiring')).toBe(1);
    expect(app.calls()).toBe(2);
    // The page took it (its second ready) and was never reloaded, hidden or replaced.
    expect(app.count('service:event:ready')).toBe(2);
    expect(app.loads()).toBe(1);
    expect(app.states).toEqual([]);
    expect(app.views().at(-1)).toBe('view:/workbooks/sales-overview');
    expect(await commands.inspectEmbedFrame(app.frameUrl)).toMatchObject({
      heading: app.place.heading,
      lang: 'de-DE',
      requestedScheme: 'dark',
    });
    // The new session lasts: past the old token's end, the page's queries still work.
    await commands.advanceEmulatorClock(10 * MINUTE);
    app.ref.current!.refresh();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(app.count('service:event:session-expired')).toBe(0);
    expect(app.calls()).toBe(2);
  });

  it('on session-expired: a new session in place, the last path kept, onSessionRenewed', async () => {
    const app = await renewable();
    // Past the 24-hour token: the page's next query is refused and it says session-expired.
    await commands.advanceEmulatorClock(25 * 60 * 60 * 1000);
    app.ref.current!.refresh();
    await waitFor(() => expect(app.renewed()).toBe(1), { timeout: 15_000 });
    expect(app.calls()).toBe(2);
    expect(app.count('service:event:session-expired')).toBe(1);
    expect(app.count('service:event:ready')).toBe(2);
    await waitFor(async () => {
      const frame = await commands.inspectEmbedFrame(app.frameUrl);
      expect(frame).toMatchObject({ lang: 'de-DE', requestedScheme: 'dark' });
      expect(frame.heading).toBe(app.place.heading);
    });
    expect(app.views().at(-1)).toBe('view:/workbooks/sales-overview');
    expect(app.loads()).toBe(1);
  });

  it('the embed refuses the new session: reloaded with another, at the last path, the view state replayed', async () => {
    const app = await renewable({
      // The renewal's session is another viewer's, which the page must refuse.
      session: (call, request) =>
        commands.mintClockedSession({ ...request }, call === 2 ? { externalId: 'someone-else@acme.test' } : {}),
    });
    const views = app.views().length;
    await commands.advanceEmulatorClock(DAY - 4 * MINUTE);
    await waitFor(() => expect(app.renewed()).toBe(1), { timeout: 15_000 });
    expect(app.calls()).toBe(3);
    expect(app.loads()).toBe(2);
    expect(app.states).toEqual(['renewing', 'ready']);
    // The new page went back to where the viewer was, in their language and scheme.
    await waitFor(() => expect(app.views().slice(views)).toEqual(['view:/', 'view:/workbooks/sales-overview']));
    await waitFor(async () =>
      expect(await commands.inspectEmbedFrame(app.frameUrl)).toMatchObject({
        heading: app.place.heading,
        lang: 'de-DE',
        requestedScheme: 'dark',
      }),
    );
    expect(app.errors).toEqual([expect.objectContaining({ payload: expect.objectContaining({ context: 'session' }) })]);
  });

  it('a flood of session-expired from the embed (100 in a second) mints one session', async () => {
    const app = await renewable();
    const expired = {
      source: 'service-embed',
      direction: 'event',
      type: 'service:event:session-expired',
      payload: {},
      surface: 'app',
    };
    await commands.postFromEmbedFrame(app.frameUrl, expired, { count: 100, intervalMs: 10 });
    await waitFor(() => expect(app.count('service:event:session-expired')).toBe(100));
    await waitFor(() => expect(app.renewed()).toBe(1), { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(app.calls()).toBe(2);
    expect(app.renewed()).toBe(1);
    expect(app.loads()).toBe(1);
  });

  it('a hidden page does not renew on session-expiring; it renews when it becomes visible', async () => {
    const app = await renewable();
    const seen = visibility('hidden');
    try {
      await commands.advanceEmulatorClock(DAY - 4 * MINUTE);
      await waitFor(() => expect(app.count('service:event:session-expiring')).toBe(1), { timeout: 5_000 });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(app.calls()).toBe(1);
      seen.set('visible');
      await waitFor(() => expect(app.renewed()).toBe(1), { timeout: 15_000 });
      expect(app.calls()).toBe(2);
      expect(app.loads()).toBe(1);
    } finally {
      seen.restore();
    }
  });

  it('a hidden page renews hiddenLeadMs before expiresAt without being seen', async () => {
    // expiresAt is four minutes away when the page says so: renew three seconds later.
    const app = await renewable({ renewal: { hiddenLeadMs: 4 * MINUTE - 3_000 } });
    const seen = visibility('hidden');
    try {
      await commands.advanceEmulatorClock(DAY - 4 * MINUTE);
      await waitFor(() => expect(app.count('service:event:session-expiring')).toBe(1), { timeout: 5_000 });
      expect(app.calls()).toBe(1);
      await waitFor(() => expect(app.renewed()).toBe(1), { timeout: 15_000 });
      expect(app.calls()).toBe(2);
    } finally {
      seen.restore();
    }
  });
});

describe("renewal against the testing kit's fake embed", () => {
  const ready = {
    type: 'service:event:ready',
    payload: { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' },
  } as const;

  it('a page that answers ready takes the session in place; a silent one is loaded again', async () => {
    const fake = createFakeEmbed();
    let sessions = 0;
    let renewed = 0;
    try {
      render(
        <Provider tenantUrl={fake.tenantUrl} getEmbedSession={async () => `session-${(sessions += 1)}`}>
          <EmbeddedDashboard publicId="a" renewal={{ timeoutMs: 500 }} onSessionRenewed={() => (renewed += 1)} />
        </Provider>,
      );
      await fake.loaded(1);
      await fake.emit({ type: 'service:event:session-expiring', payload: { expiresAt: Date.now() + 60_000 } });
      const action = await fake.waitForAction('service:action:set-session');
      expect(action.payload).toEqual({ sessionId: 'session-2' });
      await fake.emit(ready);
      await waitFor(() => expect(renewed).toBe(1));
      expect(fake.loads).toHaveLength(1);

      // Past the backoff, a page that does not answer is loaded again with a new session.
      await new Promise((resolve) => setTimeout(resolve, DEFAULT_RENEWAL_LIMITS.backoffMs));
      await fake.emit({ type: 'service:event:session-expiring', payload: {} });
      await waitFor(() => expect(fake.loads).toHaveLength(2), { timeout: 5_000 });
      expect(new URL(fake.loads[1]!.url).searchParams.get('session')).toBe('session-4');
      await waitFor(() => expect(renewed).toBe(2));
    } finally {
      fake.dispose();
    }
  });
});

describe('an embed navigated away from the tenant', () => {
  const embedOrigin = inject('embedOrigin');
  const otherEmbedOrigin = inject('otherEmbedOrigin');

  it('a second load with no ready from the tenant: the error state with origin_changed, told to onError, never ready', async () => {
    const errors: EmbedErrorInfo[] = [];
    const { container } = render(
      <Provider tenantUrl={embedOrigin} getEmbedSession={async () => 'fake-session'}>
        <EmbeddedDashboard publicId="a" readyTimeoutMs={1_500} onError={(error) => errors.push(error)} />
      </Provider>,
    );
    await waitFor(() => expect(rootOf(container).dataset['state']).toBe('ready'));
    const states: string[] = [];
    new MutationObserver(() => states.push(rootOf(container).dataset['state']!)).observe(rootOf(container), {
      attributes: true,
      attributeFilter: ['data-state'],
    });
    // The page sends its frame to another site (a redirect, a link opened in the frame).
    container
      .querySelector('iframe')!
      .contentWindow!.postMessage(
        { fake: 'navigate', to: `${otherEmbedOrigin}/embed?parent=${encodeURIComponent(location.origin)}` },
        embedOrigin,
      );
    await waitFor(() => expect(rootOf(container).dataset['state']).toBe('error'), { timeout: 5_000 });
    expect(states).toEqual(['loading', 'error']);
    expect(errors).toEqual([expect.objectContaining({ code: 'origin_changed' })]);
    expect(container.querySelector<HTMLIFrameElement>('iframe')!.style.visibility).toBe('hidden');
  });
});

describe('what a viewer sees while it loads', () => {
  const rect = (element: Element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    return { x, y, width, height };
  };

  it('a skeleton the size of the embed, and nothing moves when the page is ready', async () => {
    const { container } = render(
      <Provider>
        <EmbeddedDashboard publicId="sales-overview" height={420} style={{ width: 640 }} />
      </Provider>,
    );
    const root = rootOf(container);
    const placeholder = container.querySelector('[data-part="placeholder"]')!;
    const skeleton = placeholder.querySelector('[data-part="skeleton"]')!;
    const iframe = container.querySelector('iframe')!;
    const before = { root: rect(root), iframe: rect(iframe) };
    expect(before.root).toMatchObject({ width: 640, height: 420 });
    expect(rect(placeholder)).toEqual(before.root);
    // Inset by the placeholder's padding on every side, whatever the embed's size.
    const inner = rect(skeleton);
    expect(inner.width).toBe(640 - 32);
    expect(inner.height).toBe(420 - 32);
    // The label is for screen readers; what shows is the skeleton.
    expect(rect(placeholder.querySelector('[data-part="placeholder-label"]')!).width).toBeLessThanOrEqual(1);
    expect(iframe.style.visibility).toBe('hidden');
    await waitFor(() => expect(root.dataset['state']).toBe('ready'), { timeout: 15_000 });
    expect({ root: rect(root), iframe: rect(iframe) }).toEqual(before);
  });

  it('the skeleton moves only when the viewer allows motion', async () => {
    const animation = async () => {
      const { container, unmount } = render(
        <Provider getEmbedSession={() => new Promise(() => {})}>
          <EmbeddedDashboard publicId="sales-overview" readyTimeoutMs={60_000} />
        </Provider>,
      );
      const name = getComputedStyle(container.querySelector('[data-part="skeleton"]')!).animationName;
      unmount();
      return name;
    };
    try {
      await commands.emulateReducedMotion('reduce');
      expect(await animation()).toBe('none');
      await commands.emulateReducedMotion('no-preference');
      expect(await animation()).toBe('service-skeleton-pulse');
    } finally {
      await commands.emulateReducedMotion(null);
    }
  });
});

describe('bad input and faults: a typed error, shown, with retry', () => {
  const cases: [string, (onError: (error: EmbedErrorInfo) => void) => ReactNode, RegExp, string][] = [
    [
      'a tenantUrl that is not https',
      (onError) => (
        <Provider tenantUrl="http://acme.example.com">
          <EmbeddedDashboard publicId="x" onError={onError} />
        </Provider>
      ),
      /https/,
      'ServiceConfigError',
    ],
    [
      'an empty session id',
      (onError) => (
        <Provider getEmbedSession={async () => ''}>
          <EmbeddedDashboard publicId="x" onError={onError} />
        </Provider>
      ),
      /session id/,
      'ServiceValidationError',
    ],
    [
      'a non-string session id',
      (onError) => (
        <Provider getEmbedSession={async () => 42 as unknown as string}>
          <EmbeddedDashboard publicId="x" onError={onError} />
        </Provider>
      ),
      /session id/,
      'ServiceValidationError',
    ],
    [
      'a getEmbedSession that throws',
      (onError) => (
        <Provider
          getEmbedSession={async () => {
            throw new Error('no viewer');
          }}
        >
          <EmbeddedDashboard publicId="x" onError={onError} />
        </Provider>
      ),
      /no viewer/,
      'ServiceConfigError',
    ],
    [
      'a getEmbedSession that never settles',
      (onError) => (
        <Provider getEmbedSession={() => new Promise(() => {})}>
          <EmbeddedDashboard publicId="x" readyTimeoutMs={300} onError={onError} />
        </Provider>
      ),
      /did not settle/,
      'ServiceConfigError',
    ],
    [
      'invalid filters',
      (onError) => (
        <Provider>
          <EmbeddedDashboard publicId="x" filters={{ status: 'x' }} onError={onError} />
        </Provider>
      ),
      /filters/,
      'ServiceConfigError',
    ],
    [
      'an invalid locale',
      (onError) => (
        <Provider>
          <EmbeddedDashboard publicId="x" locale="not a locale" onError={onError} />
        </Provider>
      ),
      /locale/,
      'ServiceConfigError',
    ],
    [
      'a route that refuses',
      (onError) => (
        <Provider getEmbedSession={fetchEmbedSession('/api/no-such-route')}>
          <EmbeddedDashboard publicId="x" onError={onError} />
        </Provider>
      ),
      /404/,
      'ServiceHttpError',
    ],
  ];
  it.each(cases)('%s', async (_name, element, message, name) => {
    const errors: EmbedErrorInfo[] = [];
    const { container } = render(element((error) => errors.push(error)));
    await waitFor(() => expect(rootOf(container).dataset['state']).toBe('error'), { timeout: 5_000 });
    expect(errors).toHaveLength(1);
    const error = errors[0] as Error;
    expect(error.name).toBe(name);
    expect(error.message).toMatch(message);
    expect(container.querySelector('[role="alert"]')?.textContent).toContain(error.message);
  });

  it('no ready within readyTimeoutMs: error, and retry loads again with a new session', async () => {
    // The testing kit's fake embed, told to stay silent: the page never says ready.
    const fake = createFakeEmbed({ events: [] });
    const errors: EmbedErrorInfo[] = [];
    let sessions = 0;
    let ready = 0;
    try {
      const { container } = render(
        <Provider tenantUrl={fake.tenantUrl} getEmbedSession={async () => `session-${(sessions += 1)}`}>
          <EmbeddedDashboard
            publicId="sales-overview"
            readyTimeoutMs={1500}
            onError={(error) => errors.push(error)}
            onReady={() => (ready += 1)}
            labels={{ retry: 'Nochmal' }}
          />
        </Provider>,
      );
      await waitFor(() => expect(rootOf(container).dataset['state']).toBe('error'), { timeout: 5_000 });
      expect((errors[0] as { code?: string }).code).toBe('ready_timeout');
      const button = container.querySelector<HTMLButtonElement>('[data-part="retry"]')!;
      expect(button.textContent).toBe('Nochmal');
      act(() => button.click());
      expect(rootOf(container).dataset['state']).toBe('loading');
      await waitFor(() => expect(rootOf(container).dataset['state']).toBe('error'), { timeout: 5_000 });
      expect(sessions).toBe(2);
      expect(fake.loads.map((load) => new URL(load.url).searchParams.get('session'))).toEqual([
        'session-1',
        'session-2',
      ]);
      expect(ready).toBe(0);
    } finally {
      fake.dispose();
    }
  });

  it('renderPlaceholder and renderError replace both parts', async () => {
    const { container } = render(
      <Provider getEmbedSession={async () => ''}>
        <EmbeddedDashboard
          publicId="x"
          renderPlaceholder={({ labels }) => <p data-testid="mine">{labels.loading}!</p>}
          renderError={({ error, retry }) => (
            <button type="button" data-testid="my-error" onClick={retry}>
              {error?.name}
            </button>
          )}
        />
      </Provider>,
    );
    expect(container.querySelector('[data-testid="mine"]')?.textContent).toBe('Loading the dashboard…!');
    await waitFor(() =>
      expect(container.querySelector('[data-testid="my-error"]')?.textContent).toBe('ServiceValidationError'),
    );
  });
});
