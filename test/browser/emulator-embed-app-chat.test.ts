/**
 * The emulator's creator-mode app and standalone chat embeds in real Chromium, across real
 * origins (see emulator-embed.test.ts for the setup). The chat questions really go to the
 * emulator's scripted agent through the Chat API, at instant pace.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { STATE_EVENT_TYPE } from '../../src/emulator/embed/config';
import { expectEnvelopes, openEmbed, typesOf, type OpenEmbed } from './emulator-embed-helpers';

async function ready(embed: OpenEmbed): Promise<OpenEmbed> {
  await embed.next('service:event:view');
  await embed.state((state) => state.reason === 'mount');
  return embed;
}

async function ask(embed: OpenEmbed, question: string): Promise<void> {
  await embed.frame.getByLabelText('Your question').fill(question);
  await embed.frame.getByRole('button', { name: 'Send' }).click();
}

describe('the creator-mode app (surface app)', () => {
  it('6.2, behaviour 2: ready then view; no dashboard-loaded on the app', async () => {
    const embed = await ready(await openEmbed({ surface: 'app', deploymentId: 1 }));
    expect(typesOf(embed)).toEqual(['service:event:ready', 'service:event:view']);
    const [readyEvent, view] = embed.known();
    expect(readyEvent!.payload).toEqual({ embedTenant: 'acme', deploymentId: 1, mode: 'signed', surface: 'app' });
    expect(view!.payload).toEqual({ surface: 'app', path: '/', title: 'Analytics' });
    expect(embed.latest()?.heading).toBe('Analytics');
    expectEnvelopes(embed, 'app');
  });

  it('behaviour 2: the embed tenant of a creator-mode session is reported by ready', async () => {
    const embed = await ready(
      await openEmbed(
        { surface: 'app', deploymentId: 1 },
        { session: { externalId: 'dana@globex.test', embedTenantName: 'globex-corp', creatorMode: true } },
      ),
    );
    expect(embed.known()[0]!.payload).toMatchObject({ embedTenant: 'globex-corp', surface: 'app' });
  });

  it('6.2 in-app navigation by the viewer posts navigate and view, and the dashboard renders real data', async () => {
    const embed = await ready(await openEmbed({ surface: 'app', deploymentId: 1 }));
    const mark = embed.events.length;
    await embed.frame.getByRole('button', { name: 'Order operations' }).click();
    const navigate = await embed.next('service:event:navigate', undefined, mark);
    expect(navigate.payload).toEqual({ path: '/workbooks/orders-ops', previousPath: '/' });
    const view = await embed.next('service:event:view', undefined, mark);
    expect(view.payload).toEqual({
      surface: 'app',
      path: '/workbooks/orders-ops',
      publicId: 'orders-ops',
      title: 'Order operations',
    });
    const rendered = await embed.state(
      (state) =>
        state.reason === 'render' &&
        state.widgets.some((widget) => widget.id === 'open-orders' && widget.status === 'ready'),
    );
    expect(rendered.widgets.find((widget) => widget.id === 'orders-per-day')?.rowCount).toBe(90);
    expect(rendered.widgets.find((widget) => widget.id === 'open-orders')?.rowCount).toBe(50);
    expect(typesOf(embed)).not.toContain('service:event:dashboard-loaded');
  });

  it('the app leaves out dashboards not allowed for embedding', async () => {
    const embed = await ready(await openEmbed({ surface: 'app', deploymentId: 1 }));
    const mark = embed.events.length;
    embed.channel.send({ type: 'service:action:navigate', payload: { path: '/workbooks/internal-finance' } });
    expect((await embed.next('service:event:error', undefined, mark)).payload).toMatchObject({
      context: 'navigate',
      fatal: false,
    });
    expect(embed.latest()?.buttons).not.toContain('Internal finance');
    expect(embed.latest()?.buttons).toEqual(
      expect.arrayContaining(['Sales overview', 'Order operations', 'Q4 review']),
    );
  });

  it('6.3 navigate and set-filter inside the app; the app honours f_ filters of its URL', async () => {
    const embed = await ready(
      await openEmbed({ surface: 'app', deploymentId: 1, filters: { 'orders.region': 'LATAM' } }),
    );
    embed.channel.send({ type: 'service:action:navigate', payload: { path: '/workbooks/sales-overview' } });
    const navigate = await embed.next('service:event:navigate');
    expect(navigate.payload).toEqual({ path: '/workbooks/sales-overview', previousPath: '/' });
    const rendered = await embed.state(
      (state) => state.path === '/workbooks/sales-overview' && state.reason === 'render',
    );
    expect(rendered.widgets.find((widget) => widget.id === 'revenue-by-region')?.rowCount).toBe(1);
  });

  it('6.2 ai-query in the app: submitted, then completed, with chatId and agentId, surface app', async () => {
    const embed = await ready(await openEmbed({ surface: 'app', deploymentId: 1 }));
    await embed.frame.getByRole('button', { name: 'Ask AI' }).click();
    await embed.next('service:event:view', (event) => event.payload.path === '/chat');
    await ask(embed, 'Show orders by status');
    const submitted = await embed.next('service:event:ai-query', (event) => event.payload.status === 'submitted');
    expect(submitted.surface).toBe('app');
    expect(submitted.payload).toEqual({ query: 'Show orders by status', status: 'submitted', agentId: '1' });
    const completed = await embed.next('service:event:ai-query', (event) => event.payload.status !== 'submitted');
    expect(completed.payload).toEqual({
      query: 'Show orders by status',
      status: 'completed',
      agentId: '1',
      chatId: expect.any(String),
    });
    const state = await embed.state(
      (candidate) =>
        candidate.chatMessages.some((message) => message.startsWith('assistant:')) && candidate.reason === 'chat',
    );
    expect(state.chatMessages[0]).toBe('user: Show orders by status');
    expect(state.chatMessages.join('\n')).toMatch(/completed/i);
  });

  it('6.2 ai-query error: deployment 2 has no agent, and the viewer is told', async () => {
    const embed = await ready(await openEmbed({ surface: 'app', deploymentId: 2 }, { session: { deploymentId: 2 } }));
    embed.channel.send({ type: 'service:action:navigate', payload: { path: '/chat' } });
    await embed.next('service:event:view', (event) => event.payload.path === '/chat');
    await ask(embed, 'Revenue by month');
    const result = await embed.next('service:event:ai-query', (event) => event.payload.status !== 'submitted');
    expect(result.payload).toEqual({ query: 'Revenue by month', status: 'error' });
    expect(
      embed
        .known()
        .filter((event) => event.type === 'service:event:ai-query')
        .map((event) => (event.payload as { status: string }).status),
    ).toEqual(['submitted', 'error']);
  });

  it('the app has no accessibility violations', async () => {
    const embed = await ready(await openEmbed({ surface: 'app', deploymentId: 1 }));
    expect(await commands.auditFrameAccessibility(embed.sessionId)).toEqual([]);
  });
});

describe('the standalone chat (surface chat)', () => {
  it('6.2, behaviour 2: ready then view, at /embed/chat?sessionId= and at /embed/d/1/chat', async () => {
    const embed = await ready(await openEmbed({ surface: 'chat' }));
    expect(typesOf(embed)).toEqual(['service:event:ready', 'service:event:view']);
    expect(embed.known()[0]!.payload).toEqual({
      embedTenant: 'acme',
      deploymentId: 1,
      mode: 'signed',
      surface: 'chat',
    });
    expect(embed.known()[1]!.payload).toEqual({ surface: 'chat', path: '/', title: 'AI analyst' });
    expect(embed.url).toContain('/embed/chat?sessionId=');
    const newer = await ready(
      await openEmbed({ surface: 'chat' }, { url: (base, id) => `${base}/embed/d/1/chat?session=${id}` }),
    );
    expect(typesOf(newer)).toEqual(['service:event:ready', 'service:event:view']);
  });

  it('6.2 ai-query on the chat surface, the thread in the history, and navigate to it', async () => {
    const embed = await ready(await openEmbed({ surface: 'chat' }));
    await ask(embed, 'Who are our top customers?');
    const submitted = await embed.next('service:event:ai-query', (event) => event.payload.status === 'submitted');
    expect(submitted).toMatchObject({
      surface: 'chat',
      payload: { query: 'Who are our top customers?', agentId: '1' },
    });
    const completed = await embed.next('service:event:ai-query', (event) => event.payload.status === 'completed');
    const chatId = completed.payload.chatId!;
    expect(chatId).toEqual(expect.any(String));
    const withHistory = await embed.state((state) => state.buttons.includes('Who are our top customers?'));
    expect(withHistory.visible).toMatchObject({ chatHistory: true, newChat: true, chatInput: true });

    // A new chat, then back to the thread through the navigate action.
    await embed.frame.getByRole('button', { name: 'New chat' }).click();
    const fresh = await embed.state((state) => state.reason === 'navigate' && state.path === '/');
    expect(fresh.chatMessages).toEqual([]);
    const mark = embed.events.length;
    embed.channel.send({ type: 'service:action:navigate', payload: { path: `/chats/${chatId}` } });
    expect((await embed.next('service:event:navigate', undefined, mark)).payload).toEqual({
      path: `/chats/${chatId}`,
      previousPath: '/',
    });
    expect((await embed.next('service:event:view', undefined, mark)).payload).toEqual({
      surface: 'chat',
      path: `/chats/${chatId}`,
      title: 'Who are our top customers?',
    });
    const thread = await embed.state((state) => state.reason === 'service:action:navigate', mark);
    expect(thread.chatMessages[0]).toBe('user: Who are our top customers?');
    expect(thread.chatMessages.length).toBeGreaterThan(1);
  });

  it('a follow-up question continues the same thread (same chatId)', async () => {
    const embed = await ready(await openEmbed({ surface: 'chat' }));
    await ask(embed, 'Revenue by region');
    const first = await embed.next('service:event:ai-query', (event) => event.payload.status === 'completed');
    const mark = embed.events.length;
    await ask(embed, 'And revenue by month in 2025?');
    const submitted = await embed.next('service:event:ai-query', (event) => event.payload.status === 'submitted', mark);
    expect(submitted.payload.chatId).toBe(first.payload.chatId);
    const second = await embed.next('service:event:ai-query', (event) => event.payload.status === 'completed', mark);
    expect(second.payload.chatId).toBe(first.payload.chatId);
  });

  it('behaviour 2: showNewChat=false, showChatInput=false and showChatHistory=false hide their parts', async () => {
    const embed = await ready(
      await openEmbed({
        surface: 'chat',
        switches: { showNewChat: false, showChatInput: false, showChatHistory: false },
      }),
    );
    expect(embed.latest()?.visible).toMatchObject({ newChat: false, chatInput: false, chatHistory: false });
    expect(embed.latest()?.buttons).not.toContain('Send');
    const one = await ready(await openEmbed({ surface: 'chat', switches: { showChatHistory: false } }));
    expect(one.latest()?.visible).toMatchObject({ newChat: true, chatInput: true, chatHistory: false });
  });

  it('6.3 set-locale, set-theme and set-color-scheme on the chat surface', async () => {
    const embed = await ready(
      await openEmbed(
        { surface: 'chat' },
        { session: { embedTheme: { analyticsChat: { backgroundColor: '#fafae0' } } } },
      ),
    );
    embed.channel.send({ type: 'service:action:set-locale', payload: { locale: 'de-CH' } });
    const german = await embed.state((state) => state.reason === 'service:action:set-locale');
    expect(german).toMatchObject({ locale: 'de-DE', heading: 'KI-Analyst' });
    expect(german.buttons).toEqual(expect.arrayContaining(['Neuer Chat', 'Senden']));
    embed.channel.send({ type: 'service:action:set-color-scheme', payload: { scheme: 'dark' } });
    expect(await embed.state((state) => state.reason === 'service:action:set-color-scheme')).toMatchObject({
      appliedScheme: 'dark',
    });
    embed.channel.send({ type: 'service:action:set-theme', payload: { primaryColor: 'rgb(0, 128, 128)' } });
    expect((await embed.state((state) => state.reason === 'service:action:set-theme')).computed.primary).toBe(
      'rgb(0, 128, 128)',
    );
  });

  it('the chat, with a conversation, has no accessibility violations', async () => {
    const embed = await ready(await openEmbed({ surface: 'chat' }));
    await ask(embed, 'Orders by status');
    await embed.next('service:event:ai-query', (event) => event.payload.status === 'completed');
    expect(await commands.auditFrameAccessibility(embed.sessionId)).toEqual([]);
  });

  it('the debug state is an event type the channel does not know, delivered rather than dropped; off by default', async () => {
    const embed = await ready(await openEmbed({ surface: 'chat' }));
    expect(embed.events.some((event) => event.type === STATE_EVENT_TYPE)).toBe(true);
    expect(embed.rejections).toEqual([]);
    // Without the parameter: only events of the interface. On a dashboard the last state would
    // come before dashboard-loaded, so its absence is certain once that has arrived.
    const quiet = await openEmbed({ surface: 'dashboard', publicId: 'orders-ops' }, { echo: false });
    await quiet.next('service:event:dashboard-loaded');
    expect(quiet.events.map((event) => event.type)).toEqual([
      'service:event:ready',
      'service:event:view',
      'service:event:dashboard-loaded',
    ]);
  });
});
