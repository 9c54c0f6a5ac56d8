/** Shared helpers of the data view tests: the emulator of a file, real fetches that record, raw answers. */
import { afterAll, beforeAll } from 'vitest';
import type { DataSettings } from '../../../src/core/data-query';
import {
  SLOW_QUERY_HEADER,
  WORLD,
  signDeploymentToken,
  startEmulator,
  type RunningEmulator,
} from '../../../src/emulator';

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
  env: TestEmulator,
  path: '/v1/load' | '/v1/cubesql' | '/v1/meta',
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${env.emulator.dataUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: env.token, 'content-type': 'application/json' },
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

/** The emulator of a test file, started before its tests and closed after them, and a viewer's token. */
export interface TestEmulator {
  /** The running emulator (read inside tests). */
  readonly emulator: RunningEmulator;
  /** A data API token of deployment 1 for the viewer `ann`. */
  readonly token: string;
  /** Data settings for the emulator's data API with that token, and `extra` over them. */
  settings(extra?: Partial<DataSettings>): DataSettings;
}

/** Registers `beforeAll` / `afterAll` that start and close an emulator for the calling test file. */
export function startTestEmulator(): TestEmulator {
  let emulator: RunningEmulator | undefined;
  let token = '';
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    token = await signDeploymentToken(WORLD, { deploymentId: 1, claims: { externalId: 'ann' } });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return {
    get emulator() {
      if (!emulator) throw new Error('the emulator starts in beforeAll: read it inside a test');
      return emulator;
    },
    get token() {
      return token;
    },
    settings(extra = {}) {
      return { url: this.emulator.dataUrl, token, ...extra };
    },
  };
}

/**
 * The real `fetch`, recording each request it sends (its signal and `Authorization`); `slow`
 * marks requests for the emulator's `Continue wait` (that many times), `hold` never answers.
 */
export function recordingFetch(options: { slow?: number; hold?: boolean } = {}): {
  fetch: typeof fetch;
  sent: { url: string; signal: AbortSignal | undefined; authorization: string | null }[];
} {
  const sent: { url: string; signal: AbortSignal | undefined; authorization: string | null }[] = [];
  const fetcher: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (options.slow !== undefined) headers.set(SLOW_QUERY_HEADER, String(options.slow));
    sent.push({ url: String(input), signal: init?.signal ?? undefined, authorization: headers.get('authorization') });
    return options.hold ? new Promise<Response>(() => {}) : fetch(input, { ...init, headers });
  };
  return { fetch: fetcher, sent };
}
