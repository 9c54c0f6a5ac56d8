// @vitest-environment node
/**
 * The same-origin rule of both route handlers where apps really run: behind `next start` (whose
 * `request.url` says `localhost` whatever the host), on a LAN address, and behind a reverse proxy
 * that sets `X-Forwarded-Proto` and `X-Forwarded-Host`. Same-origin pages pass; every cross-site
 * request stays refused, forged forwarding headers included. Both handlers run against the
 * emulator, so a pass is a real session or a real chat stream.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createChatProxyHandler, createSessionHandler, toNodeHandler, type RouteHandler } from '../../../src/server';
import { clientOrigin } from '../../../src/server/transport';
import { useEmulator } from '../../helpers/emulator';

const emulator = useEmulator({ port: 0, chatPace: 'instant' });
let routes: { name: string; path: string; body: unknown; handler: RouteHandler }[];

beforeAll(async () => {
  routes = [
    {
      name: 'session route',
      path: '/api/embed-session',
      body: { surface: 'dashboard', publicId: 'sales-overview' },
      handler: createSessionHandler({
        baseUrl: emulator.url,
        apiKey: emulator.apiKey,
        deploymentId: 1,
        resolve: () => ({ externalId: 'ann@partner.example' }),
      }),
    },
    {
      name: 'chat proxy',
      path: '/api/service/chat/stream-chat-state',
      body: { input: 'How many orders are there?' },
      handler: createChatProxyHandler({
        aiUrl: emulator.aiUrl,
        apiKey: emulator.apiKey,
        resolveSessionSettings: () => ({ externalId: 'ann@partner.example' }),
      }),
    },
  ];
});

/** What Next.js hands a route handler: `request.url` on localhost, the browser's host in the headers. */
const NEXT_URL = 'http://localhost:3000';

function post(url: string, path: string, body: unknown, headers: Record<string, string>): Request {
  return new Request(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Status of each route for one request; bodies are read to the end (a chat stream too). */
async function statuses(url: string, headers: Record<string, string>): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const route of routes) {
    const response = await route.handler(post(url, route.path, route.body, headers));
    await response.arrayBuffer();
    result[route.name] = response.status;
  }
  return result;
}

const BOTH_OK = { 'session route': 200, 'chat proxy': 200 };
const BOTH_REFUSED = { 'session route': 403, 'chat proxy': 403 };

