/**
 * One emulator per test file (or `describe`), started and closed by the helper itself, in the
 * manner of the AI SDK's `createTestServer`: a test file says what emulator it needs and uses it.
 *
 * ```ts
 * const emulator = useEmulator({ chatPace: 'instant' });
 * it('answers', async () => { await fetch(`${emulator.url}/...`); });
 * ```
 *
 * Also the home of `mintSession`, which several test files wrote for themselves.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { ADMIN_API_KEY, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator';

/** How long starting or closing one emulator may take: it builds its data set, on a machine that may be busy. */
const HOOK_TIMEOUT_MS = 30_000;

/**
 * Registers a `beforeAll` that starts an emulator with `options` and an `afterAll` that closes it,
 * and returns it. Its fields (`url`, `apiKey`, `context`, ...) can be read from the tests and
 * hooks that follow, never while the file is collected. Call it before the file's other hooks:
 * its `afterAll` then runs last, after theirs.
 */
export function useEmulator(options: EmulatorOptions = {}): RunningEmulator {
  let running: RunningEmulator | undefined;
  beforeAll(async () => {
    running = await startEmulator(options);
  }, HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await running?.close();
    running = undefined;
  }, HOOK_TIMEOUT_MS);
  return new Proxy({} as RunningEmulator, {
    get(_, key) {
      if (!running) throw new Error(`useEmulator: \`${String(key)}\` read outside the tests of its file`);
      const value: unknown = Reflect.get(running, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(running) : value;
    },
  });
}

/**
 * Mints an embed session over HTTP (generate-session, with the admin key) and returns its id;
 * fails the test unless the emulator answers 200.
 */
export async function mintSession(emulator: RunningEmulator, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${emulator.url}/api/v1/embed/generate-session`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return String(answer['sessionId']);
}
