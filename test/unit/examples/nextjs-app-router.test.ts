// @vitest-environment node
/**
 * The Next.js App Router example of docs/nextjs-app-router.md, run for real: its route modules
 * (examples/nextjs-app-router/app/api/**) are imported as Next.js would import them and called
 * with Fetch `Request`s against the emulator. Next.js itself is not installed: the package names
 * the example imports are pointed at the sources here (`@service/react/server` at src/server,
 * `@/` at the example's folder, Next.js's `server-only` at an empty module).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { createDataClient, dataQueryOptions, readNdjson } from '../../../src/core';
import { startEmulator, type RunningEmulator } from '../../../src/emulator';
import type * as SessionRoute from '../../../examples/nextjs-app-router/app/api/embed-session/route';
import type * as ChatRoute from '../../../examples/nextjs-app-router/app/api/service/chat/[action]/route';
import type * as DataTokenRoute from '../../../examples/nextjs-app-router/app/api/data-token/route';

vi.mock('server-only', () => ({}));
vi.mock('@service/react/server', () => import('../../../src/server'));
vi.mock('@/lib/service', () => import('../../../examples/nextjs-app-router/lib/service'));
vi.mock('@/lib/auth', () => import('../../../examples/nextjs-app-router/lib/auth'));
vi.mock('@/lib/data', () => import('../../../examples/nextjs-app-router/lib/data'));
vi.mock('@service/react/core', () => import('../../../src/core'));

type Routes = { session: typeof SessionRoute; chat: typeof ChatRoute; dataToken: typeof DataTokenRoute };

let emulator: RunningEmulator;
let routes: Routes;
const APP = 'http://localhost:3000';

/** The variables of the example's .env.example, pointed at this emulator's port. */
function envFor(url: string): Record<string, string> {
  return {
    SERVICE_URL: url,
    SERVICE_API_KEY: emulator.apiKey,
    SERVICE_AI_URL: emulator.aiUrl.replace(emulator.url, url),
    SERVICE_DATA_URL: emulator.dataUrl.replace(emulator.url, url),
    SERVICE_DATA_API_SECRET: emulator.world.deployments[0]!.jwtSecret,
  };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, chatPace: 'instant' });
  for (const [name, value] of Object.entries(envFor(emulator.url))) vi.stubEnv(name, value);
  routes = {
    session: await import('../../../examples/nextjs-app-router/app/api/embed-session/route'),
    chat: await import('../../../examples/nextjs-app-router/app/api/service/chat/[action]/route'),
    dataToken: await import('../../../examples/nextjs-app-router/app/api/data-token/route'),
  };
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await emulator?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${APP}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: APP, ...headers },
    body: JSON.stringify(body),
  });

describe('examples/nextjs-app-router against the emulator', () => {
  it('.env.example holds the emulator world (keys and secret) these tests use', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile('examples/nextjs-app-router/.env.example', 'utf8');
    const values = Object.fromEntries(
      text
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split('=', 2) as [string, string]),
    );
    expect(values).toEqual(envFor('http://127.0.0.1:4010'));
  });

  it('embed-session route: a session for the signed-in viewer; 401 signed out; 403 for the dashboard it refuses; 403 cross-site', async () => {
    const answer = await routes.session.POST(
      post('/api/embed-session', { surface: 'dashboard', publicId: 'sales-overview' }),
    );
    expect(answer.status).toBe(200);
    const { sessionId } = (await answer.json()) as { sessionId: string };
    expect(sessionId).toMatch(/\S/);
    // The session opens the dashboard page of the emulator (it is single-use: a second open fails).
    const page = await fetch(`${emulator.url}/embed/dashboard/sales-overview?session=${encodeURIComponent(sessionId)}`);
    expect(page.status).toBe(200);

    const signedOut = await routes.session.POST(
      post('/api/embed-session', { surface: 'dashboard', publicId: 'sales-overview' }, { cookie: 'demo-user=nobody' }),
    );
    expect(signedOut.status).toBe(401);
    const refused = await routes.session.POST(
      post('/api/embed-session', { surface: 'dashboard', publicId: 'internal-finance' }),
    );
    expect(refused.status).toBe(403);
    const crossSite = await routes.session.POST(
      post(
        '/api/embed-session',
        { surface: 'dashboard', publicId: 'sales-overview' },
        { origin: 'https://evil.example' },
      ),
    );
    expect(crossSite.status).toBe(403);
  });

  it('chat proxy route: streams the agent to a final answer as the viewer, and the key never shows', async () => {
    const answer = await routes.chat.POST(
      post('/api/service/chat/stream-chat-state', { input: 'Revenue by region in 2025' }),
    );
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).not.toContain(emulator.apiKey);
    const lines: unknown[] = [];
    for await (const line of readNdjson(new Response(text).body!)) lines.push(line);
    expect(lines.some((line) => (line as { graphPath?: string[] }).graphPath?.includes('final'))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ id: '__usage__' });
  });

  it('data-token route: a token the data API takes, and the viewer sees only their region', async () => {
    const answer = await routes.dataToken.GET(new Request(`${APP}/api/data-token`));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const { token, expiresAt } = (await answer.json()) as { token: string; expiresAt: number };
    expect(expiresAt).toBeGreaterThan(Date.now());
    const data = createDataClient({ url: emulator.dataUrl, token });
    const result = await data.load({ measures: ['orders.count'], dimensions: ['orders.region'] });
    expect(result.data.map((row) => row['orders.region'])).toEqual(['EMEA']);
    const crossSite = await routes.dataToken.GET(
      new Request(`${APP}/api/data-token`, {
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      }),
    );
    expect(crossSite.status).toBe(403);

    const signedOut = await routes.dataToken.GET(
      new Request(`${APP}/api/data-token`, { headers: { cookie: 'demo-user=nobody' } }),
    );
    expect(signedOut.status).toBe(401);
  });

  it('home page: the server prefetches every query of the page as the viewer, with a token it signs', async () => {
    const { createDataToken } = await import('../../../src/server');
    const { dataClaims, dataSecret } = await import('../../../examples/nextjs-app-router/lib/data');
    const { homeQueries } = await import('../../../examples/nextjs-app-router/app/home-queries');
    const { currentUser } = await import('../../../examples/nextjs-app-router/lib/auth');
    const user = await currentUser(new Request(`${APP}/`));
    const { token } = await createDataToken({ secret: dataSecret(), claims: dataClaims(user!) });
    const client = new QueryClient();
    const queries = homeQueries();
    await Promise.all(
      queries.map((query) => client.prefetchQuery(dataQueryOptions(query, { url: emulator.dataUrl, token }))),
    );
    const results = client.getQueryCache().getAll();
    expect(results).toHaveLength(queries.length);
    expect(results.map((query) => query.state.status)).toEqual(queries.map(() => 'success'));
    // The viewer's region only: the same count as a query filtered to it.
    const all = createDataClient({
      url: emulator.dataUrl,
      token: await createDataToken({ secret: dataSecret(), claims: {} }).then((t) => t.token),
    });
    const emea = await all.load({
      measures: ['orders.count'],
      filters: [{ member: 'orders.region', operator: 'equals', values: ['EMEA'] }],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
    });
    const orders = client.getQueryData(dataQueryOptions(queries[1]!, { url: emulator.dataUrl, token }).queryKey);
    expect(orders?.data).toEqual(emea.data);
  });
});
