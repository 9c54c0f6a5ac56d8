/**
 * examples/nextjs-app-router as a partner runs it: `next build`, then `next start -H 127.0.0.1`
 * (not `localhost`), reached directly and through a reverse proxy that sets `X-Forwarded-*`, with
 * a real Chromium on the page and the emulator as the service. The build comes from the global
 * setup (next-build.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataClient, readNdjson } from '../../src/core';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import {
  checkFirstHour,
  freePort,
  launchBrowser,
  startForeignSite,
  startProcess,
  startReverseProxy,
  type ReverseProxy,
  type RunningProcess,
} from './apps';
import { BUILD_ENV, NEXT_APP, NEXT_BIN, waitForNextBuild } from './next-build';

const APP = NEXT_APP;

let emulator: RunningEmulator;
let next: RunningProcess;
let appUrl: string;
let proxy: ReverseProxy;
let browser: Browser;

/** The variables of the example's .env.example, for an emulator. */
function envFor(service: RunningEmulator): Record<string, string> {
  return {
    SERVICE_URL: service.url,
    SERVICE_API_KEY: service.apiKey,
    SERVICE_AI_URL: service.aiUrl,
    SERVICE_DATA_URL: service.dataUrl,
    SERVICE_DATA_API_SECRET: service.world.deployments[0]!.jwtSecret,
  };
}

/**
 * The build the global setup started. /analytics and the home page are rendered per request (ƒ),
 * or a static shell with the rest streamed per request (◐): never prerendered whole.
 */
async function build(): Promise<void> {
  const output = await waitForNextBuild();
  expect(output).toMatch(/[ƒ◐] \/analytics/);
  // The home page reads the viewer's cookies, and the data-token route signs for each viewer:
  // both per request too.
  expect(output).toMatch(/[ƒ◐] \/\s/);
  expect(output).toMatch(/ƒ \/api\/data-token/);
}

async function startNext(env: Record<string, string>): Promise<{ url: string; process: RunningProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = await startProcess([NEXT_BIN, 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: APP,
    env,
    url,
  });
  return { url, process: started };
}

beforeAll(async () => {
  [emulator, browser] = await Promise.all([startEmulator({ port: 0 }), launchBrowser(), build()]);
  const started = await startNext(envFor(emulator));
  next = started.process;
  appUrl = started.url;
  proxy = await startReverseProxy(appUrl);
});

afterAll(async () => {
  await proxy?.close();
  await next?.stop();
  await browser?.close();
  await emulator?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${appUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appUrl, ...headers },
    body: JSON.stringify(body),
  });

