/**
 * The embed channel in real Chromium, across real origins: the test page is on
 * `http://localhost:<port>`, the fake embed (test/browser/global-setup.ts) on `http://127.0.0.1:<port>`.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createEmbedChannel, type EmbedChannel, type EmbedRejection } from '../../src/core/embed-channel';
import { ServiceConfigError, ServiceValidationError } from '../../src/core/errors';
import { createEmbedEvent, isEmbedEvent, type AnyEmbedEvent, type EmbedEvent } from '../../src/core/protocol/embed';

const embedOrigin = inject('embedOrigin');
const otherEmbedOrigin = inject('otherEmbedOrigin');

interface FakeData {
  fake?: string;
  id?: string;
  received?: unknown[];
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function embedUrl(
  origin: string,
  params: { id?: string; ready?: 'manual'; emit?: unknown[]; surface?: string } = {},
): string {
  const url = new URL('/embed', origin);
  url.searchParams.set('parent', location.origin);
  if (params.id) url.searchParams.set('id', params.id);
  if (params.ready) url.searchParams.set('ready', params.ready);
  if (params.surface) url.searchParams.set('surface', params.surface);
  if (params.emit) url.searchParams.set('emit', JSON.stringify(params.emit));
  return url.href;
}

function addIframe(): HTMLIFrameElement {
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  cleanups.push(() => iframe.remove());
  return iframe;
}

/** Resolves with the next message of this iframe's window whose data passes `test`. */
function nextMessage(iframe: HTMLIFrameElement, test: (data: FakeData) => boolean): Promise<MessageEvent<FakeData>> {
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      if (event.source === iframe.contentWindow && typeof event.data === 'object' && event.data && test(event.data)) {
        window.removeEventListener('message', onMessage);
        resolve(event);
      }
    };
    window.addEventListener('message', onMessage);
    cleanups.push(() => window.removeEventListener('message', onMessage));
  });
}

/**
 * Asks the fake embed what it has received. Its answer comes after every message it posted
 * before, so once it is here the channel has also processed all of those.
 */
async function report(iframe: HTMLIFrameElement, origin = embedOrigin): Promise<unknown[]> {
  const answer = nextMessage(iframe, (data) => data.fake === 'report');
  iframe.contentWindow!.postMessage({ fake: 'report' }, origin);
  return (await answer).data.received ?? [];
}

function command(iframe: HTMLIFrameElement, message: Record<string, unknown>, origin = embedOrigin): void {
  iframe.contentWindow!.postMessage(message, origin);
}

interface Opened {
  iframe: HTMLIFrameElement;
  channel: EmbedChannel;
  events: AnyEmbedEvent[];
  rejections: EmbedRejection[];
  loaded: Promise<unknown>;
}

/** Creates an iframe and its channel, then points the iframe at the fake embed (in that order). */
function open(options: { src?: string; tenantUrl?: string; onEvent?: (event: AnyEmbedEvent) => void } = {}): Opened {
  const iframe = addIframe();
  const events: AnyEmbedEvent[] = [];
  const rejections: EmbedRejection[] = [];
  const channel = createEmbedChannel({
    iframe,
    tenantUrl: options.tenantUrl ?? embedOrigin,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    onRejected: (rejection) => rejections.push(rejection),
  });
  cleanups.push(() => channel.dispose());
  const loaded = nextMessage(iframe, (data) => data.fake === 'loaded');
  iframe.src = options.src ?? embedUrl(embedOrigin);
  return { iframe, channel, events, rejections, loaded };
}

const types = (events: readonly AnyEmbedEvent[]) => events.map((event) => event.type);
const echoed = (events: readonly AnyEmbedEvent[]) =>
  events
    .filter((event) => event.type === 'service:event:echo')
    .map((event) => (event.payload as { action: unknown }).action);

const navigate = (path: string) => ({ type: 'service:action:navigate', payload: { path } }) as const;

