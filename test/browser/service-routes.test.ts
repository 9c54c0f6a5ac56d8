/**
 * The partner routes the browser project mounts on the test page's origin
 * (.storybook/service-routes.ts): an embed session from createSessionHandler and a chat answer
 * through createChatProxyHandler, both against a real emulator, with no credential in the page.
 */
import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../src/core';

interface Config {
  tenantUrl: string;
  chatUrl: string;
  embedSessionUrl: string;
}

async function config(): Promise<Config> {
  return (await (await fetch('/__service/config')).json()) as Config;
}

describe('partner routes on the test page origin', () => {
  it('mints a single-use embed session through createSessionHandler', async () => {
    const { embedSessionUrl, tenantUrl } = await config();
    expect(new URL(tenantUrl).origin).not.toBe(location.origin);
    const response = await fetch(embedSessionUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ surface: 'dashboard', publicId: 'sales-overview' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { sessionId: string };
    expect(body.sessionId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('streams a chat answer through createChatProxyHandler', async () => {
    const { chatUrl } = await config();
    const client = createChatClient({ url: chatUrl });
    const ids: string[] = [];
    for await (const line of client.stream({ input: 'How many orders are there?' })) ids.push(line.id);
    expect(ids[0]).toBe('__cutoff__');
    expect(ids.at(-1)).toBe('__usage__');
    expect(ids.length).toBeGreaterThan(3);
  });
});