describe('same-origin pages pass wherever the app is reached', () => {
  it('next start -H 127.0.0.1: Origin equals the Host the browser used, though request.url says localhost', async () => {
    expect(
      await statuses(NEXT_URL, { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000', 'sec-fetch-site': '' }),
    ).toEqual(BOTH_OK);
    // A LAN address, from a browser that sends no Sec-Fetch-Site.
    expect(await statuses(NEXT_URL, { host: '192.168.1.20:3000', origin: 'http://192.168.1.20:3000' })).toEqual(
      BOTH_OK,
    );
  });

  it('behind a reverse proxy: Origin equals X-Forwarded-Proto + X-Forwarded-Host (first of a list)', async () => {
    const proxied = {
      host: '127.0.0.1:3000',
      'x-forwarded-host': 'app.example.com',
      'x-forwarded-proto': 'https',
      origin: 'https://app.example.com',
    };
    expect(await statuses(NEXT_URL, proxied)).toEqual(BOTH_OK);
    expect(
      await statuses(NEXT_URL, {
        ...proxied,
        'x-forwarded-host': 'app.example.com, edge.internal:8080',
        'x-forwarded-proto': 'https,http',
      }),
    ).toEqual(BOTH_OK);
    // A proxy that ends TLS and keeps the Host header: the scheme comes from X-Forwarded-Proto.
    expect(
      await statuses(NEXT_URL, {
        host: 'app.example.com',
        'x-forwarded-proto': 'https',
        origin: 'https://app.example.com',
      }),
    ).toEqual(BOTH_OK);
  });

  it('Sec-Fetch-Site: same-origin is authoritative, whatever the URL and headers say', async () => {
    expect(await statuses(NEXT_URL, { origin: 'https://app.example.com', 'sec-fetch-site': 'same-origin' })).toEqual(
      BOTH_OK,
    );
  });

  it('the own origin is the client-side one, default ports folded', () => {
    const at = (headers: Record<string, string>, url = NEXT_URL) => clientOrigin(new Request(url, { headers }));
    expect(at({})).toBe('http://localhost:3000');
    expect(at({ host: '127.0.0.1:3000' })).toBe('http://127.0.0.1:3000');
    expect(at({ host: 'h:3000', 'x-forwarded-host': 'app.example.com:443', 'x-forwarded-proto': 'HTTPS' })).toBe(
      'https://app.example.com',
    );
    expect(at({ host: '[::1]:3000' })).toBe('http://[::1]:3000');
    // Headers that name no origin give none: nothing can equal it.
    for (const bad of ['evil.example/path', 'ann@evil.example', 'a b', 'a.example:99999', ''])
      expect(at({ 'x-forwarded-host': bad, host: bad || 'x' }), bad).toBe(bad === '' ? 'http://x' : undefined);
    expect(at({ 'x-forwarded-proto': 'javascript' })).toBeUndefined();
  });
});

describe('cross-site requests stay refused, forwarding headers or not', () => {
  const proxied = { host: '127.0.0.1:3000', 'x-forwarded-host': 'app.example.com', 'x-forwarded-proto': 'https' };

  it('another site’s Origin, Origin: null, Sec-Fetch-Site cross-site or same-site are 403', async () => {
    const refused: Record<string, string>[] = [
      { ...proxied, origin: 'https://evil.example' },
      { ...proxied, origin: 'null' },
      { ...proxied, origin: 'http://app.example.com' }, // another scheme is another origin
      { ...proxied, origin: 'https://app.example.com:8443' },
      // Forwarding headers naming the attacker's site are no help: the browser says cross-site.
      {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      { ...proxied, origin: 'https://app.example.com', 'sec-fetch-site': 'cross-site' },
      // A sibling subdomain is the same site but another origin.
      { ...proxied, origin: 'https://blog.example.com', 'sec-fetch-site': 'same-site' },
      { ...proxied, 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      // The Origin cannot be compared with a forwarded host that is no host.
      { 'x-forwarded-host': 'app.example.com/evil', origin: 'http://app.example.com/evil' },
    ];
    for (const headers of refused)
      expect(await statuses(NEXT_URL, headers), JSON.stringify(headers)).toEqual(BOTH_REFUSED);
  });

  it('form posts are refused: 403 from another site, 415 from the own origin', async () => {
    for (const route of routes) {
      const form = (headers: Record<string, string>) =>
        route.handler(
          new Request(`${NEXT_URL}${route.path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
            body: 'input=hi',
          }),
        );
      expect((await form({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect((await form({ ...proxied, origin: 'https://app.example.com' })).status).toBe(415);
    }
  });

  it('allowedOrigins still adds origins, also for Sec-Fetch-Site: cross-site', async () => {
    const session = createSessionHandler({
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      deploymentId: 1,
      resolve: () => ({ externalId: 'ann@partner.example' }),
      allowedOrigins: ['https://admin.example.com'],
    });
    const request = (origin: string) =>
      post(NEXT_URL, '/api/embed-session', {}, { ...proxied, origin, 'sec-fetch-site': 'cross-site' });
    expect((await session(request('https://admin.example.com'))).status).toBe(200);
    expect((await session(request('https://evil.example'))).status).toBe(403);
  });

  it('a preflight for a forged X-Forwarded-Host gets no CORS grant, so a browser never sends the request', async () => {
    // Through a real socket, as a browser's preflight arrives.
    const servers: Server[] = [];
    try {
      for (const route of routes) {
        const server = createServer(toNodeHandler(route.handler));
        servers.push(server);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${route.path}`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://evil.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,x-forwarded-host',
          },
        });
        await response.arrayBuffer();
        expect(response.status, route.name).toBe(405);
        const granted = [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
        expect(granted, route.name).toEqual([]);
      }
    } finally {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });
});
