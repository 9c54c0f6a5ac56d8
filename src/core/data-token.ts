/**
 * `fetchDataToken`: the browser's side of the data-token route (`createDataTokenHandler` of
 * `@service/react/server`). A token function for the data client and `ServiceProvider`'s `data`
 * that keeps the token until shortly before it expires and asks again when the data API refuses it.
 *
 * @module
 */
import type { DataTokenFunction } from './data-client';
import { ConnectionLostError, ServiceError } from './errors';
import { checkOptions, httpError, isAmount } from './http';
import { DEFAULT_DATA_TOKEN_ROUTE, parseDataTokenResponse } from './protocol/host-routes';

/**
 * How long before its `expiresAt` a token is no longer handed out, by default: a request sent
 * with it must still reach the data API in time, whatever the clocks of browser and server say.
 */
export const DEFAULT_DATA_TOKEN_RENEW_BEFORE_MS = 30_000;

/** Options of {@link fetchDataToken}. */
export interface FetchDataTokenOptions {
  /**
   * How long before `expiresAt` a new token is fetched instead of the kept one, in milliseconds.
   * Default {@link DEFAULT_DATA_TOKEN_RENEW_BEFORE_MS} (30 s).
   */
  renewBeforeMs?: number;
  /** `fetch` to use. Default: the global `fetch`, looked up at call time. */
  fetch?: typeof fetch;
}

/**
 * Returns a token function for `ServiceProvider`'s `data` (or `createDataClient`) that asks `url`
 * on your own server (`GET`, with the page's cookies) for the viewer's data API token. The route
 * decides who the viewer is from its own sign-in; the browser never says.
 *
 * The token is kept and handed out again until `renewBeforeMs` before its `expiresAt`; requests
 * made while one is being fetched share it. When the data API refuses a token (the client then
 * asks with `{ refresh: true }`), the kept one is dropped and a new one fetched. A route that
 * answers `{ token }` without `expiresAt` is asked for every request.
 *
 * Failures are typed: `ServiceAuthError` when the route answers 401 or 403 (nobody is signed
 * in), `ServiceHttpError` for other statuses, `ServiceError` with code `invalid_response` for
 * an answer without a token, `ConnectionLostError` when the route cannot be reached.
 *
 * ```tsx
 * <ServiceProvider data={{ url: dataUrl, token: fetchDataToken() }}>…</ServiceProvider>
 * ```
 * @param url The route. Default `/api/data-token`.
 */
export function fetchDataToken(
  url: string = DEFAULT_DATA_TOKEN_ROUTE,
  options: FetchDataTokenOptions = {},
): DataTokenFunction {
  const renewBeforeMs = options.renewBeforeMs ?? DEFAULT_DATA_TOKEN_RENEW_BEFORE_MS;
  checkOptions('fetchDataToken', [
    [typeof url === 'string' && url.trim() !== '', 'url: must be the data-token route, such as /api/data-token'],
    [isAmount(renewBeforeMs), 'renewBeforeMs: must be a number of milliseconds, 0 or more'],
  ]);
  let kept: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function ask(): Promise<string> {
    const doFetch = options.fetch ?? globalThis.fetch;
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
        cache: 'no-store',
      });
    } catch (error) {
      throw new ConnectionLostError(`Could not reach the data-token route ${url}`, { attempts: 0, cause: error });
    }
    if (!response.ok) throw await httpError(response, `The data-token route ${url}`, [401, 403]);
    const body: unknown = await response.json().catch(() => undefined);
    const parsed = parseDataTokenResponse(body);
    if (!parsed.ok)
      throw new ServiceError(`The data-token route ${url} answered without a token: ${parsed.problems.join('; ')}`, {
        code: 'invalid_response',
        status: response.status,
      });
    const { token, expiresAt } = parsed.value;
    kept = expiresAt === undefined ? undefined : { token, expiresAt };
    return token;
  }

  return (request) => {
    if (request?.refresh) kept = undefined;
    if (kept && Date.now() < kept.expiresAt - renewBeforeMs) return kept.token;
    kept = undefined;
    // Every request that needs a token meanwhile waits for this one answer.
    pending ??= ask().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
