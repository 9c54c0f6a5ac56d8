/**
 * Global setup of the browser tests: a fake embed served from origins other than the test page's,
 * and the real emulator (`emulatorUrl`, on `127.0.0.1`, chat at instant pace) whose embed pages the
 * emulator-embed tests load. The emulator is also registered for the commands of `commands.ts`
 * (`mintEmbedSession`), which run in this same process.
 *
 * The test page runs on `http://localhost:<port>`; these servers listen on `127.0.0.1`, a
 * different origin, so cross-origin rules of `postMessage` apply for real. Two servers give two
 * embed origins: `embedOrigin` plays the tenant, `otherEmbedOrigin` a foreign site.
 *
 * The fake embed page (`/embed`, and any path under it, so that embed components can load it)
 * takes these query parameters:
 * - `parent`: the host page's origin, the only target it posts to and the only origin it accepts
 *   messages from (never `*`). Default: the embedding page's origin as the browser reports it.
 * - `id`: a name echoed in its messages, to tell iframes apart.
 * - `surface`: the `surface` of its events (default `dashboard`).
 * - `ready=manual`: wait for a `{ fake: 'ready' }` command instead of sending `ready` on load.
 * - `emit`: a JSON array of messages posted as they are after load (and after `ready`, unless
 *   manual): the way to make it misbehave (wrong source, direction, payload, unknown types).
 *
 * On load it posts `{ fake: 'loaded', id }`. It records every other message it receives and
 * echoes each back as a `service:event:echo` event (`payload: { id, action }`), so tests see
 * what arrived and in which order. Commands, sent by the test page as `{ fake: ... }`:
 * `ready` (post the ready event), `emit` (post `messages`), `navigate` (go to `to`), and
 * `report` (answer `{ fake: 'report', id, received }`, which also proves that every message it
 * posted before has reached the host).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { createManualClock, signDeploymentToken, startEmulator } from '../../src/emulator';
import { PAGE_SCRIPT } from '../../src/emulator/embed/page-script.generated';
import { buildPageScript } from '../helpers/embed-page-script';
import { EMULATOR_REGISTRY, type EmulatorRegistry } from './commands';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the fake embed playing the tenant, `http://127.0.0.1:<port>`. */
    embedOrigin: string;
    /** Origin of the same fake embed on another port: a foreign site. */
    otherEmbedOrigin: string;
    /** `{base_url}` of the emulator, `http://127.0.0.1:<port>`: another origin than the test page. */
    emulatorUrl: string;
  }
}

const EMBED_PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>fake embed</title>
<script>
(() => {
  const query = new URLSearchParams(location.search);
  const parentOrigin = query.get('parent') || location.ancestorOrigins[0];
  const id = query.get('id') || '';
  const surface = query.get('surface') || 'dashboard';
  const received = [];
  const post = (message) => parent.postMessage(message, parentOrigin);
  const event = (type, payload) => ({
    source: 'service-embed', direction: 'event', type, payload, timestamp: Date.now(), surface,
  });
  const ready = () =>
    post(event('service:event:ready', { embedTenant: null, deploymentId: null, mode: 'signed', surface, publicId: id }));

  addEventListener('message', (message) => {
    if (message.source !== parent || message.origin !== parentOrigin) return;
    const data = message.data;
    if (data && typeof data === 'object' && typeof data.fake === 'string') {
      if (data.fake === 'ready') ready();
      else if (data.fake === 'emit') data.messages.forEach(post);
      else if (data.fake === 'navigate') location.href = data.to;
      else if (data.fake === 'report') post({ fake: 'report', id, received });
      return;
    }
    received.push(data);
    post(event('service:event:echo', { id, action: data }));
  });

  post({ fake: 'loaded', id });
  if (query.get('ready') !== 'manual') ready();
  for (const message of JSON.parse(query.get('emit') || '[]')) post(message);
})();
</script>
</html>
`;

function startServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/embed' && !url.pathname.startsWith('/embed/')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(EMBED_PAGE);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

function stopServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

interface Servers {
  tenant: { server: Server; origin: string };
  other: { server: Server; origin: string };
  emulator: Awaited<ReturnType<typeof startEmulator>>;
  /** The manual-clock emulators the tests started (`clockedEmulator` of commands.ts). */
  clocked: Awaited<ReturnType<typeof startEmulator>>[];
}

async function startServers(): Promise<Servers> {
  const tenant = await startServer();
  const other = await startServer();
  // The emulator serves the generated bundle of its embed page script: say so when it is behind
  // the sources, or the emulator-embed tests would test yesterday's page.
  if ((await buildPageScript()).replace(/\n$/, '') !== PAGE_SCRIPT) {
    console.warn(
      '[browser tests] src/emulator/embed/page-script.generated.ts is stale: regenerate with ' + '`npm run generate`',
    );
  }
  const emulator = await startEmulator({ port: 0, chatPace: 'instant' });
  const clocked: Servers['clocked'] = [];
  const registry: EmulatorRegistry = {
    url: emulator.url,
    apiKey: emulator.apiKey,
    context: emulator.context,
    signToken: (options) => signDeploymentToken(emulator.world, { ...options, now: emulator.context.clock.now() }),
    async startClocked() {
      // Its own emulator, so moving its clock never expires the sessions of other tests.
      const clock = createManualClock();
      const started = await startEmulator({ port: 0, chatPace: 'instant', clock });
      clocked.push(started);
      return { url: started.url, apiKey: started.apiKey, clock };
    },
  };
  (globalThis as { [EMULATOR_REGISTRY]?: EmulatorRegistry })[EMULATOR_REGISTRY] = registry;
  return { tenant, other, emulator, clocked };
}

/**
 * One set of servers per process, shared by the browser projects (React 19 and React 18): the
 * commands of `commands.ts` find the emulator through one global registry, so two emulators would
 * have one project mint sessions on the other's. The last project to finish closes them.
 */
const SHARED = Symbol.for('@service/react/browser-tests/servers');
type Shared = { servers: Promise<Servers>; users: number };
const shared = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const entry = (shared[SHARED] ??= { servers: startServers(), users: 0 });
  entry.users += 1;
  const { tenant, other, emulator, clocked } = await entry.servers;
  project.provide('embedOrigin', tenant.origin);
  project.provide('otherEmbedOrigin', other.origin);
  project.provide('emulatorUrl', emulator.url);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0 || shared[SHARED] !== entry) return;
    delete shared[SHARED];
    delete (globalThis as { [EMULATOR_REGISTRY]?: EmulatorRegistry })[EMULATOR_REGISTRY];
    await Promise.all([
      stopServer(tenant.server),
      stopServer(other.server),
      emulator.close(),
      ...clocked.map((started) => started.close()),
    ]);
  };
}