describe('examples/nextjs-app-router, built and started', () => {
  it('next start -H 127.0.0.1: the dashboard is ready, an answer comes with a chart, Stop ends the next one aborted', async () => {
    await checkFirstHour(browser, `${appUrl}/analytics`);
  });

  it('behind a reverse proxy (X-Forwarded-Host, X-Forwarded-Proto; no Sec-Fetch-Site): the same', async () => {
    proxy.requests.length = 0;
    await checkFirstHour(browser, `${proxy.url}/analytics`);
    const routes = proxy.requests.filter((request) => request.path.startsWith('/api/'));
    expect(routes.map((request) => request.path)).toEqual(
      expect.arrayContaining(['/api/embed-session', '/api/service/chat/stream-chat-state', '/api/service/chat/abort']),
    );
    for (const request of routes) expect(request.headers.origin).toBe(proxy.url);
  });

  it('the page reads SERVICE_URL when it is requested: the same build started with another service uses that one', async () => {
    const other = await startEmulator({ port: 0, chatPace: 'instant' });
    try {
      const started = await startNext(envFor(other));
      try {
        const html = await (await fetch(`${started.url}/analytics`)).text();
        expect(html).toContain(other.url);
        expect(html).not.toContain(BUILD_ENV.SERVICE_URL);
        expect(html).not.toContain(emulator.url);
        // And its routes talk to that service: the session opens its dashboard.
        const answer = await fetch(`${started.url}/api/embed-session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: started.url },
          body: JSON.stringify({ surface: 'dashboard', publicId: 'sales-overview' }),
        });
        const { sessionId } = (await answer.json()) as { sessionId: string };
        expect((await fetch(`${other.url}/embed/dashboard/sales-overview?session=${sessionId}`)).status).toBe(200);
      } finally {
        await started.process.stop();
      }
    } finally {
      await other.close();
    }
  });

  it('.env.example holds the emulator world (keys and secret)', () => {
    const text = readFileSync(join(APP, '.env.example'), 'utf8');
    const values = Object.fromEntries(
      text
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split('=', 2) as [string, string]),
    );
    const base = 'http://127.0.0.1:4010';
    expect(values).toEqual({
      ...envFor(emulator),
      SERVICE_URL: base,
      SERVICE_AI_URL: emulator.aiUrl.replace(emulator.url, base),
      SERVICE_DATA_URL: emulator.dataUrl.replace(emulator.url, base),
    });
  });

  it('embed-session route: a session for the signed-in viewer; 401 signed out; 403 for the dashboard it refuses', async () => {
    const answer = await post('/api/embed-session', { surface: 'dashboard', publicId: 'sales-overview' });
    expect(answer.status).toBe(200);
    const { sessionId } = (await answer.json()) as { sessionId: string };
    expect((await fetch(`${emulator.url}/embed/dashboard/sales-overview?session=${sessionId}`)).status).toBe(200);
    const signedOut = await post(
      '/api/embed-session',
      { surface: 'dashboard', publicId: 'sales-overview' },
      { cookie: 'demo-user=nobody' },
    );
    expect(signedOut.status).toBe(401);
    expect((await post('/api/embed-session', { surface: 'dashboard', publicId: 'internal-finance' })).status).toBe(403);
  });

  it('chat proxy route: streams a final answer as the viewer; the key never shows', async () => {
    const answer = await post('/api/service/chat/stream-chat-state', { input: 'Revenue by region in 2025' });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).not.toContain(emulator.apiKey);
    const lines: unknown[] = [];
    for await (const line of readNdjson(new Response(text).body!)) lines.push(line);
    expect(lines.some((line) => (line as { graphPath?: string[] }).graphPath?.includes('final'))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ id: '__usage__' });
  });

  it('data-token route: a token the data API takes, and the viewer sees only their region', async () => {
    const answer = await fetch(`${appUrl}/api/data-token`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const { token, expiresAt } = (await answer.json()) as { token: string; expiresAt: number };
    expect(expiresAt).toBeGreaterThan(Date.now());
    const result = await createDataClient({ url: emulator.dataUrl, token }).load({
      measures: ['orders.count'],
      dimensions: ['orders.region'],
    });
    expect(result.data.map((row) => row['orders.region'])).toEqual(['EMEA']);
    expect((await fetch(`${appUrl}/api/data-token`, { headers: { cookie: 'demo-user=nobody' } })).status).toBe(401);
    const crossSite = await fetch(`${appUrl}/api/data-token`, {
      headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: 'cross_site_request' });
  });

  for (const locale of ['en-US', 'de-DE']) {
    it(`home page, ${locale}: the viewer's figures are in the server's HTML, and the browser hydrates them without asking again`, async () => {
      // What the data API answers the viewer (their region only) for this month's revenue and orders.
      const { token } = (await (await fetch(`${appUrl}/api/data-token`)).json()) as { token: string };
      const answer = await createDataClient({ url: emulator.dataUrl, token }).load({
        measures: ['orders.total_revenue', 'orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
      });
      const row = answer.data[0]!;
      const revenueText = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(
        Number(row['orders.total_revenue']),
      );
      const ordersText = new Intl.NumberFormat(locale).format(Number(row['orders.count']));
      const cardValues = (page: Page) =>
        page.locator('[data-part="metric-card"][data-state="ready"] [data-part="metric-value"]').allTextContents();

      // Without JavaScript: the HTML as the server sent it, formatted in the browser's Accept-Language.
      const still = await browser.newContext({ javaScriptEnabled: false, locale });
      let served: string[];
      try {
        const page = await still.newPage();
        await page.goto(`${appUrl}/`);
        served = await cardValues(page);
        expect(served).toHaveLength(3);
        expect(served.slice(0, 2)).toEqual([revenueText, ordersText]);
        expect(await page.locator('[data-part="metric-comparison"]').count()).toBe(3);
        expect(await page.locator('[data-part="query-chart"][data-state="ready"]').count()).toBe(1);
      } finally {
        await still.close();
      }

      // With JavaScript: the same text, hydrated with no mismatch, and no request for data or a token.
      const context = await browser.newContext({ locale });
      try {
        const page = await context.newPage();
        const asked: string[] = [];
        const problems: string[] = [];
        page.on('request', (request) => {
          if (request.url().startsWith(emulator.dataUrl) || request.url().includes('/api/data-token'))
            asked.push(request.url());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        await page.goto(`${appUrl}/`);
        const chart = page.locator('[data-part="query-chart"] [data-part="chart"]');
        await expect.poll(() => chart.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
        await page.waitForLoadState('networkidle');
        expect(await cardValues(page)).toEqual(served);
        expect(asked).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('a page on another site gets nothing: a forged X-Forwarded-Host stops at the preflight; form posts are 403', async () => {
    const foreign = await startForeignSite(`<!doctype html><title>elsewhere</title>
      <form id="proxied" method="post" enctype="text/plain" action="${proxy.url}/api/embed-session"><input name="a" value="b"></form>
      <form id="direct" method="post" enctype="text/plain" action="${appUrl}/api/embed-session"><input name="a" value="b"></form>`);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(foreign.url);
      proxy.requests.length = 0;
      const outcome = await page.evaluate(async (target) => {
        try {
          const response = await fetch(`${target}/api/embed-session`, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/json', 'x-forwarded-host': location.host },
            body: JSON.stringify({ surface: 'dashboard' }),
          });
          return `answered ${response.status}`;
        } catch (error) {
          return `blocked: ${(error as Error).name}`;
        }
      }, proxy.url);
      expect(outcome).toBe('blocked: TypeError');
      // The browser sent the preflight only; the POST never left it.
      expect(proxy.requests.map((request) => request.method)).toEqual(['OPTIONS']);

      // Through the proxy the route sees the foreign Origin against the forwarded host: cross-site.
      const [proxied] = await Promise.all([
        page.waitForResponse((response) => response.url().startsWith(proxy.url)),
        page.evaluate(() => (document.getElementById('proxied') as HTMLFormElement).submit()),
      ]);
      expect(proxied.status()).toBe(403);
      expect(await proxied.json()).toMatchObject({ code: 'cross_site_request' });
      await page.goto(foreign.url);
      // Straight to 127.0.0.1 from 127.0.0.1 on another port: Sec-Fetch-Site: same-site, refused too.
      const [direct] = await Promise.all([
        page.waitForResponse((response) => response.url().startsWith(appUrl)),
        page.evaluate(() => (document.getElementById('direct') as HTMLFormElement).submit()),
      ]);
      expect(direct.status()).toBe(403);
      expect((await direct.request().allHeaders())['sec-fetch-site']).toBe('same-site');
    } finally {
      await context.close();
      await foreign.close();
    }
  });
});
