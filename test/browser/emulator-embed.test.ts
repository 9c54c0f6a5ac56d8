/**
 * The emulator's published-dashboard embed in real Chromium, across real origins: the test page
 * is on `http://localhost:<port>`, the emulator (test/browser/global-setup.ts) on
 * `http://127.0.0.1:<port>`. Sessions are minted over the emulator's HTTP API by a server-side
 * command; the iframe is driven through the library's own `createEmbedChannel` and
 * `buildEmbedUrl`. Visual effects are read back through the page's debug state event
 * (`__emulatorEcho=1`, an event type the channel passes through as unknown).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { buildFilterUrlParameter } from '../../src/core/embed-url';
import { EMBED_SESSION_TTL_MS } from '../../src/emulator/state';
import { STATE_EVENT_TYPE } from '../../src/emulator/embed/config';
import { expectEnvelopes, openEmbed, typesOf, type OpenEmbed } from './emulator-embed-helpers';

/** Opens sales-overview and waits until every widget has rendered. */
async function loaded(
  options: Parameters<typeof openEmbed>[0] = { surface: 'dashboard', publicId: 'sales-overview' },
  more: Parameters<typeof openEmbed>[1] = {},
): Promise<OpenEmbed> {
  const embed = await openEmbed(options, more);
  await embed.next('service:event:dashboard-loaded');
  return embed;
}

const widget = (embed: OpenEmbed, id: string) => embed.latest()?.widgets.find((candidate) => candidate.id === id);

describe('load order and payloads (6.2; behaviour 2)', () => {
  it('6.2, behaviour 2: ready, then view, then dashboard-loaded once every widget has rendered', async () => {
    const embed = await loaded();
    expect(typesOf(embed)).toEqual(['service:event:ready', 'service:event:view', 'service:event:dashboard-loaded']);
    const [ready, view, dashboardLoaded] = embed.known();
    expect(ready!.payload).toEqual({
      embedTenant: 'acme',
      deploymentId: 1,
      mode: 'signed',
      surface: 'dashboard',
      publicId: 'sales-overview',
    });
    expect(view!.payload).toEqual({
      surface: 'dashboard',
      path: '/dashboard/sales-overview',
      publicId: 'sales-overview',
      title: 'Sales overview',
    });
    expect(dashboardLoaded!.payload).toMatchObject({ publicId: 'sales-overview', widgetCount: 6 });
    expect((dashboardLoaded!.payload as { loadDurationMs: number }).loadDurationMs).toBeGreaterThanOrEqual(0);
    // `ready` came before any data: the first state after mount still had widgets loading.
    const mount = embed.events.find((event) => event.type === STATE_EVENT_TYPE)!.payload as {
      widgets: { status: string }[];
    };
    expect(mount.widgets.some((item) => item.status === 'loading')).toBe(true);
    // By dashboard-loaded every widget had rendered, with real rows.
    const index = embed.events.indexOf(dashboardLoaded!);
    const before = embed.events
      .slice(0, index)
      .filter((event) => event.type === STATE_EVENT_TYPE)
      .pop()!.payload as { widgets: { id: string; status: string; rowCount?: number }[] };
    expect(before.widgets.every((item) => item.status === 'ready')).toBe(true);
    expect(before.widgets.find((item) => item.id === 'revenue-by-month')?.rowCount).toBe(24);
    expect(before.widgets.find((item) => item.id === 'orders-by-status')?.rowCount).toBe(5);
    expectEnvelopes(embed, 'dashboard');
  });

  it('behaviour 2: the newer /embed/d/{deploymentId}/dashboard/{publicId} form, with sessionId', async () => {
    const embed = await loaded(
      { surface: 'dashboard', publicId: 'orders-ops' },
      { url: (base, id) => `${base}/embed/d/1/dashboard/orders-ops?sessionId=${id}` },
    );
    expect(typesOf(embed)).toEqual(['service:event:ready', 'service:event:view', 'service:event:dashboard-loaded']);
    expect(embed.known()[2]!.payload).toMatchObject({ publicId: 'orders-ops', widgetCount: 3 });
  });

  it('6.2 error: a widget whose query fails shows its error and posts a non-fatal error; the dashboard still loads', async () => {
    const embed = await loaded({
      surface: 'dashboard',
      publicId: 'orders-ops',
      filters: { 'orders.no_such_member': 'x' },
    });
    const errors = embed.known().filter((event) => event.type === 'service:event:error');
    expect(errors).toHaveLength(2);
    for (const error of errors) {
      expect(error.payload).toMatchObject({
        message: expect.stringMatching(/^Failed to load data: /),
        context: 'embed-render',
        fatal: false,
      });
    }
    expect(typesOf(embed).slice(0, 2)).toEqual(['service:event:ready', 'service:event:view']);
    expect(typesOf(embed).at(-1)).toBe('service:event:dashboard-loaded');
    expect(
      embed
        .latest()
        ?.widgets.filter((item) => item.status === 'error')
        .map((item) => item.id),
    ).toEqual(['orders-per-day', 'open-orders']);
  });

  it('row-level security of the session applies to every widget', async () => {
    const embed = await loaded(undefined, {
      session: { externalId: 'emea-viewer@partner.test', userAttributes: [{ name: 'region', value: 'EMEA' }] },
    });
    expect(widget(embed, 'revenue-by-region')?.rowCount).toBe(1);
  });
});