describe('embed channel: receiving (6.1, 6.2)', () => {
  it('6.1 delivers ready and known events from its iframe at the tenant origin, in order', async () => {
    const view = createEmbedEvent({
      surface: 'dashboard',
      type: 'service:event:view',
      payload: { surface: 'dashboard', path: '/' },
    });
    const loadedEvent = createEmbedEvent({
      surface: 'dashboard',
      type: 'service:event:dashboard-loaded',
      payload: { widgetCount: 3 },
    });
    const { events, channel } = open({ src: embedUrl(embedOrigin, { id: 'd1', emit: [view, loadedEvent] }) });
    await expect
      .poll(() => types(events))
      .toEqual(['service:event:ready', 'service:event:view', 'service:event:dashboard-loaded']);
    expect(events[0]).toMatchObject({
      source: 'service-embed',
      direction: 'event',
      surface: 'dashboard',
      payload: { mode: 'signed', publicId: 'd1' },
    });
    expect(events[1]).toEqual(view);
    expect(events[2]).toEqual(loadedEvent);
    expect(events.every((event) => isEmbedEvent(event))).toBe(true);
    expect(channel.isReady).toBe(true);
  });

  it('behaviour 2: an unknown service:event:* with a valid envelope reaches onEvent as it is', async () => {
    const expired = {
      source: 'service-embed',
      direction: 'event',
      type: 'service:event:session-expired',
      payload: { inSeconds: 60 },
      timestamp: 1,
      surface: 'app',
    };
    const { events, iframe, loaded } = open({ src: embedUrl(embedOrigin, { emit: [expired] }) });
    await loaded;
    await report(iframe);
    expect(types(events)).toEqual(['service:event:ready', 'service:event:session-expired']);
    expect(events[1]).toEqual(expired);
    expect(isEmbedEvent(events[1])).toBe(false);
  });

  it('6.1 ignores messages with the wrong source, the wrong direction or a bad payload, and says why', async () => {
    const good = createEmbedEvent({
      surface: 'dashboard',
      type: 'service:event:navigate',
      payload: { path: '/b', previousPath: '/a' },
    });
    const wrongSource = { ...good, source: 'other-embed' };
    const wrongDirection = { ...good, direction: 'action' };
    const badPayload = { ...good, payload: { previousPath: '/a' } };
    const noSurface = { ...good, surface: undefined };
    const { events, rejections, iframe, loaded } = open({
      src: embedUrl(embedOrigin, { emit: [wrongSource, wrongDirection, badPayload, noSurface, 'hello', null, good] }),
    });
    await loaded;
    await report(iframe);
    expect(types(events)).toEqual(['service:event:ready', 'service:event:navigate']);
    expect(events[1]).toEqual(good);
    const problems = rejections.map((rejection) => rejection.problems.join(' | '));
    expect(problems).toEqual([
      expect.stringMatching(/^source:/), // { fake: 'loaded' }
      expect.stringMatching(/^source:/),
      expect.stringMatching(/^direction:/),
      expect.stringMatching(/^payload\.path:/),
      expect.stringMatching(/^surface:/),
      expect.stringMatching(/^source:/),
      expect.stringMatching(/^source:/),
      expect.stringMatching(/^source:/), // { fake: 'report' }
    ]);
    expect(rejections.every((rejection) => rejection.origin === embedOrigin)).toBe(true);
    expect(rejections[2]?.data).toEqual(wrongDirection);
  });

  it('6.1 ignores events from another iframe of the same origin, silently', async () => {
    const mine = open({ src: embedUrl(embedOrigin, { id: 'mine', ready: 'manual' }) });
    const stranger = addIframe();
    const strangerLoaded = nextMessage(stranger, (data) => data.fake === 'loaded');
    const navigated = createEmbedEvent({
      surface: 'dashboard',
      type: 'service:event:navigate',
      payload: { path: '/x' },
    });
    stranger.src = embedUrl(embedOrigin, { id: 'stranger', emit: [navigated] });
    await Promise.all([mine.loaded, strangerLoaded]);
    await report(stranger);
    expect(mine.events).toEqual([]);
    expect(mine.channel.isReady).toBe(false);
    expect(mine.rejections.map((rejection) => (rejection.data as FakeData).id)).toEqual(['mine']);

    command(mine.iframe, { fake: 'ready' });
    await expect.poll(() => types(mine.events)).toEqual(['service:event:ready']);
    expect(mine.events[0]?.payload).toMatchObject({ publicId: 'mine' });
  });

  it("6.1 ignores a valid event from an iframe of the wrong origin (the test page's own origin)", async () => {
    const { iframe, events, rejections, channel } = open({ src: 'about:blank' });
    const ready = createEmbedEvent({
      surface: 'dashboard',
      type: 'service:event:ready',
      payload: { embedTenant: null, deploymentId: null, mode: 'signed', surface: 'dashboard' },
    });
    const done = nextMessage(iframe, (data) => data.fake === 'done');
    const target = JSON.stringify(location.origin);
    iframe.srcdoc = `<script>parent.postMessage(${JSON.stringify(ready)}, ${target}); parent.postMessage({ fake: 'done' }, ${target});</script>`;
    await done;
    expect(events).toEqual([]);
    expect(channel.isReady).toBe(false);
    expect(rejections[0]).toMatchObject({
      origin: location.origin,
      data: ready,
      problems: [expect.stringMatching(/^origin: .* is not the tenant origin/)],
    });
  });

  it('6.1 ignores everything when the iframe shows another origin than tenantUrl', async () => {
    const { iframe, events, rejections, loaded } = open({ tenantUrl: otherEmbedOrigin, src: embedUrl(embedOrigin) });
    await loaded;
    await report(iframe);
    expect(events).toEqual([]);
    expect(rejections.length).toBeGreaterThanOrEqual(2);
    expect(
      rejections.every((rejection) => rejection.problems[0]?.includes(`is not the tenant origin ${otherEmbedOrigin}`)),
    ).toBe(true);
  });

  it('6.1 ignores messages the host page posts to itself', async () => {
    const { events, rejections, loaded, iframe } = open({ src: embedUrl(embedOrigin, { ready: 'manual' }) });
    await loaded;
    const seen = new Promise<void>((resolve) => {
      const onMessage = (event: MessageEvent) => {
        if (event.source === window) {
          window.removeEventListener('message', onMessage);
          resolve();
        }
      };
      window.addEventListener('message', onMessage);
    });
    window.postMessage(
      createEmbedEvent({ surface: 'dashboard', type: 'service:event:navigate', payload: { path: '/' } }),
      location.origin,
    );
    await seen;
    await report(iframe);
    expect(events).toEqual([]);
    expect(rejections.map((rejection) => (rejection.data as FakeData).fake)).toEqual(['loaded', 'report']);
  });
});

