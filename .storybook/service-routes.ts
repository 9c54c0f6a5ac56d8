/**
 * The partner's server, inside Storybook's dev server: the routes a host application adds with
 * `@service/react/server`, mounted as Vite middleware so that every story talks to the emulator
 * exactly as a partner's app talks to the service. The API key stays in Node; stories only see
 * the routes.
 *
 * - `POST /api/embed-session`: `createSessionHandler` (what `fetchEmbedSession()` posts to)
 * - `/api/service/chat/stream-chat-state`, `/api/service/chat/abort`: `createChatProxyHandler`
 * - `GET /__service/config`: where the emulator is (`tenantUrl`, `dataUrl`), for the stories' provider
 *
 * The emulator is the one `npm start` runs (`STORYBOOK_SERVICE_URL`); without that variable (the
 * storybook project of `npm test`) the backend starts its own on a free port, with instant chat.
 */
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { bundleTs } from '../scripts/run-ts.mjs';

import type * as backendModule from './service-backend.ts';

export type { StoryServiceConfig } from './service-backend.ts';

type BackendModule = typeof backendModule;

export function serviceRoutes(): Plugin {
  return {
    name: 'service-routes',
    async configureServer(server) {
      // Storybook evaluates main.ts as plain Node ESM, which cannot run the TypeScript sources:
      // the backend is bundled with esbuild first, as `npm run bench` does (scripts/run-ts.mjs).
      const outfile = await bundleTs('.storybook/service-backend.ts');
      const { startServiceBackend } = (await import(pathToFileURL(outfile).href)) as BackendModule;
      const started = await startServiceBackend(process.env.STORYBOOK_SERVICE_URL);
      // The backend lives as long as this dev server (Storybook's, or the vitest project's).
      const closeServer = server.close.bind(server);
      server.close = async () => {
        await started.close();
        await closeServer();
      };
      const { config } = started;
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0];
        if (path === '/__service/config') {
          res.setHeader('Content-Type', 'application/json');
          res.setHeader('Cache-Control', 'no-store');
          res.end(JSON.stringify(config));
        } else if (path === config.embedSessionUrl) void started.session(req, res, next);
        else if (path?.startsWith(`${config.chatUrl}/chat/`)) void started.chat(req, res, next);
        else next();
      });
    },
  };
}
