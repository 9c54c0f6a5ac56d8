// @vitest-environment node
/**
 * How the CLI stops (`src/emulator/shutdown.ts`): Ctrl+C never hangs, whatever close() does. The
 * CLI itself is run with a real signal in cli.test.ts; here close() is made to hang or fail.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SHUTDOWN_DEADLINE_MS, stopOnSignals, type ShutdownHost } from '../../../src/emulator/shutdown';

/** A process stand-in that records what the CLI would do, and can send it signals. */
function fakeHost() {
  const listeners = new Map<NodeJS.Signals, ((signal: NodeJS.Signals) => void)[]>();
  const exits: number[] = [];
  let output = '';
  let errors = '';
  const host: ShutdownHost = {
    on(signal, listener) {
      listeners.set(signal, [...(listeners.get(signal) ?? []), listener]);
    },
    exit: (code) => exits.push(code),
    write: (text) => (output += text),
    writeError: (text) => (errors += text),
  };
  const send = (signal: NodeJS.Signals) => {
    for (const listener of listeners.get(signal) ?? []) listener(signal);
  };
  return { host, send, exits, output: () => output, errors: () => errors };
}

describe('stopOnSignals', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('closes on SIGINT and exits 0 once closed', async () => {
    const { host, send, exits, output } = fakeHost();
    let closes = 0;
    stopOnSignals(async () => void (closes += 1), host);
    send('SIGINT');
    await vi.advanceTimersByTimeAsync(0);
    expect(closes).toBe(1);
    expect(exits).toEqual([0]);
    expect(output()).toContain('SIGINT: stopping');
  });

  it('SIGTERM stops it the same way', async () => {
    const { host, send, exits } = fakeHost();
    stopOnSignals(async () => undefined, host);
    send('SIGTERM');
    await vi.advanceTimersByTimeAsync(0);
    expect(exits).toEqual([0]);
  });

  it(`a close() that hangs: exits 1 after SHUTDOWN_DEADLINE_MS (${SHUTDOWN_DEADLINE_MS} ms), not before`, async () => {
    const { host, send, exits, errors } = fakeHost();
    stopOnSignals(() => new Promise<void>(() => undefined), host);
    send('SIGINT');
    await vi.advanceTimersByTimeAsync(SHUTDOWN_DEADLINE_MS - 1);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(errors()).toContain(`did not close within ${SHUTDOWN_DEADLINE_MS} ms`);
  });

  it('the deadline can be set', async () => {
    const { host, send, exits } = fakeHost();
    stopOnSignals(() => new Promise<void>(() => undefined), host, { deadlineMs: 50 });
    send('SIGINT');
    await vi.advanceTimersByTimeAsync(50);
    expect(exits).toEqual([1]);
  });

  it('a second signal exits 130 at once, and close() runs only once', async () => {
    const { host, send, exits, errors } = fakeHost();
    let closes = 0;
    stopOnSignals(() => {
      closes += 1;
      return new Promise<void>(() => undefined);
    }, host);
    send('SIGINT');
    send('SIGTERM');
    expect(exits).toEqual([130]);
    expect(closes).toBe(1);
    expect(errors()).toContain('SIGTERM again');
  });

  it('a close() that fails exits 1 with its error, and no deadline fires later', async () => {
    const { host, send, exits, errors } = fakeHost();
    stopOnSignals(() => Promise.reject(new Error('the port would not close')), host);
    send('SIGINT');
    await vi.advanceTimersByTimeAsync(SHUTDOWN_DEADLINE_MS * 2);
    expect(exits).toEqual([1]);
    expect(errors()).toContain('the port would not close');
  });
});
