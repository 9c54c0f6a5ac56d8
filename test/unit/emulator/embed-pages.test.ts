// @vitest-environment node
/**
 * The embed pages over real sockets (protocol 5 rule 8, 6; behaviour 2): URLs,
 * `session` and `sessionId`, single use, the 5-minute window, what the page is told, and the
 * errors. What the page script then does in a browser is covered by test/browser/emulator-embed*.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_API_KEY, createManualClock } from '../../../src/emulator';
import {
  CLOCK_PATH,
  CONFIG_ELEMENT_ID,
  SET_SESSION_PATH,
  type EmbedPageConfig,
  type SetSessionAnswer,
} from '../../../src/emulator/embed/config';
import { PAGE_SCRIPT } from '../../../src/emulator/embed/page-script.generated';
import { PAGE_CSS } from '../../../src/emulator/embed/styles';
import { EMBED_SESSION_TTL_MS, EMBED_TOKEN_TTL_MS } from '../../../src/emulator/state';
import { mintSession, useEmulator } from '../../helpers/emulator';
import { loadData } from './helpers';

const clock = createManualClock(Date.parse('2026-03-01T12:00:00.000Z'));

const emulator = useEmulator({ clock, chatPace: 'instant' });

/** Mints a session over HTTP (4.2) and returns its id. */
const mint = (body: Record<string, unknown> = {}): Promise<string> =>
  mintSession(emulator, { deploymentId: 1, externalId: 'viewer@partner.test', ...body });

interface Page {
  status: number;
  headers: Headers;
  html: string;
  config: EmbedPageConfig;
}

async function open(path: string): Promise<Page> {
  const response = await fetch(`${emulator.url}${path}`);
  const html = await response.text();
  const match = new RegExp(`<script type="application/json" id="${CONFIG_ELEMENT_ID}">(.*?)</script>`, 's').exec(html);
  if (!match) throw new Error(`no config in ${path}: ${html.slice(0, 200)}`);
  return { status: response.status, headers: response.headers, html, config: JSON.parse(match[1]!) as EmbedPageConfig };
}