describe('sessions that cannot mount (5 rule 8; behaviour 2)', () => {
  async function failed(embed: OpenEmbed): Promise<{ message: string; context?: string; fatal?: boolean }> {
    const error = await embed.next('service:event:error');
    const state = await embed.state((candidate) => candidate.reason === 'mount');
    expect(state.heading).toBe('This content cannot be shown');
    expect(typesOf(embed)).toEqual(['service:event:error']);
    return error.payload;
  }

  it('5 rule 8, behaviour 2: a reused session shows an error and posts a fatal error, never ready', async () => {
    const first = await openEmbed({ surface: 'dashboard', publicId: 'sales-overview' });
    await first.next('service:event:ready');
    const second = await openEmbed(
      { surface: 'dashboard', publicId: 'sales-overview' },
      { sessionId: first.sessionId },
    );
    expect(await failed(second)).toEqual({
      message: 'This session has already been used. Every page load needs a new session.',
      name: 'EmbedSessionError',
      context: 'embed-auth',
      fatal: true,
    });
  });

  it('behaviour 2: a session older than 5 minutes has expired', async () => {
    const embed = await openEmbed(
      { surface: 'dashboard', publicId: 'sales-overview' },
      { ageMs: EMBED_SESSION_TTL_MS + 1000 },
    );
    expect(await failed(embed)).toMatchObject({ message: expect.stringMatching(/expired/), fatal: true });
  });

  it('an unknown session, and a dashboard not allowed for embedding (internal-finance)', async () => {
    const unknown = await openEmbed(
      { surface: 'dashboard', publicId: 'sales-overview' },
      { sessionId: 'ffffffffffffffffffffffffffffffff' },
    );
    expect(await failed(unknown)).toMatchObject({ message: 'This session is not valid.', fatal: true });
    const finance = await openEmbed({ surface: 'dashboard', publicId: 'internal-finance' });
    expect(await failed(finance)).toMatchObject({
      message: 'Dashboard "internal-finance" is not enabled for embedding.',
      context: 'embed-load',
      fatal: true,
    });
  });

  it('the error is shown in the locale of the URL', async () => {
    const embed = await openEmbed({ surface: 'dashboard', publicId: 'internal-finance', locale: 'de-DE' });
    await embed.next('service:event:error');
    const state = await embed.state((candidate) => candidate.reason === 'mount');
    expect(state.heading).toBe('Dieser Inhalt kann nicht angezeigt werden');
    expect(state.lang).toBe('de-DE');
  });
});

