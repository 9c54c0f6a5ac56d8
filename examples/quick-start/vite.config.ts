import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { toNodeHandler } from '@service/react/server';
import { chatRoute, sessionRoute } from './service-routes.js';

// In development the Vite dev server is your whole back end: the two routes run as its
// middleware, on the page's own origin.
function serviceRoutes(): Plugin {
  return {
    name: 'service-routes',
    configureServer(server) {
      server.middlewares.use('/api/embed-session', toNodeHandler(sessionRoute));
      server.middlewares.use('/api/service/chat', toNodeHandler(chatRoute));
    },
  };
}

export default defineConfig({
  plugins: [react(), serviceRoutes()],
});