describe('embed pages: URLs and sessions (behaviour 2)', () => {
  it.each([
    ['dashboard', (id: string) => `/embed/dashboard/sales-overview?session=${id}`],
    ['dashboard', (id: string) => `/embed/dashboard/sales-overview?sessionId=${id}`],
    ['dashboard', (id: string) => `/embed/d/1/dashboard/sales-overview?session=${id}`],
    ['app', (id: string) => `/embed/d/1/app?session=${id}`],
    ['app', (id: string) => `/embed/d/1/app?sessionId=${id}`],
    ['chat', (id: string) => `/embed/chat?sessionId=${id}`],
    ['chat', (id: string) => `/embed/chat?session=${id}`],
    ['chat', (id: string) => `/embed/d/1/chat?session=${id}`],
  ] as const)('behaviour 2: %s page at %s accepts the session', async (surface, url) => {
    const page = await open(url(await mint()));
    expect(page.status).toBe(200);
    expect(page.config.error).toBeUndefined();
    expect(page.config.surface).toBe(surface);
    expect(page.config.deploymentId).toBe(1);
    expect(page.config.embedTenant).toBe('acme');
    if (surface === 'dashboard') expect(page.config.dashboard?.publicId).toBe('sales-overview');
  });

  it('5 rule 8, behaviour 2: a session is single use: the second load of the same URL fails', async () => {
    const id = await mint();
    expect((await open(`/embed/dashboard/orders-ops?session=${id}`)).status).toBe(200);
    const again = await open(`/embed/dashboard/orders-ops?session=${id}`);
    expect(again.status).toBe(401);
    expect(again.config.error).toMatchObject({ context: 'embed-auth', name: 'EmbedSessionError' });
    expect(again.config.error?.message).toMatch(/already been used/);
    expect(again.config.token).toBe('');
    expect(again.html).toContain('role="alert"');
  });

  it('a HEAD request does not use up the session', async () => {
    const id = await mint();
    const head = await fetch(`${emulator.url}/embed/chat?sessionId=${id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await open(`/embed/chat?sessionId=${id}`)).status).toBe(200);
  });

  it('behaviour 2: a session must be exchanged within 5 minutes', async () => {
    const late = await mint();
    const inTime = await mint();
    clock.advance(EMBED_SESSION_TTL_MS - 1000);
    expect((await open(`/embed/chat?sessionId=${inTime}`)).status).toBe(200);
    clock.advance(1000);
    const expired = await open(`/embed/chat?sessionId=${late}`);
    expect(expired.status).toBe(401);
    expect(expired.config.error?.message).toMatch(/expired/);
  });

  it('an unknown, a missing and a revoked session are refused', async () => {
    expect((await open('/embed/chat?sessionId=0123456789abcdef0123456789abcdef')).config.error?.message).toMatch(
      /not valid/,
    );
    const missing = await open('/embed/dashboard/sales-overview');
    expect(missing.status).toBe(401);
    expect(missing.config.error?.message).toMatch(/No session/);
    const id = await mint();
    await fetch(`${emulator.url}/api/v1/embed/session/revoke`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: id }),
    });
    expect((await open(`/embed/chat?sessionId=${id}`)).config.error?.message).toMatch(/revoked/);
  });

  it('a dashboard not allowed for embedding (internal-finance) is refused with 403', async () => {
    const page = await open(`/embed/dashboard/internal-finance?session=${await mint()}`);
    expect(page.status).toBe(403);
    expect(page.config.error).toMatchObject({
      context: 'embed-load',
      message: 'Dashboard "internal-finance" is not enabled for embedding.',
    });
    expect(page.config.dashboard).toBeUndefined();
    expect(page.html).not.toContain('Revenue by category');
  });

  it('an unknown dashboard is 404; a session of another deployment is 403', async () => {
    expect((await open(`/embed/dashboard/nope?session=${await mint()}`)).status).toBe(404);
    const staging = await mint({ deploymentId: 2 });
    const wrong = await open(`/embed/dashboard/sales-overview?session=${staging}`);
    expect(wrong.status).toBe(403);
    expect(wrong.config.error?.message).toMatch(/deployment 1/);
    expect((await open(`/embed/d/2/app?session=${await mint()}`)).status).toBe(403);
    expect((await open(`/embed/d/9/app?session=${await mint()}`)).status).toBe(404);
  });

  it('errors are in the locale of the URL, or of the session settings', async () => {
    const german = await open(`/embed/dashboard/internal-finance?session=${await mint()}&locale=de`);
    expect(german.html).toContain('<html lang="de-DE"');
    expect(german.html).toContain('ist nicht für die Einbettung freigegeben');
    // The event message stays English and stable for the host.
    expect(german.config.error?.message).toBe('Dashboard "internal-finance" is not enabled for embedding.');
    const bySettings = await open(
      `/embed/dashboard/internal-finance?session=${await mint({ settings: { locale: 'de-AT' } })}`,
    );
    expect(bySettings.html).toContain('<html lang="de-DE"');
  });
});

describe('embed pages: what the page gets', () => {
  it("the token carries the viewer, so row-level security applies to the page's queries", async () => {
    const page = await open(
      `/embed/dashboard/sales-overview?session=${await mint({ externalId: 'emea@partner.test', userAttributes: [{ name: 'region', value: 'EMEA' }] })}`,
    );
    expect(page.config.dataUrl).toBe('/data/1');
    const result = await loadData(emulator, page.config.token, { dimensions: ['orders.region'] });
    expect(result.data).toEqual([{ 'orders.region': 'EMEA' }]);
  });

  it("the session's embedTheme, settings and dashboard widgets reach the page", async () => {
    const page = await open(
      `/embed/dashboard/sales-overview?session=${await mint({ embedTheme: { primaryColor: '#aa3300' }, settings: { showDashboardChat: false, timezone: 'Asia/Tokyo' } })}`,
    );
    expect(page.config.theme).toEqual({ primaryColor: '#aa3300' });
    expect(page.config.showDashboardChat).toBe(false);
    expect(page.config.defaultTimezone).toBe('Asia/Tokyo');
    expect(page.config.dashboard?.widgets.map((widget) => widget.id)).toEqual([
      'intro',
      'status-filter',
      'revenue-kpi',
      'revenue-by-month',
      'orders-by-status',
      'revenue-by-region',
    ]);
    expect((await open(`/embed/dashboard/sales-overview?session=${await mint()}`)).config.showDashboardChat).toBe(true);
  });

  it("the app lists the deployment's workbooks, leaving out dashboards not allowed for embedding", async () => {
    const page = await open(`/embed/d/1/app?session=${await mint()}`);
    const slugs = page.config.workbooks?.map((workbook) => workbook.slug);
    expect(slugs).toEqual(expect.arrayContaining(['sales-overview', 'orders-ops', 'q4-review']));
    expect(slugs).not.toContain('internal-finance');
    expect(slugs).not.toContain('staging-scratch');
    expect(page.config.workbooks?.find((workbook) => workbook.slug === 'sales-overview')).toMatchObject({
      folderPath: ['Sales'],
      dashboard: { publicId: 'sales-overview' },
    });
  });

  it('the page can ask the agent with its token (external and internal viewers)', async () => {
    for (const who of [{ externalId: 'asker@partner.test' }, { externalId: undefined, internalId: 'cy@acme.test' }]) {
      const page = await open(`/embed/chat?sessionId=${await mint(who)}`);
      expect(page.config.chat).toMatchObject({ url: '/api/v1/public/acme/agents/1', agentId: '1' });
      const response = await fetch(`${emulator.url}${page.config.chat!.url}/chat/stream-chat-state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-auth-token': page.config.chat!.token },
        body: JSON.stringify({ input: 'Orders by status' }),
      });
      const text = await response.text();
      expect(text).not.toContain('jsonrpc');
      expect(text).toContain('__cutoff__');
    }
  });

  it('deployment 2 has no agent: the page is told so', async () => {
    const page = await open(`/embed/d/2/app?session=${await mint({ deploymentId: 2 })}`);
    expect(page.status).toBe(200);
    expect(page.config.chat).toBeNull();
  });

  it('headers: strict CSP without inline script or style, no caching, no referrer', async () => {
    const page = await open(`/embed/dashboard/sales-overview?session=${await mint()}`);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // Only the JSON data block and the external script: no inline code.
    expect([...page.html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])).toEqual([
      `<script type="application/json" id="${CONFIG_ELEMENT_ID}">`,
      expect.stringMatching(/^<script src="\/embed\/_assets\/page\.js\?v=[0-9a-f]{16}" defer>$/),
    ]);
  });

  it('values in the page cannot close its data block', async () => {
    const record = emulator.context.state.dashboards.get('orders-ops')!;
    const title = record.config.title;
    record.config.title = '</script><script>alert(1)</script>';
    try {
      const page = await open(`/embed/dashboard/orders-ops?session=${await mint()}`);
      expect(page.html).not.toContain('<script>alert(1)');
      expect(page.config.dashboard?.title).toBe('</script><script>alert(1)</script>');
      expect(page.html).toContain('<title>&#60;/script&#62;');
    } finally {
      record.config.title = title;
    }
  });

  it('serves the page script and stylesheet, cacheable under their hash', async () => {
    const page = await open(`/embed/chat?sessionId=${await mint()}`);
    const scriptPath = /<script src="([^"]+)"/.exec(page.html)![1]!;
    const script = await fetch(`${emulator.url}${scriptPath}`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect(await script.text()).toBe(PAGE_SCRIPT);
    const stylesPath = /<link rel="stylesheet" href="([^"]+)"/.exec(page.html)![1]!;
    const styles = await fetch(`${emulator.url}${stylesPath}`);
    expect(styles.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await styles.text()).toBe(PAGE_CSS);
    expect((await fetch(`${emulator.url}/embed/_assets/page.js`)).headers.get('cache-control')).toBe('no-cache');
  });
});