describe('actions have visible effects (6.3; behaviour 2)', () => {
  afterEach(async () => {
    await commands.emulateColorScheme('light');
  });

  it('6.3 set-color-scheme: dark, light, and auto following the operating system', async () => {
    const embed = await loaded();
    expect(embed.latest()).toMatchObject({ appliedScheme: 'light', computed: { background: 'rgb(255, 255, 255)' } });
    embed.channel.send({ type: 'service:action:set-color-scheme', payload: { scheme: 'dark' } });
    expect(await embed.state((state) => state.reason === 'service:action:set-color-scheme')).toMatchObject({
      colorScheme: 'dark',
      appliedScheme: 'dark',
      computed: { background: 'rgb(20, 22, 26)', text: 'rgb(238, 240, 243)' },
    });
    await commands.emulateColorScheme('dark');
    const mark = embed.events.length;
    embed.channel.send({ type: 'service:action:set-color-scheme', payload: { scheme: 'auto' } });
    expect(await embed.state((state) => state.reason === 'service:action:set-color-scheme', mark)).toMatchObject({
      colorScheme: 'auto',
      appliedScheme: 'dark',
    });
    await commands.emulateColorScheme('light');
    expect(
      await embed.state((state) => state.reason === 'system-color-scheme' && state.appliedScheme === 'light', mark),
    ).toMatchObject({
      colorScheme: 'auto',
      appliedScheme: 'light',
      computed: { background: 'rgb(255, 255, 255)' },
    });
  });

  it('6.3 set-theme: primaryColor, borderRadius and font through CSS variables, over the session theme', async () => {
    const embed = await loaded(undefined, {
      session: { embedTheme: { primaryColor: '#006400', font: 'Georgia, serif' } },
    });
    expect(embed.latest()?.computed).toMatchObject({ primary: 'rgb(0, 100, 0)', fontFamily: 'Georgia, serif' });
    embed.channel.send({ type: 'service:action:set-theme', payload: { primaryColor: '#aa3300', borderRadius: 12 } });
    expect((await embed.state((state) => state.reason === 'service:action:set-theme')).computed).toMatchObject({
      primary: 'rgb(170, 51, 0)',
      borderRadius: '12px',
      // Fields the action leaves out keep their value.
      fontFamily: 'Georgia, serif',
    });
    const mark = embed.events.length;
    embed.channel.send({
      type: 'service:action:set-theme',
      payload: { primaryColor: 'not a color', font: '"Courier New", monospace', borderRadius: '2px' },
    });
    expect((await embed.state((state) => state.reason === 'service:action:set-theme', mark)).computed).toMatchObject({
      // A value the browser refuses is ignored.
      primary: 'rgb(170, 51, 0)',
      borderRadius: '2px',
      fontFamily: '"Courier New", monospace',
    });
  });

  it('6.3 set-locale, behaviour 2: de-DE words and numbers; short codes and unshipped variants resolve', async () => {
    const embed = await loaded();
    embed.channel.send({ type: 'service:action:set-locale', payload: { locale: 'de' } });
    const german = await embed.state((state) => state.reason === 'service:action:set-locale');
    expect(german).toMatchObject({ locale: 'de-DE', lang: 'de-DE' });
    expect(german.buttons).toContain('Aktualisieren');
    // Widget titles are the dashboard's content: never translated.
    expect(german.buttons).toContain('Details: Revenue by month');
    expect(german.refreshedText).toMatch(/^Zuletzt aktualisiert /);
    const mark = embed.events.length;
    embed.channel.send({ type: 'service:action:set-locale', payload: { locale: 'es-AR' } });
    const spanish = await embed.state((state) => state.reason === 'service:action:set-locale', mark);
    expect(spanish).toMatchObject({ locale: 'es-ES', lang: 'es-ES' });
    // es-ES has no translation in the emulator: English words.
    expect(spanish.buttons).toContain('Refresh');
  });

  it('behaviour 2: the locale URL parameter', async () => {
    const embed = await loaded({ surface: 'dashboard', publicId: 'sales-overview', locale: 'de-DE' });
    expect(embed.latest()).toMatchObject({ locale: 'de-DE', lang: 'de-DE' });
    expect(embed.latest()?.buttons).toContain('Aktualisieren');
  });

  it('6.3 set-filter: pushes filters in and the widgets query again; null clears', async () => {
    const embed = await loaded();
    const runs = embed.latest()!.queryRuns;
    embed.channel.send({
      type: 'service:action:set-filter',
      payload: {
        filterUrlParameter: buildFilterUrlParameter({ 'orders.status': { value: ['completed', 'shipped'] } }),
      },
    });
    const filtered = await embed.state(
      (state) => state.reason === 'render' && state.filters['orders.status'] !== undefined,
    );
    expect(filtered.filters).toEqual({ 'orders.status': { value: ['completed', 'shipped'] } });
    expect(filtered.widgets.find((item) => item.id === 'orders-by-status')?.rowCount).toBe(2);
    expect(filtered.queryRuns).toBe(runs + 4);
    const mark = embed.events.length;
    embed.channel.send({
      type: 'service:action:set-filter',
      payload: { filterUrlParameter: `f_orders.status=${encodeURIComponent('{"value":null}')}` },
    });
    const cleared = await embed.state((state) => state.reason === 'render', mark);
    expect(cleared.filters).toEqual({});
    expect(cleared.widgets.find((item) => item.id === 'orders-by-status')?.rowCount).toBe(5);
  });

  it('behaviour 2: f_ filters of the URL, with the default equals and with an operator', async () => {
    const equals = await loaded({
      surface: 'dashboard',
      publicId: 'sales-overview',
      filters: { 'orders.status': 'completed' },
    });
    expect(widget(equals, 'orders-by-status')?.rowCount).toBe(1);
    const notEquals = await loaded({
      surface: 'dashboard',
      publicId: 'sales-overview',
      filters: { 'orders.status': { operator: 'notEquals', value: 'cancelled' } },
    });
    expect(widget(notEquals, 'orders-by-status')?.rowCount).toBe(4);
    expect(notEquals.latest()?.filters).toEqual({ 'orders.status': { operator: 'notEquals', value: 'cancelled' } });
  });

  it('behaviour 2: tg_ time grains of the URL', async () => {
    const embed = await loaded({
      surface: 'dashboard',
      publicId: 'sales-overview',
      timeGrains: { 'orders.created_at': 'quarter' },
    });
    expect(widget(embed, 'revenue-by-month')?.rowCount).toBe(8);
  });

  it('6.3 navigate: goes to an in-embed path and answers with navigate and view; an unknown path is an error', async () => {
    const embed = await loaded();
    const mark = embed.events.length;
    embed.channel.send({
      type: 'service:action:navigate',
      payload: { path: '/dashboard/sales-overview/widgets/orders-by-status' },
    });
    const navigate = await embed.next('service:event:navigate', undefined, mark);
    expect(navigate.payload).toEqual({
      path: '/dashboard/sales-overview/widgets/orders-by-status',
      previousPath: '/dashboard/sales-overview',
    });
    const view = await embed.next('service:event:view', undefined, mark);
    expect(view.payload).toEqual({
      surface: 'dashboard',
      path: '/dashboard/sales-overview/widgets/orders-by-status',
      publicId: 'sales-overview',
      title: 'Sales overview · Orders by status',
    });
    expect(
      embed
        .known()
        .slice(-2)
        .map((event) => event.type),
    ).toEqual(['service:event:navigate', 'service:event:view']);
    const detail = await embed.state((state) => state.reason === 'service:action:navigate');
    expect(detail).toMatchObject({
      path: '/dashboard/sales-overview/widgets/orders-by-status',
      heading: 'Orders by status',
    });

    const before = embed.events.length;
    embed.channel.send({ type: 'service:action:navigate', payload: { path: '/nowhere' } });
    expect((await embed.next('service:event:error', undefined, before)).payload).toEqual({
      message: 'There is no page at "/nowhere".',
      context: 'navigate',
      fatal: false,
    });
    expect((await embed.state(() => true, before)).path).toBe('/dashboard/sales-overview/widgets/orders-by-status');
  });

  it('6.3 refresh: re-runs every query and updates the last refresh', async () => {
    const embed = await loaded();
    const { queryRuns } = embed.latest()!;
    embed.channel.send({ type: 'service:action:refresh' });
    const refreshed = await embed.state((state) => state.reason === 'render' && state.refreshCount === 1);
    expect(refreshed.queryRuns).toBe(queryRuns + 4);
    expect(refreshed.widgets.every((item) => item.status === 'ready')).toBe(true);
    expect(refreshed.refreshedText).toMatch(/^Last refreshed /);
    expect(typesOf(embed).filter((type) => type === 'service:event:dashboard-loaded')).toHaveLength(1);
  });

  it('behaviour 2 set-timezone: dates and queries move to the new zone', async () => {
    const embed = await loaded({ surface: 'dashboard', publicId: 'sales-overview' });
    expect(embed.latest()?.timezoneText).toBe('Time zone: UTC');
    embed.channel.send({ type: 'service:action:set-timezone', payload: { timezone: 'Pacific/Kiritimati' } });
    const moved = await embed.state((state) => state.reason === 'render' && state.timezone === 'Pacific/Kiritimati');
    expect(moved.timezoneText).toBe('Time zone: Pacific/Kiritimati');
    // UTC+14: the last evening of 2025 falls into January 2026 there, a 25th month.
    expect(moved.widgets.find((item) => item.id === 'revenue-by-month')?.rowCount).toBe(25);
  });

  it('behaviour 2: the timezone URL parameter', async () => {
    const embed = await loaded({ surface: 'dashboard', publicId: 'sales-overview', timezone: 'Asia/Tokyo' });
    expect(embed.latest()).toMatchObject({ timezone: 'Asia/Tokyo', timezoneText: 'Time zone: Asia/Tokyo' });
  });

  it('6.1: actions with a bad envelope and actions of unknown types are ignored', async () => {
    const embed = await loaded();
    const emulatorOrigin = new URL(embed.url).origin;
    const mark = embed.events.length;
    const base = { source: 'service-embed', timestamp: Date.now(), payload: { scheme: 'dark' } };
    for (const message of [
      { ...base, direction: 'event', type: 'service:action:set-color-scheme' },
      { ...base, source: 'other', direction: 'action', type: 'service:action:set-color-scheme' },
      { ...base, direction: 'action', type: 'service:action:set-color-scheme', surface: 'dashboard' },
      { ...base, direction: 'action', type: 'service:action:set-color-scheme', payload: { scheme: 'purple' } },
      { ...base, direction: 'action', type: 'service:action:x-from-the-future', payload: {} },
    ]) {
      embed.iframe.contentWindow!.postMessage(message, emulatorOrigin);
    }
    embed.channel.send({ type: 'service:action:set-locale', payload: { locale: 'de-DE' } });
    const state = await embed.state((candidate) => candidate.reason === 'service:action:set-locale', mark);
    expect(state.appliedScheme).toBe('light');
    const reasons = embed.events
      .slice(mark)
      .filter((event) => event.type === STATE_EVENT_TYPE)
      .map((event) => (event.payload as { reason: string }).reason);
    expect(reasons).toEqual(['service:action:set-locale']);
  });
});

