/**
 * The partner's server for the stories, in Node: the emulator (or the one `npm start` runs) and
 * the host routes built with `@service/react/server`. Bundled and loaded by service-routes.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CHAT_FAULT_HEADER, CHAT_PACE_HEADER, startEmulator } from '../src/emulator';
import { ADMIN_API_KEY, AGENT_1, DEPLOYMENT_1, agentUrl, dataUrl } from '../src/emulator/world';
import {
  createChatProxyHandler,
  createDataTokenHandler,
  createSessionHandler,
  toNodeHandler,
  type NodeHandler,
} from '../src/server';

/** The viewer every story is signed in as: an external user of the emulator's tenant. */
export const STORY_VIEWER = 'storybook-viewer@acme.test';

/** What `GET /__service/config` answers. */
export interface StoryServiceConfig {
  tenantUrl: string;
  dataUrl: string;
  chatUrl: string;
  embedSessionUrl: string;
  /** The data API through the partner's proxy route (same origin as the page): `data.url` of the stories' provider. */
  dataProxyUrl: string;
  /** `GET`: `{ token, expiresAt }`, a data API JWT for the story viewer, from `createDataTokenHandler`. */
  dataTokenUrl: string;
}

/** The routes, keyed by how a request is matched, and the config the stories read. */
export interface ServiceBackend {
  config: StoryServiceConfig;
  session: NodeHandler;
  chat: NodeHandler;
  /** `GET {dataTokenUrl}`. */
  dataToken: NodeHandler;
  /** `{dataProxyUrl}/v1/...`, passed on to the emulator's data API. */
  dataProxy: NodeHandler;
  close(): Promise<void>;
}

/**
 * The emulator's test knobs (chat faults and pace) that a story or browser test sets on its own
 * request, passed on to the emulator. Only this development backend does it: a partner's proxy
 * sends no browser header upstream.
 */
const KNOB_HEADERS = [CHAT_FAULT_HEADER, CHAT_PACE_HEADER];
const knobs = new AsyncLocalStorage<[string, string][]>();

/** A `fetch` adding the knobs of the browser request being served. */
const fetchWithKnobs: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  for (const [name, value] of knobs.getStore() ?? []) headers.set(name, value);
  return fetch(input, { ...init, headers });
};

/** Starts the backend against `serviceUrl`, or against an emulator of its own when none is given. */
export async function startServiceBackend(serviceUrl: string | undefined): Promise<ServiceBackend> {
  const emulator = serviceUrl ? undefined : await startEmulator({ port: 0, chatPace: 'instant' });
  const baseUrl = serviceUrl ?? emulator!.url;
  const config: StoryServiceConfig = {
    tenantUrl: baseUrl,
    dataUrl: dataUrl(baseUrl, DEPLOYMENT_1.id),
    chatUrl: '/api/service',
    embedSessionUrl: '/api/embed-session',
    dataProxyUrl: '/api/data',
    dataTokenUrl: '/api/data-token',
  };
  return {
    config,
    session: toNodeHandler(
      createSessionHandler({
        baseUrl,
        apiKey: ADMIN_API_KEY,
        deploymentId: DEPLOYMENT_1.id,
        resolve: () => ({ externalId: STORY_VIEWER, userProfile: { displayName: 'Storybook viewer' } }),
      }),
    ),
    chat: toNodeHandler(
      withKnobs(
        createChatProxyHandler({
          aiUrl: agentUrl(baseUrl, AGENT_1.id),
          apiKey: ADMIN_API_KEY,
          resolveSessionSettings: () => ({ externalId: STORY_VIEWER }),
          fetch: fetchWithKnobs,
        }),
      ),
    ),
    // A partner's server signs the viewer's data API token with the deployment's API secret; the
    // emulator's secrets are part of its fixed world. The claims match the chat proxy's viewer, so
    // "load all" sees the rows the agent saw.
    dataToken: toNodeHandler(
      createDataTokenHandler({
        secret: DEPLOYMENT_1.jwtSecret,
        resolve: () => ({ externalId: STORY_VIEWER }),
      }),
    ),
    // The page reaches the data API through this same-origin route, as it would a partner's proxy
    // (the emulator answers CORS too; a proxy keeps `connect-src 'self'`). The token is the
    // page's own, passed on as it is.
    dataProxy: toNodeHandler(async (request) => {
      const path = new URL(request.url).pathname.slice(config.dataProxyUrl.length);
      if (!path.startsWith('/v1/')) return new Response('not found', { status: 404 });
      const headers = new Headers();
      for (const name of ['authorization', 'content-type', 'x-emulator-slow']) {
        const value = request.headers.get(name);
        if (value !== null) headers.set(name, value);
      }
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
      const upstream = await fetch(`${config.dataUrl}${path}${new URL(request.url).search}`, {
        method: request.method,
        headers,
        body,
        signal: request.signal,
      });
      const answer = new Headers({ 'cache-control': 'no-store' });
      const type = upstream.headers.get('content-type');
      if (type) answer.set('content-type', type);
      return new Response(upstream.body, { status: upstream.status, headers: answer });
    }),
    close: async () => {
      await emulator?.close();
    },
  };
}

/** Serves `handler` with the knobs of each request in reach of {@link fetchWithKnobs}. */
function withKnobs(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return (request) => {
    const given = KNOB_HEADERS.flatMap((name): [string, string][] => {
      const value = request.headers.get(name);
      return value === null ? [] : [[name, value]];
    });
    return knobs.run(given, () => handler(request));
  };
}
