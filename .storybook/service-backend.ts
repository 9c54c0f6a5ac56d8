/**
 * The partner's server for the stories, in Node: the emulator (or the one `npm start` runs) and
 * the host routes built with `@service/react/server`. Bundled and loaded by service-routes.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CHAT_FAULT_HEADER, CHAT_PACE_HEADER, startEmulator } from '../src/emulator';
import { ADMIN_API_KEY, AGENT_1, DEPLOYMENT_1, agentUrl, dataUrl } from '../src/emulator/world';
import { createChatProxyHandler, createSessionHandler, toNodeHandler, type NodeHandler } from '../src/server';

/** The viewer every story is signed in as: an external user of the emulator's tenant. */
export const STORY_VIEWER = 'storybook-viewer@acme.test';

/** What `GET /__service/config` answers. */
export interface StoryServiceConfig {
  tenantUrl: string;
  dataUrl: string;
  chatUrl: string;
  embedSessionUrl: string;
}

/** The routes, keyed by how a request is matched, and the config the stories read. */
export interface ServiceBackend {
  config: StoryServiceConfig;
  session: NodeHandler;
  chat: NodeHandler;
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
