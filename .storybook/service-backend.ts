/**
 * The partner's server for the stories, in Node: the emulator (or the one `npm start` runs) and
 * the host routes built with `@service/react/server`. Bundled and loaded by service-routes.ts.
 */
import { startEmulator } from '../src/emulator';
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
      createChatProxyHandler({
        aiUrl: agentUrl(baseUrl, AGENT_1.id),
        apiKey: ADMIN_API_KEY,
        resolveSessionSettings: () => ({ externalId: STORY_VIEWER }),
      }),
    ),
    close: async () => {
      await emulator?.close();
    },
  };
}
