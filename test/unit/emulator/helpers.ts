/** Shared helpers of the emulator tests: real sockets, real tokens. */
import { signDeploymentToken, WORLD, type RunningEmulator } from '../../../src/emulator';

/** A data API JWT for deployment 1 with these claims. */
export function dataToken(claims: Record<string, unknown> = {}, deploymentId = 1): Promise<string> {
  return signDeploymentToken(WORLD, { deploymentId, claims });
}

/** Parses an NDJSON body into its lines. */
export function ndjson(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** POSTs JSON to `{dataUrl}{path}` with the raw JWT; returns status and parsed body or lines. */
export async function postData(
  emulator: RunningEmulator,
  path: string,
  body: unknown,
  options: { token?: string; headers?: Record<string, string>; dataUrl?: string } = {},
): Promise<{
  status: number;
  text: string;
  json: () => unknown;
  lines: () => Record<string, unknown>[];
  headers: Headers;
}> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.token !== undefined) headers['authorization'] = options.token;
  const response = await fetch(`${options.dataUrl ?? emulator.dataUrl}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    json: () => JSON.parse(text) as unknown,
    lines: () => ndjson(text),
    headers: response.headers,
  };
}

/** Runs SQL through `/v1/cubesql` and returns its rows (throws on an error line). */
export async function sqlRows(emulator: RunningEmulator, token: string, query: string): Promise<(string | null)[][]> {
  const { lines } = await postData(emulator, '/v1/cubesql', { query }, { token });
  const rows: (string | null)[][] = [];
  for (const line of lines()) {
    if ('error' in line) throw new Error(String(line['error']));
    if ('data' in line) rows.push(...(line['data'] as (string | null)[][]));
  }
  return rows;
}

/** Runs one JSON query through `/v1/load`; throws unless 200. */
export async function loadData(
  emulator: RunningEmulator,
  token: string,
  query: unknown,
): Promise<{ data: Record<string, string | null>[]; [key: string]: unknown }> {
  const result = await postData(emulator, '/v1/load', { query }, { token });
  if (result.status !== 200) throw new Error(`load answered ${result.status}: ${result.text}`);
  return result.json() as { data: Record<string, string | null>[] };
}

/** Options of {@link requestJson}. */
export interface RequestJsonOptions {
  /** Default `GET`. */
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, instead of `body` (malformed JSON, empty bodies). */
  raw?: string;
  /** Full `Authorization` value; `null` sends none. */
  authorization?: string | null;
  /** Default `application/json` when there is a body; `null` sends none. */
  contentType?: string | null;
}

/** Calls the emulator over a real socket and returns the status and the JSON body (`{}` when empty). */
export async function requestJson(
  emulator: RunningEmulator,
  path: string,
  options: RequestJsonOptions = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (options.authorization != null) headers['authorization'] = options.authorization;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const contentType =
    options.contentType === undefined ? (body === undefined ? null : 'application/json') : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(`${emulator.url}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
