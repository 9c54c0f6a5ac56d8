/**
 * A browser app on another origin calls the emulator's data and chat APIs with a token,
 * as partners' apps call the service: real Chromium, real CORS preflights (the `Authorization`
 * and `X-Service-Auth-Token` headers make every request preflighted), and the data API through
 * the published client `@cubejs-client/core`.
 */
import cube from '@cubejs-client/core';
import { describe, expect, inject, it } from 'vitest';
import { commands } from 'vitest/browser';

const emulatorUrl = inject('emulatorUrl');

describe('the emulator called from another origin', () => {
  it('the test page is on another origin than the emulator', () => {
    expect(new URL(emulatorUrl).origin).not.toBe(location.origin);
  });

  it('@cubejs-client/core loads, pivots and reads meta through CORS', async () => {
    const token = await commands.signDataToken();
    const api = cube(token, { apiUrl: `${emulatorUrl}/data/1/v1` });
    const resultSet = await api.load({ measures: ['orders.count'], dimensions: ['orders.status'] });
    expect(resultSet.tablePivot().length).toBeGreaterThan(1);
    const posted = await cube(token, { apiUrl: `${emulatorUrl}/data/1/v1`, method: 'POST' }).load({
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last quarter' }],
    });
    expect(Number(posted.tablePivot()[0]?.['orders.count'])).toBeGreaterThan(0);
    expect((await api.meta()).cubes.length).toBe(3);
  });

  it('chat streams to a page on another origin with a deployment token', async () => {
    const token = await commands.signDataToken({ claims: { externalId: 'cross-origin-user', scope: ['chat'] } });
    const response = await fetch(`${emulatorUrl}/api/v1/public/acme/agents/1/chat/stream-chat-state`, {
      method: 'POST',
      headers: {
        'X-Service-Auth-Token': token,
        'Content-Type': 'application/json',
        'x-request-id': 'cross-origin-1',
        'x-emulator-pace': 'instant',
      },
      body: JSON.stringify({ input: 'orders by status' }),
    });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id?: string });
    expect(lines[0]?.id).toBe('__cutoff__');
    expect(lines.at(-1)?.id).toBe('__usage__');
  });
});
