// @vitest-environment node
/**
 * How the chat client paces its resends against a service that drops every connection, over real
 * sockets. The client's clock and timers are fake (`Date`, `setTimeout`): each wait it announces
 * through `onResubscribe` is passed at once, so a minute of backoff takes no time and no
 * assertion reads a wall clock. The scripted server keeps no timers of its own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChatClient, DEFAULT_RESUBSCRIBE, type ChatStreamLine, type ResubscribeOptions } from '../../../src/core';
import { ConnectionLostError, ServiceError } from '../../../src/core/errors';
import { startScriptedChatServer, type ConnectionScript, type ScriptedChatServer } from '../../helpers/chat-server';
import { RECONNECT_SCRIPTS } from '../../helpers/hostile-corpus';

let server: ScriptedChatServer | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

/**
 * Streams one answer from a server playing `script`; every announced wait passes at once on the
 * fake clock; `onLine` runs on each line the stream yields before the next is read. Returns the
 * waits, the ids yielded, the error that ended the stream, and how long it took on the fake clock.
 */
async function play(
  script: ConnectionScript,
  resubscribe?: ResubscribeOptions,
  onLine?: (id: string) => Promise<void>,
) {
  server = await startScriptedChatServer(script);
  const delays: number[] = [];
  const client = createChatClient({
    url: server.url,
    auth: { token: 'token-alice' },
    ...(resubscribe ? { resubscribe } : {}),
    onResubscribe: (event) => {
      delays.push(event.delayMs);
      // The wait's timer is set right after this call returns: pass it then.
      queueMicrotask(() => void vi.advanceTimersByTimeAsync(event.delayMs));
    },
  });
  const started = Date.now();
  const ids: string[] = [];
  let error: unknown;
  try {
    for await (const line of client.stream({ input: 'Hello' }) as AsyncIterable<ChatStreamLine>) {
      if (!('id' in line)) continue;
      ids.push(line.id);
      await onLine?.(line.id);
    }
  } catch (caught) {
    error = caught;
  }
  return { delays, ids, error, elapsed: Date.now() - started, connections: server.connections() };
}

/** Step `attempt` of the default backoff: 0.5 s doubled per resend, at most 10 s. */
const step = (attempt: number) => Math.min(10_000, 500 * 2 ** (attempt - 1));

describe('resubscribe pacing against a service that drops every connection', () => {
  it('backs off from 0.5 s to 10 s although every connection brings a new line, and gives up within 60 s', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const run = await play(RECONNECT_SCRIPTS.oneNewLinePerConnection);
    expect(run.delays).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000]);
    expect(ConnectionLostError.isInstance(run.error) && run.error instanceof ServiceError).toBe(true);
    expect(run.error).toMatchObject({
      code: 'connection_lost',
      attempts: 9,
      message: expect.stringMatching(/budgetMs/),
    });
    expect(run.connections).toBe(10);
    expect(run.elapsed).toBeLessThanOrEqual(DEFAULT_RESUBSCRIBE.budgetMs);
    // Each connection brought one new line, yielded once.
    expect(run.ids.filter((id) => id.startsWith('m'))).toEqual(Array.from({ length: 10 }, (_, index) => `m${index}`));
  });

  it('with the shortest jitter: half of each step, still bounded by the budget', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const run = await play(RECONNECT_SCRIPTS.oneNewLinePerConnection);
    expect(run.delays).toEqual([250, 500, 1000, 2000, 4000, ...Array<number>(10).fill(5000)]);
    expect(run.connections).toBe(16);
    expect(ConnectionLostError.isInstance(run.error)).toBe(true);
  });

  it('with random jitter: each wait between half its step and the step, none over 10 s, the run within 60 s', async () => {
    const run = await play(RECONNECT_SCRIPTS.oneNewLinePerConnection);
    run.delays.forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual(step(index + 1) / 2);
      expect(delay).toBeLessThanOrEqual(step(index + 1));
    });
    expect(run.delays.reduce((sum, delay) => sum + delay, 0)).toBeLessThanOrEqual(60_000);
    expect(run.connections).toBeLessThanOrEqual(16);
    expect(ConnectionLostError.isInstance(run.error)).toBe(true);
  });

  it('the numbers are options: first step, largest step and budget', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const run = await play(RECONNECT_SCRIPTS.oneNewLinePerConnection, {
      baseDelayMs: 100,
      maxDelayMs: 300,
      budgetMs: 1000,
    });
    expect(run.delays).toEqual([100, 200, 300, 300]);
    expect(run.error).toMatchObject({ code: 'connection_lost', attempts: 4 });
  });

  it('a connection that stays open healthyMs starts a new run from the first step', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const run = await play(RECONNECT_SCRIPTS.heldThirdConnection, undefined, async (id) => {
      // The third connection's new line: the connection stays open that long, then drops.
      if (id !== 'm2') return;
      await vi.advanceTimersByTimeAsync(DEFAULT_RESUBSCRIBE.healthyMs);
      server?.release();
    });
    expect(run.delays.slice(0, 5)).toEqual([500, 1000, 500, 1000, 2000]);
    expect(ConnectionLostError.isInstance(run.error)).toBe(true);
  });

  it('resends that bring nothing new still end after `retries`', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const run = await play(RECONNECT_SCRIPTS.nothingNew);
    expect(run.delays).toEqual([500, 1000, 2000]);
    expect(run.error).toMatchObject({ code: 'connection_lost', attempts: 3 });
  });

  it('refuses a budget or healthy time that is not a number of milliseconds', () => {
    for (const resubscribe of [{ budgetMs: -1 }, { healthyMs: Number.NaN }]) {
      expect(() => createChatClient({ url: 'http://127.0.0.1:9/agent', resubscribe })).toThrow(/resubscribe/);
    }
  });
});