describe('embed channel: sending (6.1, 6.3; behaviour 2)', () => {
  it('behaviour 2: actions sent before ready are queued, then flushed in order right after ready', async () => {
    const { channel, iframe, events, loaded } = open({ src: embedUrl(embedOrigin, { ready: 'manual' }) });
    channel.send(navigate('/a'));
    await loaded;
    channel.send(navigate('/b'));
    channel.send({ type: 'service:action:refresh' });
    expect(channel.isReady).toBe(false);
    expect(await report(iframe)).toEqual([]);

    command(iframe, { fake: 'ready' });
    await expect
      .poll(() => types(events))
      .toEqual(['service:event:ready', 'service:event:echo', 'service:event:echo', 'service:event:echo']);
    const received = echoed(events);
    expect(received.map((action) => (action as { type: string }).type)).toEqual([
      'service:action:navigate',
      'service:action:navigate',
      'service:action:refresh',
    ]);
    expect(received[0]).toEqual({
      source: 'service-embed',
      direction: 'action',
      type: 'service:action:navigate',
      payload: { path: '/a' },
      timestamp: expect.any(Number),
    });
    expect(received[1]).toMatchObject({ payload: { path: '/b' } });
    expect(received[2]).toMatchObject({ payload: {} });
    expect(received.some((action) => 'surface' in (action as object))).toBe(false);
  });

  it('behaviour 2: after ready, actions go out at once; sends from the ready listener keep their order', async () => {
    const opened = open({
      src: embedUrl(embedOrigin, { ready: 'manual' }),
      onEvent: (event) => {
        if (event.type === 'service:event:ready') opened.channel.send(navigate('/from-listener'));
      },
    });
    const { channel } = opened;
    channel.send(navigate('/queued'));
    await opened.loaded;
    command(opened.iframe, { fake: 'ready' });
    await expect.poll(() => echoed(opened.events).length).toBe(2);
    channel.send({ type: 'service:action:set-color-scheme', payload: { scheme: 'dark' } });
    await expect.poll(() => echoed(opened.events).length).toBe(3);
    expect(
      echoed(opened.events).map((action) => (action as { payload: { path?: string; scheme?: string } }).payload),
    ).toEqual([{ path: '/queued' }, { path: '/from-listener' }, { scheme: 'dark' }]);
  });

  it('behaviour 2: only a valid ready opens the queue, not a malformed ready nor other events', async () => {
    const readyPayload = { embedTenant: null, deploymentId: null, mode: 'signed', surface: 'dashboard' } as const;
    const badReady = {
      ...createEmbedEvent({ surface: 'dashboard', type: 'service:event:ready', payload: readyPayload }),
      payload: { mode: 'nope' },
    };
    const view = createEmbedEvent({
      surface: 'dashboard',
      type: 'service:event:view',
      payload: { surface: 'dashboard', path: '/' },
    });
    const unknown = { ...view, type: 'service:event:session-expired', payload: {} };
    const { channel, iframe, events, loaded } = open({
      src: embedUrl(embedOrigin, { ready: 'manual', emit: [badReady, view, unknown] }),
    });
    channel.send(navigate('/waiting'));
    await loaded;
    expect(await report(iframe)).toEqual([]);
    expect(types(events)).toEqual(['service:event:view', 'service:event:session-expired']);
    expect(channel.isReady).toBe(false);
  });

  it('6.1 actions are posted with the tenant origin as target: a document of another origin in the iframe never sees them', async () => {
    const { channel, iframe, events } = open({ src: embedUrl(embedOrigin) });
    await expect.poll(() => channel.isReady).toBe(true);

    // The embed navigates itself to a foreign origin; the iframe's src attribute does not change.
    const spyLoaded = nextMessage(iframe, (data) => data.fake === 'loaded' && data.id === 'spy');
    command(iframe, { fake: 'navigate', to: embedUrl(otherEmbedOrigin, { id: 'spy', ready: 'manual' }) });
    await spyLoaded;
    expect(channel.isReady).toBe(true);

    channel.send(navigate('/secret'));
    // A control message addressed to the spy's own origin does arrive, so the spy is listening.
    command(iframe, { hello: 'spy' }, otherEmbedOrigin);
    expect(await report(iframe, otherEmbedOrigin)).toEqual([{ hello: 'spy' }]);
    expect(echoed(events)).toEqual([]);
  });

  it("behaviour 2: a new src (a new session) waits for the new document's ready", async () => {
    const { channel, iframe, events } = open({ src: embedUrl(embedOrigin, { id: 'first' }) });
    await expect.poll(() => channel.isReady).toBe(true);

    const secondLoaded = nextMessage(iframe, (data) => data.fake === 'loaded' && data.id === 'second');
    iframe.src = embedUrl(embedOrigin, { id: 'second', ready: 'manual' });
    // Sent in the same task as the src change, before any observer callback could run.
    channel.send(navigate('/after-reload'));
    expect(channel.isReady).toBe(false);
    await secondLoaded;
    expect(await report(iframe)).toEqual([]);

    command(iframe, { fake: 'ready' });
    await expect.poll(() => echoed(events)).toEqual([expect.objectContaining({ payload: { path: '/after-reload' } })]);
    expect(events.filter((event) => event.type === 'service:event:ready').map((event) => event.payload)).toEqual([
      expect.objectContaining({ publicId: 'first' }),
      expect.objectContaining({ publicId: 'second' }),
    ]);
  });

  it('behaviour 2: a second ready from the same document is delivered and harmless', async () => {
    const { channel, iframe, events } = open({ src: embedUrl(embedOrigin) });
    await expect.poll(() => channel.isReady).toBe(true);
    command(iframe, { fake: 'ready' });
    await expect.poll(() => types(events)).toEqual(['service:event:ready', 'service:event:ready']);
    channel.send(navigate('/once'));
    await expect.poll(() => echoed(events).length).toBe(1);
    expect(await report(iframe)).toHaveLength(1);
  });

  it('a ready listener that throws still lets the queue flush', async () => {
    const swallow = (event: ErrorEvent) => {
      if (event.error instanceof Error && event.error.message === 'listener bug') event.preventDefault();
    };
    window.addEventListener('error', swallow, { capture: true });
    cleanups.push(() => window.removeEventListener('error', swallow, { capture: true }));
    const { channel, iframe, events, loaded } = open({
      src: embedUrl(embedOrigin, { ready: 'manual' }),
      onEvent: (event) => {
        if (event.type === 'service:event:ready') throw new Error('listener bug');
      },
    });
    channel.send(navigate('/still-sent'));
    await loaded;
    command(iframe, { fake: 'ready' });
    await expect.poll(() => echoed(events)).toEqual([expect.objectContaining({ payload: { path: '/still-sent' } })]);
  });

  it('send validates: ServiceValidationError for an invalid or unknown action, even after dispose', () => {
    const { channel } = open({ src: 'about:blank' });
    const invalid = (action: unknown): ServiceValidationError => {
      try {
        channel.send(action as never);
      } catch (error) {
        expect(ServiceValidationError.isInstance(error)).toBe(true);
        return error as ServiceValidationError;
      }
      throw new Error('expected a ServiceValidationError');
    };
    expect(invalid({ type: 'service:action:set-color-scheme', payload: { scheme: 'blue' } }).problems).toEqual([
      expect.stringMatching(/^payload\.scheme: expected "light" or "dark" or "auto", got "blue"/),
    ]);
    expect(invalid({ type: 'service:action:navigate' }).problems).toEqual([expect.stringMatching(/^payload\.path:/)]);
    expect(invalid({ type: 'service:action:zoom', payload: {} }).problems).toEqual([
      expect.stringMatching(/"service:action:zoom" is not an action/),
    ]);
    expect(
      invalid({
        source: 'service-embed',
        direction: 'action',
        type: 'service:action:refresh',
        payload: {},
        timestamp: 1,
        surface: 'app',
      }).problems,
    ).toEqual([expect.stringMatching(/^surface:/)]);
    expect(invalid({ type: 'service:action:set-theme', payload: { onClick: () => {} } }).problems).toEqual([
      expect.stringMatching(/plain data/),
    ]);
    expect(invalid(null).problems).toEqual([expect.stringMatching(/^source:/)]);
    channel.dispose();
    invalid({ type: 'service:action:set-locale', payload: { locale: '' } });
  });

  it('createEmbedChannel refuses a tenant that is not https (or http on loopback)', () => {
    const iframe = addIframe();
    expect(() => createEmbedChannel({ iframe, tenantUrl: 'http://acme.example', onEvent: () => {} })).toThrow(
      ServiceConfigError,
    );
    // A handler typed for known events only (`onEvent: (event: EmbedEvent) => void`) is accepted.
    const knownOnly = (event: EmbedEvent): string => event.type;
    const channel = createEmbedChannel({ iframe, tenantUrl: embedOrigin, onEvent: knownOnly });
    expect(channel.isReady).toBe(false);
    channel.dispose();
  });
});

describe('embed channel: dispose', () => {
  it('dispose removes the listener, drops the queue, and later sends do nothing', async () => {
    const { channel, iframe, events, rejections, loaded } = open({ src: embedUrl(embedOrigin, { ready: 'manual' }) });
    channel.send(navigate('/dropped'));
    await loaded;
    channel.dispose();
    channel.dispose();
    command(iframe, { fake: 'ready' });
    command(iframe, {
      fake: 'emit',
      messages: [createEmbedEvent({ surface: 'dashboard', type: 'service:event:navigate', payload: { path: '/' } })],
    });
    channel.send(navigate('/after-dispose'));
    expect(await report(iframe)).toEqual([]);
    expect(events).toEqual([]);
    expect(rejections.map((rejection) => (rejection.data as FakeData).fake)).toEqual(['loaded']);
    expect(channel.isReady).toBe(false);
  });
});
