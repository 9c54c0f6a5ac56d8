// The smallest host for the library: Vite's dev server with the two routes a partner's server
// needs, talking to the emulator that `npx service-emulator` runs on port 4010. The API key is
// used here, in Node, and never reaches the page.
import { defineConfig, type Plugin } from 'vite';
import { createChatProxyHandler, createSessionHandler, toNodeHandler } from '@service/react/server';

const EMULATOR = 'http://127.0.0.1:4010';
const API_KEY = 'svc_admin_acme_all_deployments_0001'; // the emulator's admin key; yours comes from the environment
const VIEWER = 'ann@partner.example'; // your server decides who the viewer is, from its own sign-in

function serviceRoutes(): Plugin {
  return {
    name: 'service-routes',
    configureServer(server) {
      server.middlewares.use(
        '/api/embed-session',
        toNodeHandler(
          createSessionHandler({
            baseUrl: EMULATOR,
            apiKey: API_KEY,
            deploymentId: 1,
            resolve: () => ({ externalId: VIEWER }),
          }),
        ),
      );
      server.middlewares.use(
        '/api/service/chat',
        toNodeHandler(
          createChatProxyHandler({
            aiUrl: `${EMULATOR}/api/v1/public/acme/agents/1`,
            apiKey: API_KEY,
            resolveSessionSettings: () => ({ externalId: VIEWER }),
          }),
        ),
      );
    },
  };
}

export default defineConfig({ plugins: [serviceRoutes()] });