describe('embed pages: renewal in place (set-session) and the clock', () => {
  /** What a page loaded with a fresh session posts to renew: its token and what it shows. */
  async function loaded(path = '/embed/dashboard/sales-overview', body: Record<string, unknown> = {}) {
    const page = await open(`${path}?session=${await mint(body)}`);
    expect(page.status).toBe(200);
    return page.config;
  }
  async function setSession(config: EmbedPageConfig, sessionId: string) {
    const response = await fetch(`${emulator.url}${SET_SESSION_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionId,
        token: config.token,
        surface: config.surface,
        deploymentId: config.deploymentId,
        ...(config.dashboard ? { publicId: config.dashboard.publicId } : {}),
      }),
    });
    return { status: response.status, body: (await response.json()) as Partial<SetSessionAnswer> & { error?: string } };
  }

  it('the clock route tells the emulator clock, manual clock included', async () => {
    const response = await fetch(`${emulator.url}${CLOCK_PATH}`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ now: clock.now() });
  });

  it('the page knows when its token lapses, by the emulator clock', async () => {
    const before = clock.now();
    const config = await loaded();
    expect(config.tokenExpiresAt).toBe(before + EMBED_TOKEN_TTL_MS);
  });

  it('a session of the same viewer is exchanged: new tokens, single use, even after the old token lapsed', async () => {
    const config = await loaded();
    clock.advance(EMBED_TOKEN_TTL_MS + 1000);
    const next = await mint();
    const answer = await setSession(config, next);
    expect(answer.status).toBe(200);
    expect(answer.body.token).toMatch(/^ey/);
    expect(answer.body.token).not.toBe(config.token);
    expect(answer.body.tokenExpiresAt).toBe(clock.now() + EMBED_TOKEN_TTL_MS);
    expect(answer.body.chatToken).toMatch(/^ey/);
    // The new token reaches the data API; the session is spent.
    expect((await loadData(emulator, answer.body.token!, { measures: ['orders.count'] })).data).toHaveLength(1);
    const again = await setSession(config, next);
    expect(again.status).toBe(403);
    expect(again.body.error).toMatch(/already been used/);
    expect((await open(`/embed/dashboard/sales-overview?session=${next}`)).status).toBe(401);
  });

  it('another viewer, another embed tenant, another deployment: refused, and the session is not spent', async () => {
    const config = await loaded();
    for (const body of [
      { externalId: 'someone-else@partner.test' },
      { embedTenantName: 'other-tenant' },
      { deploymentId: 2 },
    ]) {
      const other = await mint(body);
      const answer = await setSession(config, other);
      expect(answer.status, JSON.stringify(body)).toBe(403);
      expect(answer.body.error).toMatch(/another viewer|deployment/);
      // Still good for a load of its own.
      const path = body.deploymentId === 2 ? '/embed/d/2/chat' : '/embed/chat';
      expect((await open(`${path}?session=${other}`)).status).toBe(200);
    }
  });

  it('the 5-minute window and a forged page token are refused', async () => {
    const config = await loaded();
    const late = await mint();
    clock.advance(EMBED_SESSION_TTL_MS);
    // Past its window the session is refused (as expired, or as unknown once swept).
    expect((await setSession(config, late)).body.error).toMatch(/expired|not valid/);
    const forged = await setSession({ ...config, token: `${config.token.slice(0, -4)}AAAA` }, await mint());
    expect(forged.status).toBe(403);
  });

  it('a malformed request is a 400', async () => {
    const response = await fetch(`${emulator.url}${SET_SESSION_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 1 }),
    });
    expect(response.status).toBe(400);
  });
});