describe('viewer interactions (6.2)', () => {
  it('6.2 download: only with allowExport=true, a widget CSV posts download without the rows', async () => {
    const without = await loaded();
    expect(without.latest()?.widgets.some((item) => item.exportable)).toBe(false);
    expect(without.latest()?.buttons.some((label) => label.startsWith('Download CSV'))).toBe(false);
    expect(without.latest()?.visible.exportMenu).toBe(false);

    const embed = await loaded({ surface: 'dashboard', publicId: 'sales-overview', allowExport: true });
    expect(widget(embed, 'orders-by-status')?.exportable).toBe(true);
    await embed.frame.getByRole('button', { name: 'Download CSV: Orders by status' }).click();
    const download = await embed.next('service:event:download');
    expect(download.payload).toEqual({
      format: 'csv',
      target: 'widget',
      widgetId: 'orders-by-status',
      title: 'Orders by status',
      rowCount: 5,
    });
  });

  it('6.2 download: the dashboard export menu exports every widget; showDashboardExportMenu=false hides it', async () => {
    const embed = await loaded({ surface: 'dashboard', publicId: 'sales-overview', allowExport: true });
    expect(embed.latest()?.visible.exportMenu).toBe(true);
    await embed.frame.getByText('Export', { exact: true }).click();
    await embed.frame.getByRole('button', { name: 'Download all data (CSV)' }).click();
    const download = await embed.next('service:event:download');
    expect(download.payload).toEqual({
      format: 'csv',
      target: 'dashboard',
      title: 'Sales overview',
      rowCount: 1 + 24 + 5 + 4,
    });

    const hidden = await loaded({
      surface: 'dashboard',
      publicId: 'sales-overview',
      allowExport: true,
      switches: { showDashboardExportMenu: false },
    });
    expect(hidden.latest()?.visible).toMatchObject({ exportMenu: false, header: true });
  });

  it("6.2 drilldown: a click on a bar posts the measure, the bar's value and the widget", async () => {
    const embed = await loaded();
    await embed.frame.getByRole('button', { name: /^completed: [\d,]+ Count$/ }).click();
    const drilldown = await embed.next('service:event:drilldown');
    expect(drilldown.payload).toEqual({ member: 'orders.count', value: 'completed', widgetId: 'orders-by-status' });
  });

  it('in-dashboard navigation by the viewer posts navigate and view', async () => {
    const embed = await loaded();
    const mark = embed.events.length;
    await embed.frame.getByRole('button', { name: 'Details: Revenue by month' }).click();
    const navigate = await embed.next('service:event:navigate', undefined, mark);
    expect(navigate.payload).toEqual({
      path: '/dashboard/sales-overview/widgets/revenue-by-month',
      previousPath: '/dashboard/sales-overview',
    });
    await embed.next(
      'service:event:view',
      (event) => event.payload.path === '/dashboard/sales-overview/widgets/revenue-by-month',
      mark,
    );
    await embed.frame.getByRole('button', { name: /Back to dashboard/ }).click();
    const back = await embed.next(
      'service:event:navigate',
      (event) => event.payload.path === '/dashboard/sales-overview',
      mark,
    );
    expect(back.payload.previousPath).toBe('/dashboard/sales-overview/widgets/revenue-by-month');
  });

  it('a filter widget narrows the other widgets of its view', async () => {
    const embed = await loaded();
    await embed.frame.getByLabelText('Status', { exact: true }).selectOptions('returned');
    const state = await embed.state(
      (candidate) => candidate.reason === 'render' && candidate.filters['orders.status'] !== undefined,
    );
    expect(state.filters).toEqual({ 'orders.status': { value: 'returned' } });
    expect(state.widgets.find((item) => item.id === 'orders-by-status')?.rowCount).toBe(1);
  });
});

