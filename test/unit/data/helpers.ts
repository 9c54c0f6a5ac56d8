/** Shared helpers of the data view tests. */
import type { RunningEmulator } from '../../../src/emulator';

/**
 * jsdom's globals give a test file another realm's `Uint8Array` than Node's `TextEncoder`
 * returns, and jose (the emulator's JWTs) checks keys with `instanceof`: encode into this realm's
 * arrays. A no-op where the realms are one (plain Node).
 */
export function encodeInThisRealm(): void {
  const NodeTextEncoder = globalThis.TextEncoder;
  globalThis.TextEncoder = class extends NodeTextEncoder {
    override encode(input?: string): Uint8Array<ArrayBuffer> {
      return new Uint8Array(super.encode(input));
    }
  };
}

/** What the data API itself answers: the JSON of `/v1/load` and `/v1/meta`, or `{ schema, rows }` of `/v1/cubesql`. */
export async function rawData(
  emulator: RunningEmulator,
  token: string,
  path: '/v1/load' | '/v1/cubesql' | '/v1/meta',
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${emulator.dataUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  if (path !== '/v1/cubesql') return response.json();
  const lines = (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { schema?: unknown; data?: unknown[] });
  return { schema: lines[0]!.schema, rows: lines.flatMap((line) => line.data ?? []) };
}
