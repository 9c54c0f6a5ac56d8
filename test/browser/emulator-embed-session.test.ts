/**
 * The emulator's embed pages and their session, in real Chromium across origins, on an emulator
 * of this file alone whose clock only moves when a test says so: `session-expiring` a few minutes
 * before the token lapses (the page reads the clock every second), `session-expired` once it has,
 * and `set-session` renewing the page in place (no reload, its state kept) or refused with an error
 * of context `session`.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { SESSION_EXPIRED_EVENT_TYPE, SESSION_EXPIRING_LEAD_MS } from '../../src/emulator/embed/config';
import { EMBED_TOKEN_TTL_MS } from '../../src/emulator/state';
import { openEmbed, type OpenEmbed } from './emulator-embed-helpers';

const MINUTE = 60_000;

/** How many times each type arrived, unknown types included. */
const count = (embed: OpenEmbed, type: string): number => embed.events.filter((event) => event.type === type).length;

/** Opens the app on the clocked emulator at a workbook, counting the iframe's loads. */
async function openApp(): Promise<OpenEmbed & { loads: () => number }> {
  const embed = await openEmbed({ surface: 'app', deploymentId: 1 }, { clocked: true });
  let loads = 0;
  embed.iframe.addEventListener('load', () => (loads += 1));
  await embed.next('service:event:ready');
  embed.channel.send({ type: 'service:action:navigate', payload: { path: '/workbooks/sales-overview' } });
  await embed.state((state) => state.path === '/workbooks/sales-overview' && state.widgets.length > 0);
  await expect.poll(() => loads).toBe(1);
  return Object.assign(embed, { loads: () => loads });
}

describe('the page tells its session is ending, by the emulator clock', () => {
  it('session-expiring a few minutes ahead (with expiresAt), not earlier; session-expired at the end', async () => {
    const embed = await openEmbed({ surface: 'dashboard', publicId: 'sales-overview' }, { clocked: true });
    await embed.next('service:event:ready');
    // A minute before the lead: nothing yet, though the page reads the clock every second.
    await commands.advanceEmulatorClock(EMBED_TOKEN_TTL_MS - SESSION_EXPIRING_LEAD_MS - MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(count(embed, 'service:event:session-expiring')).toBe(0);

    await commands.advanceEmulatorClock(2 * MINUTE);
    const expiring = await embed.next('service:event:session-expiring');
    // About four minutes left, in the browser's time (the manual clock is the emulator's alone).
    const left = expiring.payload.expiresAt! - Date.now();
    expect(left).toBeGreaterThan(3 * MINUTE);
    expect(left).toBeLessThanOrEqual(4 * MINUTE);
    expect(count(embed, SESSION_EXPIRED_EVENT_TYPE)).toBe(0);

    await commands.advanceEmulatorClock(SESSION_EXPIRING_LEAD_MS);
    await expect.poll(() => count(embed, SESSION_EXPIRED_EVENT_TYPE), { timeout: 5_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Once each, however often the clock is read.
    expect(count(embed, 'service:event:session-expiring')).toBe(1);
    expect(count(embed, SESSION_EXPIRED_EVENT_TYPE)).toBe(1);
  });
});

describe('set-session renews the page in place', () => {
  it('a fresh session of the same viewer: ready again, no reload, the viewer stays where they were', async () => {
    const embed = await openApp();
    const before = embed.latest()!;
    const sessionId = await commands.mintClockedSession({ surface: 'app', deploymentId: 1 });
    const readies = count(embed, 'service:event:ready');
    embed.channel.send({ type: 'service:action:set-session', payload: { sessionId } });
    await expect.poll(() => count(embed, 'service:event:ready')).toBe(readies + 1);
    const after = await embed.state((state) => state.reason === 'set-session');
    expect(after.path).toBe(before.path);
    expect(after.heading).toBe(before.heading);
    expect(embed.loads()).toBe(1);

    // The old token lapses; the page queries with the new one and nothing expires.
    await commands.advanceEmulatorClock(EMBED_TOKEN_TTL_MS - MINUTE);
    const seen = embed.events.length;
    embed.channel.send({ type: 'service:action:refresh' });
    await embed.state(
      (state) => state.refreshCount === 1 && state.widgets.every((item) => item.status === 'ready'),
      seen,
    );
    expect(count(embed, SESSION_EXPIRED_EVENT_TYPE)).toBe(0);
    expect(embed.loads()).toBe(1);
  });

  it('a page whose session already ended takes a new one too', async () => {
    const embed = await openApp();
    await commands.advanceEmulatorClock(EMBED_TOKEN_TTL_MS + MINUTE);
    await expect.poll(() => count(embed, SESSION_EXPIRED_EVENT_TYPE), { timeout: 5_000 }).toBe(1);
    const sessionId = await commands.mintClockedSession({ surface: 'app', deploymentId: 1 });
    embed.channel.send({ type: 'service:action:set-session', payload: { sessionId } });
    await expect.poll(() => count(embed, 'service:event:ready')).toBe(2);
    const seen = embed.events.length;
    embed.channel.send({ type: 'service:action:refresh' });
    await embed.state(
      (state) => state.refreshCount === 1 && state.widgets.every((item) => item.status === 'ready'),
      seen,
    );
    expect(embed.latest()!.path).toBe('/workbooks/sales-overview');
    expect(embed.loads()).toBe(1);
  });

  it('a session of another viewer, or one already used, is refused with an error of context session', async () => {
    const embed = await openApp();
    const other = await commands.mintClockedSession(
      { surface: 'app', deploymentId: 1 },
      { externalId: 'someone-else@acme.test' },
    );
    embed.channel.send({ type: 'service:action:set-session', payload: { sessionId: other } });
    const refused = await embed.next('service:event:error', (event) => event.payload.context === 'session');
    expect(refused.payload).toMatchObject({ context: 'session', fatal: false, name: 'EmbedSessionError' });
    expect(refused.payload.message).toMatch(/another viewer/);

    embed.channel.send({ type: 'service:action:set-session', payload: { sessionId: embed.sessionId } });
    const used = await embed.next('service:event:error', (event) => /already been used/.test(event.payload.message));
    expect(used.payload.context).toBe('session');
    // Neither took: no second ready, the page and its old token carry on.
    expect(count(embed, 'service:event:ready')).toBe(1);
    const seen = embed.events.length;
    embed.channel.send({ type: 'service:action:refresh' });
    await embed.state(
      (state) => state.refreshCount === 1 && state.widgets.every((item) => item.status === 'ready'),
      seen,
    );
    expect(embed.loads()).toBe(1);
  });
});
