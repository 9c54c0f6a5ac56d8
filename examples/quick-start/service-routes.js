// The two routes your server adds, used by the Vite dev server (vite.config.ts) and by the
// production server (server.js) alike. They hold the API key: it is used here, in Node, and never
// reaches the page.
import { createChatProxyHandler, createSessionHandler } from '@service/react/server';

// The emulator's values (`npx service-emulator`); in production they come from the environment.
const SERVICE_URL = process.env.SERVICE_URL ?? 'http://127.0.0.1:4010';
const AI_URL = process.env.SERVICE_AI_URL ?? `${SERVICE_URL}/api/v1/public/acme/agents/1`;
const API_KEY = process.env.SERVICE_API_KEY ?? 'svc_admin_acme_all_deployments_0001';
const VIEWER = 'ann@partner.example'; // your server decides who the viewer is, from its own sign-in

/** POST /api/embed-session: a single-use embed session for each iframe load. */
export const sessionRoute = createSessionHandler({
  baseUrl: SERVICE_URL,
  apiKey: API_KEY,
  deploymentId: 1,
  resolve: () => ({ externalId: VIEWER }),
});

/** POST /api/service/chat/stream-chat-state and /api/service/chat/abort: the chat proxy. */
export const chatRoute = createChatProxyHandler({
  aiUrl: AI_URL,
  apiKey: API_KEY,
  resolveSessionSettings: () => ({ externalId: VIEWER }),
});
