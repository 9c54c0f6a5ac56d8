/**
 * The partner's server, inside Storybook's dev server: the routes a host application adds with
 * `@service/react/server`, mounted as Vite middleware so that every story talks to the emulator
 * exactly as a partner's app talks to the service. The API key stays in Node; stories only see
 * the routes.
 *
 * - `POST /api/embed-session`: `createSessionHandler` (what `fetchEmbedSession()` posts to)
 * - `/api/service/chat/stream-chat-state`, `/api/service/chat/abort`: `createChatProxyHandler`
 * - `GET /api/data-token`: a data API token for the story viewer; `/api/data/v1/*`: the data API
 * - `GET /__service/config`: where the emulator is (`tenantUrl`, `dataUrl`), for the stories' provider
 *
 * The emulator is the one `npm start` runs (`STORYBOOK_SERVICE_URL`); without that variable (the
 * storybook project of `npm test`) the backend starts its own on a free port, with instant chat.
 */
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import { bundleTs } from '../scripts/run-ts.mjs';

import type * as backendModule from './service-backend.ts';
import type { ServiceBackend } from './service-backend.ts';

export type { StoryServiceConfig } from './service-backend.ts';

type BackendModule = typeof backendModule;

/** One backend per process, shared by every dev server that mounts the routes (the vitest projects run in one process). */
const SHARED = Symbol.for('@service/react/service-backend');
type Shared = { backend: Promise<ServiceBackend>; users: number };
const registry = globalThis as { [SHARED]?: Shared };

async function loadBackend(): Promise<ServiceBackend> {
  // Storybook evaluates main.ts as plain Node ESM, which cannot run the TypeScript sources: the
  // backend is bundled with esbuild first, as `npm run bench` does (scripts/run-ts.mjs).
  const outfile = await bundleTs('.storybook/service-backend.ts');
  const { startServiceBackend } = (await import(pathToFileURL(outfile).href)) as BackendModule;
  return startServiceBackend(process.env.STORYBOOK_SERVICE_URL);
}

/**
 * A Vite plugin mounting the partner routes on the dev server: Storybook's (`.storybook/main.ts`)
 * and the browser test project's (`vitest.config.ts`).
 */
export function serviceRoutes(): Plugin {
  return {
    name: 'service-routes',
    async configureServer(server) {
      const shared = (registry[SHARED] ??= { backend: loadBackend(), users: 0 });
      shared.users += 1;
      const backend = await shared.backend;
      // The backend lives as long as the last dev server that uses it.
      const closeServer = server.close.bind(server);
      server.close = async () => {
        shared.users -= 1;
        if (shared.users === 0 && registry[SHARED] === shared) {
          delete registry[SHARED];
          await backend.close();
        }
        await closeServer();
      };
      const { config } = backend;
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0];
        if (path === '/__service/config') {
          res.setHeader('Content-Type', 'application/json');
          res.setHeader('Cache-Control', 'no-store');
          res.end(JSON.stringify(config));
        } else if (path === config.embedSessionUrl) void backend.session(req, res, next);
        else if (path?.startsWith(`${config.chatUrl}/chat/`)) void backend.chat(req, res, next);
        else if (path === config.dataTokenUrl) void backend.dataToken(req, res, next);
        else if (path?.startsWith(`${config.dataProxyUrl}/`)) void backend.dataProxy(req, res, next);
        else next();
      });
    },
  };
}
