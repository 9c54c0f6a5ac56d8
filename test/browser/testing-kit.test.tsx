/**
 * The testing kit (`@service/react/testing`) in real Chromium, as a partner's test uses it:
 * `EmbeddedDashboard` against the fake embed peer, `AgentChat` against the replay fetch.
 */
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { AgentChat, EmbeddedDashboard, ServiceProvider, type AnyEmbedEvent, type EmbedHandle } from '../../src';
import { createEmbedChannel, type EmbedRejection } from '../../src/core/embed-channel';
import { createFakeEmbed, createReplayFetch, TRANSCRIPTS, type FakeEmbed } from '../../src/testing';

const fakes: FakeEmbed[] = [];
afterEach(() => {
  cleanup();
  for (const fake of fakes.splice(0)) fake.dispose();
});

function fakeEmbed(options: Parameters<typeof createFakeEmbed>[0] = {}): FakeEmbed {
  const fake = createFakeEmbed(options);
  fakes.push(fake);
  return fake;
}

const types = (events: readonly AnyEmbedEvent[]): string[] => events.map((event) => event.type);

describe('createFakeEmbed with EmbeddedDashboard', () => {
  it('ready, view, dashboard-loaded reach the typed callbacks in order; the colorScheme prop arrives as an action after ready; handle actions are recorded', async () => {
    const fake = fakeEmbed();
    const events: AnyEmbedEvent[] = [];
    const handle = createRef<EmbedHandle>();
    let sessions = 0;
    const { container } = render(
      <ServiceProvider tenantUrl={fake.tenantUrl} getEmbedSession={async () => `session-${(sessions += 1)}`}>
        <EmbeddedDashboard
          ref={handle}
          publicId="sales-overview"
          locale="de-DE"
          colorScheme="dark"
          onEvent={(event) => events.push(event)}
        />
      </ServiceProvider>,
    );
    await waitFor(() =>
      expect(types(events)).toEqual(['service:event:ready', 'service:event:view', 'service:event:dashboard-loaded']),
    );
    expect(events[0]).toMatchObject({
      source: 'service-embed',
      direction: 'event',
      surface: 'dashboard',
      payload: { mode: 'signed', publicId: 'sales-overview' },
    });
    expect(container.querySelector<HTMLElement>('[data-service-embed]')!.dataset['state']).toBe('ready');

    // The load the host asked for: its session and URL parameters.
    expect(fake.loads).toHaveLength(1);
    const url = new URL(fake.loads[0]!.url);
    expect(url.origin).toBe(location.origin);
    expect(url.pathname).toBe('/embed/dashboard/sales-overview');
    expect(url.searchParams.get('session')).toBe('session-1');
    expect(fake.loads[0]).toMatchObject({ surface: 'dashboard', publicId: 'sales-overview' });

    const scheme = await fake.waitForAction('service:action:set-color-scheme');
    expect(scheme).toMatchObject({ source: 'service-embed', direction: 'action', payload: { scheme: 'dark' } });
    act(() => handle.current!.navigate('/dashboard/sales-overview/widgets/w1'));
    await expect(fake.waitForAction('service:action:navigate')).resolves.toMatchObject({
      payload: { path: '/dashboard/sales-overview/widgets/w1' },
    });
    expect(fake.actions.every((action) => !('surface' in action))).toBe(true);

    // Events the test chooses, after the load's own.
    await fake.emit({ type: 'service:event:drilldown', payload: { member: 'orders.count', value: 3 } });
    expect(events.at(-1)).toMatchObject({
      type: 'service:event:drilldown',
      surface: 'dashboard',
      payload: { member: 'orders.count', value: 3 },
    });
  });

  it('events: [] never says ready: the ready timeout, then retry gives a new load with a new session', async () => {
    const fake = fakeEmbed({ events: [] });
    const errors: unknown[] = [];
    let sessions = 0;
    const { container } = render(
      <ServiceProvider tenantUrl={fake.tenantUrl} getEmbedSession={async () => `session-${(sessions += 1)}`}>
        <EmbeddedDashboard publicId="x" readyTimeoutMs={400} onError={(error) => errors.push(error)} />
      </ServiceProvider>,
    );
    const root = () => container.querySelector<HTMLElement>('[data-service-embed]')!;
    await waitFor(() => expect(root().dataset['state']).toBe('error'));
    expect((errors[0] as { code?: string }).code).toBe('ready_timeout');
    act(() => container.querySelector<HTMLButtonElement>('[data-part="retry"]')!.click());
    await fake.loaded(2);
    expect(fake.loads.map((load) => new URL(load.url).searchParams.get('session'))).toEqual(['session-1', 'session-2']);
    // This page says ready when the test decides.
    await fake.emit({
      type: 'service:event:ready',
      payload: { embedTenant: null, deploymentId: null, mode: 'signed', surface: 'dashboard' },
    });
    await waitFor(() => expect(root().dataset['state']).toBe('ready'));
  });
});

