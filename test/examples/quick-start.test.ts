/**
 * examples/quick-start as the guide runs it: type-checked as its `npm run build` does (`tsc -b`),
 * built with `vite build`, and served by its production server (server.js: the built page and the
 * same two routes, on one origin), with a real Chromium on the page and the emulator as the
 * service. The Vite dev server's routes (vite.config.ts) are called too.
 */
import type { Browser } from 'playwright';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNdjson } from '../../src/core';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { checkFirstHour, freePort, launchBrowser, run, startProcess, type RunningProcess } from './apps';

const APP = 'examples/quick-start';
const bin = (path: string) => join(process.cwd(), 'node_modules', path);

let emulator: RunningEmulator;
let browser: Browser;
let server: RunningProcess;
let appUrl: string;

/** The server side's environment: the emulator instead of the defaults (port 4010). */
const serverEnv = () => ({ SERVICE_URL: emulator.url, SERVICE_API_KEY: emulator.apiKey });

beforeAll(async () => {
  [emulator, browser] = await Promise.all([startEmulator({ port: 0 }), launchBrowser()]);
  await run([bin('typescript/bin/tsc'), '-b'], { cwd: APP });
  await run([bin('vite/bin/vite.js'), 'build'], { cwd: APP, env: { VITE_SERVICE_URL: emulator.url } });
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  server = await startProcess(['server.js'], { cwd: APP, env: { ...serverEnv(), PORT: String(port) }, url: appUrl });
});

afterAll(async () => {
  await server?.stop();
  await browser?.close();
  await emulator?.close();
});

describe('examples/quick-start', () => {
  it('vite build served by server.js: the dashboard is ready, an answer comes with a chart, Stop ends the next one aborted', async () => {
    await checkFirstHour(browser, `${appUrl}/`);
  });

  it('the Vite dev server serves the same routes (vite.config.ts, with react())', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dev = await startProcess(
      [bin('vite/bin/vite.js'), '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
      {
        cwd: APP,
        env: serverEnv(),
        url,
      },
    );
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url },
          body: JSON.stringify(body),
        });
      const session = await post('/api/embed-session', { surface: 'dashboard', publicId: 'sales-overview' });
      expect(session.status).toBe(200);
      expect(((await session.json()) as { sessionId: string }).sessionId).toMatch(/^[0-9a-f]{32}$/);
      const answer = await post('/api/service/chat/stream-chat-state', { input: 'How many orders are there?' });
      expect(answer.status).toBe(200);
      const ids: string[] = [];
      for await (const line of readNdjson(answer.body!)) ids.push((line as { id: string }).id);
      expect(ids[0]).toBe('__cutoff__');
      expect(ids.at(-1)).toBe('__usage__');
      // The React plugin is in the config: the page gets its Fast Refresh preamble.
      expect(await (await fetch(`${url}/`)).text()).toContain('/@react-refresh');
    } finally {
      await dev.stop();
    }
  });
});
