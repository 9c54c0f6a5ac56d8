// The production server: the app `vite build` wrote to dist/ and the same two routes as in
// development, on one origin. `npm run build`, then `npm start`.
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { chatRoute, sessionRoute } from './service-routes.js';

const app = new Hono();
app.post('/api/embed-session', (c) => sessionRoute(c.req.raw));
app.post('/api/service/chat/*', (c) => chatRoute(c.req.raw));
app.use('/*', serveStatic({ root: './dist' }));

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
serve({ fetch: app.fetch, port, hostname }, (info) => console.log(`Listening on http://${hostname}:${info.port}`));
