/**
 * The embed controller without React (jsdom): the declarative view state diffed into actions,
 * replayed on a new load, and the session renewed on a timer and on `session-expired`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmbedEvent } from '../../../src/core/protocol/embed';
import {
  DEFAULT_RENEWAL_LIMITS,
  createEmbedController,
  type EmbedControllerOptions,
} from '../../../src/core/embed-controller';

const TENANT = 'https://acme.example.com';

function setup(overrides: Partial<EmbedControllerOptions> = {}) {
  const iframe = document.createElement('iframe');
  document.body.append(iframe);
  const posted: { type: string; payload: unknown }[] = [];
  // jsdom gives the iframe a new window when its `src` changes: record what each one is sent.
  const spied = new WeakSet<Window>();
  const frame = (): Window => {
    const current = iframe.contentWindow!;
    if (!spied.has(current)) {
      spied.add(current);
      vi.spyOn(current, 'postMessage').mockImplementation((message: unknown) => {
        posted.push(message as { type: string; payload: unknown });
      });
    }
    return current;
  };
  let sessions = 0;
  const options: EmbedControllerOptions = {
    surface: 'dashboard',
    tenantUrl: TENANT,
    tenantError: undefined,
    getEmbedSession: vi.fn(async () => `session-${++sessions}`),
    url: { publicId: 'sales-overview' },
    readyTimeoutMs: 20_000,
    renewAfterMs: 0,
    onEvent: vi.fn(),
    onError: vi.fn(),
    onSessionRenewed: vi.fn(),
    ...overrides,
  };
  const controller = createEmbedController(() => options);
  const say = (type: string, payload: Record<string, unknown>) =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data:
          type === 'service:event:ready' || type === 'service:event:view'
            ? createEmbedEvent({ surface: 'dashboard', type, payload } as never)
            : { source: 'service-embed', direction: 'event', type, payload, timestamp: 1, surface: 'dashboard' },
        origin: TENANT,
        source: frame(),
      }),
    );
  const ready = () =>
    say('service:event:ready', { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' });
  return { iframe, controller, options, posted, say, ready };
}

const settle = async () => {
  for (let index = 0; index < 50; index++) await Promise.resolve();
};

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('createEmbedController', () => {
  it('puts the view state in the URL, then diffs prop changes into actions, clearing removed filters', async () => {
    const { iframe, controller, posted, ready } = setup();
    controller.update({ locale: 'de-DE', filters: { 'orders.status': 'completed' }, colorScheme: 'dark' });
    controller.attach(iframe);
    await settle();
    const url = new URL(iframe.src);
    expect(url.searchParams.get('session')).toBe('session-1');
    expect(url.searchParams.get('locale')).toBe('de-DE');
    expect(url.searchParams.get('f_orders.status')).toBe('{"value":"completed"}');
    // Not in the URL: sent after ready.
    expect(posted).toEqual([]);
    ready();
    expect(posted.map((action) => action.type)).toEqual(['service:action:set-color-scheme']);
    posted.length = 0;

    controller.update({ locale: 'de-DE', filters: { 'orders.region': 'EU' }, colorScheme: 'dark' });
    controller.update({ locale: 'de-DE', filters: { 'orders.region': 'EU' }, colorScheme: 'dark' });
    expect(posted).toHaveLength(1);
    const parameter = new URLSearchParams((posted[0]!.payload as { filterUrlParameter: string }).filterUrlParameter);
    expect(Object.fromEntries(parameter)).toEqual({
      'f_orders.status': '{"value":[]}',
      'f_orders.region': '{"value":"EU"}',
    });
    expect(controller.getSnapshot().status).toBe('ready');
  });

  it('renews before the token lapses; an embed that never answers set-session is reloaded: a new session, the state replayed, the last path restored', async () => {
    vi.useFakeTimers();
    const { iframe, controller, options, posted, say, ready } = setup({ renewAfterMs: 60_000 });
    controller.update({ colorScheme: 'dark', timezone: 'Asia/Tokyo' });
    controller.attach(iframe);
    await settle();
    ready();
    say('service:event:view', { surface: 'dashboard', path: '/dashboard/sales-overview/widgets/w1' });
    controller.set('theme', { primaryColor: '#ff0000' });
    posted.length = 0;

    await vi.advanceTimersByTimeAsync(59_999);
    expect(options.getEmbedSession).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    // First in place: the page keeps showing while it is handed a new session.
    expect(options.getEmbedSession).toHaveBeenCalledTimes(2);
    expect(posted).toEqual([
      expect.objectContaining({ type: 'service:action:set-session', payload: { sessionId: 'session-2' } }),
    ]);
    expect(controller.getSnapshot().status).toBe('ready');
    expect(new URL(iframe.src).searchParams.get('session')).toBe('session-1');
    posted.length = 0;

    // No answer within the renewal timeout: the reload of before.
    await vi.advanceTimersByTimeAsync(DEFAULT_RENEWAL_LIMITS.timeoutMs);
    expect(controller.getSnapshot().error?.message).toBeUndefined();
    expect(controller.getSnapshot().status).toBe('renewing');
    expect(options.getEmbedSession).toHaveBeenCalledTimes(3);
    expect(new URL(iframe.src).searchParams.get('session')).toBe('session-3');
    expect(new URL(iframe.src).searchParams.get('timezone')).toBe('Asia/Tokyo');
    expect(options.onSessionRenewed).not.toHaveBeenCalled();
    ready();
    expect(options.onSessionRenewed).toHaveBeenCalledTimes(1);
    expect(posted.map((action) => action.type)).toEqual([
      'service:action:set-color-scheme',
      'service:action:set-theme',
      'service:action:navigate',
    ]);
    expect(posted[2]!.payload).toEqual({ path: '/dashboard/sales-overview/widgets/w1' });
  });

  it('renews on service:event:session-expired, whatever its payload', async () => {
    const { iframe, controller, options, say, ready } = setup();
    controller.attach(iframe);
    await settle();
    ready();
    say('service:event:session-expired', { reason: 'anything' });
    await settle();
    expect(options.getEmbedSession).toHaveBeenCalledTimes(2);
    expect(options.onEvent).toHaveBeenCalledWith(expect.objectContaining({ type: 'service:event:session-expired' }));
    ready();
    expect(options.onSessionRenewed).toHaveBeenCalledTimes(1);
  });

  it('a fatal error event puts it in the error state; a non-fatal one does not', async () => {
    const { iframe, controller, say, ready } = setup();
    controller.attach(iframe);
    await settle();
    ready();
    say('service:event:error', { message: 'Widget failed', fatal: false });
    expect(controller.getSnapshot().status).toBe('ready');
    say('service:event:error', { message: 'Failed to load data', fatal: true });
    expect(controller.getSnapshot()).toMatchObject({
      status: 'error',
      error: { code: 'embed_error', message: 'Failed to load data' },
    });
  });

  it('detach cancels the session fetch and drops its late answer', async () => {
    let resolve: (id: string) => void = () => {};
    const { iframe, controller, options } = setup({
      getEmbedSession: vi.fn(() => new Promise<string>((done) => (resolve = done))),
    });
    controller.attach(iframe);
    await settle();
    const signal = vi.mocked(options.getEmbedSession!).mock.calls[0]![1].signal;
    controller.detach();
    expect(signal.aborted).toBe(true);
    resolve('late');
    await settle();
    expect(iframe.getAttribute('src')).toBeNull();
  });

  it('a host without a provider gets its own callbacks and defaults, and a missing tenantUrl as a typed error', async () => {
    const iframe = document.createElement('iframe');
    document.body.append(iframe);
    const getEmbedSession = vi.fn(async () => 'session-1');
    const controller = createEmbedController(() => ({
      surface: 'chat',
      tenantUrl: undefined,
      getEmbedSession,
      url: {},
    }));
    const statuses: string[] = [];
    controller.subscribe(() => statuses.push(controller.getSnapshot().status));
    controller.attach(iframe);
    await settle();
    expect(statuses).toEqual(['loading', 'error']);
    expect(controller.getSnapshot().error).toMatchObject({ name: 'ServiceConfigError', message: 'tenantUrl' });
    expect(getEmbedSession).not.toHaveBeenCalled();
  });
});

describe('createEmbedController: renewal in place', () => {
  let visibility: DocumentVisibilityState = 'visible';
  const setVisibility = (state: DocumentVisibilityState) => {
    visibility = state;
    document.dispatchEvent(new Event('visibilitychange'));
  };
  beforeEach(() => {
    visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  });
  afterEach(() => {
    delete (document as { visibilityState?: unknown }).visibilityState;
  });

  /** A ready embed, with the actions it was sent since then. */
  async function readyEmbed(overrides: Partial<EmbedControllerOptions> = {}) {
    vi.useFakeTimers();
    const embed = setup(overrides);
    embed.controller.attach(embed.iframe);
    await settle();
    embed.ready();
    embed.posted.length = 0;
    const sessions = () => vi.mocked(embed.options.getEmbedSession!).mock.calls.length;
    const setSessions = () => embed.posted.filter((action) => action.type === 'service:action:set-session');
    return { ...embed, sessions, setSessions };
  }

  it('session-expiring in a visible page: set-session with a new session, no reload, onSessionRenewed on ready', async () => {
    const { controller, iframe, options, say, ready, sessions, setSessions } = await readyEmbed();
    const statuses: string[] = [];
    controller.subscribe(() => statuses.push(controller.getSnapshot().status));
    say('service:event:session-expiring', { expiresAt: Date.now() + 300_000 });
    await settle();
    expect(sessions()).toBe(2);
    expect(setSessions()).toEqual([expect.objectContaining({ payload: { sessionId: 'session-2' } })]);
    ready();
    expect(options.onSessionRenewed).toHaveBeenCalledTimes(1);
    expect(new URL(iframe.src).searchParams.get('session')).toBe('session-1');
    // The viewer never left the page: no loading, no renewing.
    expect(statuses).toEqual([]);
    expect(controller.getSnapshot().status).toBe('ready');
  });

  it('the page refuses the session (an error of context session): reloaded with another one', async () => {
    const { controller, iframe, options, say, ready, sessions } = await readyEmbed();
    say('service:event:session-expired', {});
    await settle();
    say('service:event:error', { message: 'This session is for another viewer', context: 'session', fatal: false });
    expect(controller.getSnapshot().status).toBe('renewing');
    await settle();
    expect(sessions()).toBe(3);
    expect(new URL(iframe.src).searchParams.get('session')).toBe('session-3');
    ready();
    expect(options.onSessionRenewed).toHaveBeenCalledTimes(1);
    expect(options.onError).not.toHaveBeenCalled();
  });

  it('a flood of session-expired mints one session; expiry again within the backoff is dropped, later it renews again', async () => {
    const { say, ready, sessions, setSessions } = await readyEmbed();
    for (let index = 0; index < 100; index++) say('service:event:session-expired', {});
    await settle();
    expect(sessions()).toBe(2);
    ready();
    for (let index = 0; index < 100; index++) say('service:event:session-expired', {});
    await vi.advanceTimersByTimeAsync(DEFAULT_RENEWAL_LIMITS.backoffMs - 1);
    expect(sessions()).toBe(2);
    expect(setSessions()).toHaveLength(1);
    // After the backoff the page is believed again, and the next wait is twice as long.
    await vi.advanceTimersByTimeAsync(1);
    say('service:event:session-expired', {});
    await settle();
    expect(sessions()).toBe(3);
    ready();
    say('service:event:session-expired', {});
    await vi.advanceTimersByTimeAsync(2 * DEFAULT_RENEWAL_LIMITS.backoffMs - 1);
    say('service:event:session-expired', {});
    await settle();
    expect(sessions()).toBe(3);
  });

  it('renewals that keep failing back off, then show the error state', async () => {
    let calls = 0;
    const { controller, options, say, sessions } = await readyEmbed({
      getEmbedSession: vi.fn(async () => {
        calls += 1;
        if (calls > 1) throw new TypeError('Failed to fetch');
        return 'session-1';
      }),
    });
    say('service:event:session-expiring', {});
    await settle();
    expect(sessions()).toBe(2);
    expect(controller.getSnapshot().status).toBe('ready');
    // Attempts 5 s, then 10 s apart (the page keeps working meanwhile), then the error state.
    await vi.advanceTimersByTimeAsync(DEFAULT_RENEWAL_LIMITS.backoffMs - 1);
    expect(sessions()).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sessions()).toBe(3);
    expect(controller.getSnapshot().status).toBe('ready');
    await vi.advanceTimersByTimeAsync(2 * DEFAULT_RENEWAL_LIMITS.backoffMs - 1);
    expect(sessions()).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(sessions()).toBe(4);
    expect(controller.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'session_failed' } });
    expect(options.onError).toHaveBeenCalledTimes(1);
  });

  it('a hidden page renews when it becomes visible', async () => {
    const { say, sessions } = await readyEmbed();
    setVisibility('hidden');
    say('service:event:session-expiring', { expiresAt: Date.now() + 10 * 60_000 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sessions()).toBe(1);
    setVisibility('visible');
    await settle();
    expect(sessions()).toBe(2);
  });

  it(`a hidden page renews ${DEFAULT_RENEWAL_LIMITS.hiddenLeadMs / 1000} s before expiresAt, or at once when that has passed`, async () => {
    const { say, ready, sessions } = await readyEmbed();
    setVisibility('hidden');
    say('service:event:session-expiring', { expiresAt: Date.now() + 5 * 60_000 });
    await vi.advanceTimersByTimeAsync(5 * 60_000 - DEFAULT_RENEWAL_LIMITS.hiddenLeadMs - 1);
    expect(sessions()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sessions()).toBe(2);
    ready();
    await vi.advanceTimersByTimeAsync(DEFAULT_RENEWAL_LIMITS.maxBackoffMs);
    say('service:event:session-expiring', { expiresAt: Date.now() + 10_000 });
    await settle();
    expect(sessions()).toBe(3);
  });

  it('session-expired renews a hidden page at once', async () => {
    const { say, sessions } = await readyEmbed();
    setVisibility('hidden');
    say('service:event:session-expired', {});
    await settle();
    expect(sessions()).toBe(2);
  });
});

describe('createEmbedController: a frame that leaves the tenant', () => {
  it('a second load after ready with no ready within readyTimeoutMs: error origin_changed, told to onError', async () => {
    vi.useFakeTimers();
    const { iframe, controller, options, ready } = setup({ readyTimeoutMs: 5_000 });
    controller.attach(iframe);
    await settle();
    iframe.dispatchEvent(new Event('load'));
    ready();
    expect(controller.getSnapshot().status).toBe('ready');
    iframe.dispatchEvent(new Event('load'));
    // Never `ready` while another document is in the frame.
    expect(controller.getSnapshot().status).toBe('loading');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(controller.getSnapshot()).toMatchObject({ status: 'error', error: { code: 'origin_changed' } });
    expect(options.onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'origin_changed' }));
  });

  it("a new document that says ready from the tenant origin is the tenant's own", async () => {
    vi.useFakeTimers();
    const { iframe, controller, options, ready } = setup({ readyTimeoutMs: 5_000 });
    controller.attach(iframe);
    await settle();
    ready();
    iframe.dispatchEvent(new Event('load'));
    iframe.dispatchEvent(new Event('load'));
    ready();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(controller.getSnapshot().status).toBe('ready');
    expect(options.onError).not.toHaveBeenCalled();
  });
});