describe('createFakeEmbed with createEmbedChannel', () => {
  it('its messages pass every check of the channel; a forged one is rejected with the reason', async () => {
    const iframe = document.createElement('iframe');
    document.body.append(iframe);
    const fake = fakeEmbed({
      iframe,
      events: [
        {
          type: 'service:event:ready',
          payload: { embedTenant: 't1', deploymentId: 4, mode: 'signed', surface: 'app' },
        },
      ],
    });
    const events: AnyEmbedEvent[] = [];
    const rejections: EmbedRejection[] = [];
    const channel = createEmbedChannel({
      iframe,
      tenantUrl: fake.tenantUrl,
      onEvent: (event) => events.push(event),
      onRejected: (rejection) => rejections.push(rejection),
    });
    channel.send({ type: 'service:action:refresh' });
    iframe.src = `${fake.tenantUrl}/embed/d/4/app?session=s`;
    await expect(fake.waitForAction('service:action:refresh')).resolves.toMatchObject({ payload: {} });
    expect(fake.loads[0]).toMatchObject({ surface: 'app', deploymentId: 4 });
    expect(events).toEqual([expect.objectContaining({ type: 'service:event:ready', surface: 'app' })]);
    await fake.emitRaw({
      source: 'service-embed',
      direction: 'action',
      type: 'service:action:refresh',
      payload: {},
      timestamp: 1,
    });
    expect(events).toHaveLength(1);
    expect(rejections).toHaveLength(1);
    channel.dispose();
    iframe.remove();
  });
});

describe('createFakeEmbed limits', () => {
  it('loaded, emit and waitForAction reject after timeoutMs when nothing happens', async () => {
    const within = document.createElement('div');
    document.body.append(within);
    const fake = fakeEmbed({ within, timeoutMs: 150 });
    await expect(fake.loaded()).rejects.toThrow(/load 1 did not happen within 150 ms/);
    await expect(fake.emit({ type: 'service:event:navigate', payload: { path: '/x' } })).rejects.toThrow(
      /within 150 ms/,
    );
    await expect(fake.waitForAction('service:action:refresh', { timeoutMs: 50 })).rejects.toThrow(/within 50 ms/);
    // An iframe outside `within` is not played.
    const outside = document.createElement('iframe');
    document.body.append(outside);
    outside.src = `${fake.tenantUrl}/embed/chat?sessionId=s`;
    await expect(fake.loaded()).rejects.toThrow(/did not happen/);
    expect(fake.loads).toEqual([]);
    outside.remove();
    within.remove();
  });
});

describe('createReplayFetch with AgentChat', () => {
  it('renders the recorded answer, dedupes the question across a dropped connection', async () => {
    const replay = createReplayFetch({
      transcript: TRANSCRIPTS['top-customers'],
      chunking: 7,
      faults: { dropAfterLines: 10 },
    });
    const { container } = render(
      <div style={{ height: 600, display: 'flex', flexDirection: 'column' }}>
        <ServiceProvider chat={{ url: '/api/service', fetch: replay.fetch }}>
          <AgentChat />
        </ServiceProvider>
      </div>,
    );
    await userEvent.click(container.querySelector<HTMLTextAreaElement>('textarea')!);
    await userEvent.keyboard('Who are our top 10 customers?');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(container.querySelector('[data-part="final-answer"]')).not.toBeNull(), {
      timeout: 10_000,
    });
    expect(replay.streams).toHaveLength(2);
    expect(replay.streams[1]!['messageId']).toBe(replay.streams[0]!['messageId']);
    expect(container.querySelectorAll('[data-role="user"]')).toHaveLength(1);
    // The query's step is a collapsed one-liner with its result in view; its SQL shows once opened.
    const step = container.querySelector('[data-part="tool-call"][data-tool="serviceSqlApi"]')!;
    expect(step.querySelector('[data-part="chart"], table')).not.toBeNull();
    await userEvent.click(step.querySelector('button[aria-expanded]')!);
    expect(container.querySelector('[data-part="sql"]')).not.toBeNull();
  });
});