describe('URL switches and session settings (behaviour 2; 2.7)', () => {
  it('showDashboardHeader=false hides the header; showDashboardTitle=false only the title', async () => {
    const noHeader = await loaded({
      surface: 'dashboard',
      publicId: 'sales-overview',
      switches: { showDashboardHeader: false },
    });
    expect(noHeader.latest()).toMatchObject({ heading: '', visible: { header: false, title: false } });
    expect(noHeader.latest()?.buttons).not.toContain('Refresh');
    const noTitle = await loaded({
      surface: 'dashboard',
      publicId: 'sales-overview',
      switches: { showDashboardTitle: false },
    });
    expect(noTitle.latest()).toMatchObject({ heading: '', visible: { header: true, title: false } });
    expect(noTitle.latest()?.buttons).toContain('Refresh');
    const shown = await loaded();
    expect(shown.latest()).toMatchObject({ heading: 'Sales overview', visible: { header: true, title: true } });
  });

  it('2.7 settings.showDashboardChat: false hides the AI chat launcher of the dashboard', async () => {
    expect((await loaded()).latest()?.visible.chatLauncher).toBe(true);
    const hidden = await loaded(undefined, { session: { settings: { showDashboardChat: false } } });
    expect(hidden.latest()?.visible.chatLauncher).toBe(false);
  });

  it("6.2 ai-query from the dashboard's chat panel reports the dashboard surface", async () => {
    const embed = await loaded();
    await embed.frame.getByRole('button', { name: 'Open AI chat' }).click();
    await embed.frame.getByLabelText('Your question').fill('Orders by status');
    await embed.frame.getByRole('button', { name: 'Send' }).click();
    const submitted = await embed.next('service:event:ai-query', (event) => event.payload.status === 'submitted');
    expect(submitted).toMatchObject({
      surface: 'dashboard',
      payload: { query: 'Orders by status', status: 'submitted', agentId: '1' },
    });
    const completed = await embed.next('service:event:ai-query', (event) => event.payload.status !== 'submitted');
    expect(completed.payload).toMatchObject({
      query: 'Orders by status',
      status: 'completed',
      agentId: '1',
      chatId: expect.any(String),
    });
  });

  it('every button has an accessible name', async () => {
    const embed = await loaded({ surface: 'dashboard', publicId: 'sales-overview', allowExport: true });
    expect(embed.latest()!.buttons.length).toBeGreaterThan(5);
    expect(embed.latest()!.buttons.every((label) => label.trim() !== '')).toBe(true);
  });
});

describe('accessibility (axe, WCAG 2 AA)', () => {
  it.each(['light', 'dark'] as const)('the dashboard in the %s scheme has no violations', async (scheme) => {
    const embed = await loaded({ surface: 'dashboard', publicId: 'sales-overview', allowExport: true });
    embed.channel.send({ type: 'service:action:set-color-scheme', payload: { scheme } });
    await embed.state((state) => state.reason === 'service:action:set-color-scheme');
    expect(await commands.auditFrameAccessibility(embed.sessionId)).toEqual([]);
  });
});
