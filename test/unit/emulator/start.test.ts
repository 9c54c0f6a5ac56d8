// @vitest-environment node
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ServiceConfigError } from '../../../src/core/errors';
import { ADMIN_API_KEY, createEmulatorApp, startEmulator } from '../../../src/emulator';
import { dataToken } from './helpers';

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

describe('startEmulator', () => {
  it('resolves ready on loopback with url, aiUrl, dataUrl and the unscoped admin key', async () => {
    const emulator = await startEmulator();
    try {
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emulator.aiUrl).toBe(`${emulator.url}/api/v1/public/acme/agents/1`);
      expect(emulator.dataUrl).toBe(`${emulator.url}/data/1`);
      expect(emulator.apiKey).toBe(ADMIN_API_KEY);
      // Ready means the data set is built: the first query answers at once with all rows.
      const response = await fetch(`${emulator.dataUrl}/v1/cubesql`, {
        method: 'POST',
        headers: { authorization: await dataToken() },
        body: JSON.stringify({ query: 'SELECT COUNT(*) FROM orders' }),
      });
      expect(await response.text()).toContain('[["120000"]]');
    } finally {
      await emulator.close();
    }
  });

  it('close() drops open connections and frees the port', async () => {
    const emulator = await startEmulator();
    const port = Number(new URL(emulator.url).port);
    // A keep-alive connection that would otherwise hold close() open.
    await fetch(`${emulator.url}/nowhere`, { headers: { connection: 'keep-alive' } });
    await emulator.close();
    expect(await canListen(port)).toBe(true);
    await expect(fetch(`${emulator.url}/nowhere`)).rejects.toThrow();
    await emulator.close(); // idempotent
  });

  it('refuses a non-loopback host with a clear ServiceConfigError', async () => {
    for (const host of ['0.0.0.0', '192.168.1.10', 'example.com', '::']) {
      const error = await startEmulator({ host }).catch((caught: unknown) => caught);
      expect(ServiceConfigError.isInstance(error), host).toBe(true);
      expect((error as ServiceConfigError).code).toBe('non_loopback_host');
      expect((error as Error).message).toContain('loopback');
    }
  });

  it('listens on the port asked for', async () => {
    const probe = await startEmulator();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const emulator = await startEmulator({ port, host: 'localhost' });
    try {
      expect(emulator.url).toBe(`http://localhost:${port}`);
    } finally {
      await emulator.close();
    }
  });

  it('state is in memory and fresh for every start', async () => {
    const first = await startEmulator();
    first.context.state.dashboards.delete('sales-overview');
    first.context.state.threads.set('x', {
      chatId: 'x',
      agentId: '1',
      deploymentId: 1,
      owner: { kind: 'internal', userId: 1 },
      messages: [],
      createdAt: 0,
      updatedAt: 0,
    });
    await first.close();
    const second = await startEmulator();
    try {
      expect(second.context.state.dashboards.has('sales-overview')).toBe(true);
      expect(second.context.state.threads.size).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('createEmulatorApp serves the same endpoints without a socket (app.request)', async () => {
    const emulator = createEmulatorApp();
    try {
      const response = await emulator.app.request('/data/1/v1/meta', { headers: { authorization: await dataToken() } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { cubes: unknown[] }).cubes).toHaveLength(3);
    } finally {
      await emulator.close();
    }
  });
});
