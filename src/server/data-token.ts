/**
 * The data API token of a viewer: `createDataToken` signs one, `createDataTokenHandler` is the
 * host application's route that gives one to the browser (`fetchDataToken` of `@service/react`
 * asks it).
 *
 * The token is a JWT signed HS256 with the deployment's API secret (interface §5: the data API
 * takes it raw in `Authorization`); its claims are the viewer's security context, so the data
 * API applies row-level security to every query. The secret never leaves the server, and the
 * browser never says who the viewer is: the claims come from the host's own sign-in (`resolve`).
 *
 * Signed with WebCrypto (`crypto.subtle`), present in Node 20, edge runtimes and workers: no
 * JWT library is needed.
 *
 * @module
 */
import { ServiceConfigError, ServiceValidationError } from '../core/errors';
import { checkOptions, isAmount } from '../core/http';
import type { DataTokenResponse } from '../core/protocol/host-routes';
import type { ServiceErrorCode } from '../core/protocol/error-codes';
import { isRecord } from '../core/protocol/shared';
import type { RouteHandler } from './session-handler';
import {
  errorAnswer,
  isResponse,
  jsonAnswer,
  refuseForeignRequest,
  report,
  resolveAllowedOrigins,
  withSafeHeaders,
  type HandlerErrorListener,
} from './transport';

/** Lifetime of a data token by default: ten minutes. `fetchDataToken` asks for a new one in time. */
export const DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS = 600;

/**
 * The longest lifetime a data token may be given: one day. A token in a browser can be copied;
 * a short life bounds what a copy is worth.
 */
export const MAX_DATA_TOKEN_EXPIRES_IN_SECONDS = 86_400;

/**
 * Claims of a data token: the viewer's security context, as the deployment's data model reads
 * it (for example `{ externalId, userAttributes: { region } }`). JSON values only. `iat` and
 * `exp` are set by the signer.
 */
export type DataTokenClaims = Record<string, unknown>;

/** The deployment's API secret: text, or its bytes. */
export type DataTokenSecret = string | Uint8Array;

/** Options of {@link createDataToken}. */
export interface CreateDataTokenOptions {
  /** The deployment's API secret, which signs the token (HS256). Server-side only. */
  secret: DataTokenSecret;
  /** The viewer's claims (security context). */
  claims: DataTokenClaims;
  /** Lifetime in seconds, 1 to {@link MAX_DATA_TOKEN_EXPIRES_IN_SECONDS}. Default {@link DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS}. */
  expiresInSeconds?: number;
  /** Issue time, epoch milliseconds. Default now. */
  now?: number;
}

const encoder = /*#__PURE__*/ new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function checkSecret(secret: unknown, who: string): asserts secret is DataTokenSecret {
  const filled =
    (typeof secret === 'string' && secret.trim() !== '') || (secret instanceof Uint8Array && secret.length > 0);
  if (!filled)
    throw new ServiceConfigError(`${who}: \`secret\` must be the deployment's API secret, a non-empty string`);
}

function checkLifetime(seconds: number, who: string): void {
  checkOptions(who, [
    [
      isAmount(seconds, 1, true) && seconds <= MAX_DATA_TOKEN_EXPIRES_IN_SECONDS,
      `expiresInSeconds: must be a whole number of seconds from 1 to ${MAX_DATA_TOKEN_EXPIRES_IN_SECONDS}`,
    ],
  ]);
}

/** The HMAC key of `secret`, imported once per signer. */
function hmacKey(secret: DataTokenSecret): Promise<CryptoKey> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return Promise.reject(new ServiceConfigError('No WebCrypto here (crypto.subtle): use Node 20 or later'));
  // A copy of given bytes: WebCrypto takes no view of a SharedArrayBuffer.
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : new Uint8Array(secret);
  return subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** Signs `claims` (with `iat` and `exp`) as an HS256 JWT with `key`. */
async function sign(
  key: Promise<CryptoKey>,
  claims: DataTokenClaims,
  expiresInSeconds: number,
  now: number,
): Promise<DataTokenResponse> {
  const issuedAt = Math.floor(now / 1000);
  const exp = issuedAt + expiresInSeconds;
  let payload: string;
  try {
    payload = JSON.stringify({ ...claims, iat: issuedAt, exp });
  } catch (error) {
    throw new ServiceValidationError(['claims: must be JSON values'], { cause: error });
  }
  const input = `${base64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })))}.${base64url(encoder.encode(payload))}`;
  const signature = await globalThis.crypto.subtle.sign('HMAC', await key, encoder.encode(input));
  return { token: `${input}.${base64url(new Uint8Array(signature))}`, expiresAt: exp * 1000 };
}

/**
 * Signs a data API token for a viewer: a JWT (HS256, the deployment's API secret) with `claims`,
 * `iat` and `exp`. For server code that queries the data API as the viewer itself, such as a
 * React Server Component prefetching with `dataQueryOptions`; the browser gets its token from
 * {@link createDataTokenHandler}.
 *
 * @throws ServiceConfigError for a missing secret or a lifetime out of range; ServiceValidationError
 *   for claims that are not a JSON object.
 */
export async function createDataToken(options: CreateDataTokenOptions): Promise<DataTokenResponse> {
  const who = 'createDataToken';
  checkSecret(options?.secret, who);
  const expiresInSeconds = options.expiresInSeconds ?? DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS;
  checkLifetime(expiresInSeconds, who);
  if (!isRecord(options.claims)) throw new ServiceValidationError(['claims: must be an object of JSON values']);
  return sign(hmacKey(options.secret), options.claims, expiresInSeconds, options.now ?? Date.now());
}

/** What `resolve` of {@link createDataTokenHandler} may answer. */
export type DataTokenResolution = DataTokenClaims | Response | null | undefined;

/** Options of {@link createDataTokenHandler}. */
export interface DataTokenHandlerOptions {
  /** The deployment's API secret, which signs the tokens (HS256). Never sent anywhere. */
  secret: DataTokenSecret;
  /**
   * Decides who the viewer is, from your own authentication (its session cookie, its auth
   * library), and returns the token's claims for them. Return:
   * - the claims (`{ externalId: user.id, userAttributes: { region: user.region } }`): signed;
   * - `null` or `undefined`: nobody is signed in, answered 401 `{ error, code: 'unauthorized' }`;
   * - a `Response`: sent as it is (with `Cache-Control: no-store`), for any other refusal.
   *
   * A throw is answered 500 and reported to `onError`. The request's body and query are not
   * identity: never read the viewer from them.
   */
  resolve(request: Request): DataTokenResolution | Promise<DataTokenResolution>;
  /** Lifetime of each token in seconds, 1 to {@link MAX_DATA_TOKEN_EXPIRES_IN_SECONDS}. Default {@link DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS} (10 minutes). */
  expiresInSeconds?: number;
  /**
   * Origins of other sites whose pages may call this route with the viewer's cookies. Default:
   * none, so only pages of the route's own origin can; any other cross-site request is refused
   * with 403 `cross_site_request` (a page elsewhere must not get a token as the viewer). The
   * same rule as `createSessionHandler`'s.
   */
  allowedOrigins?: readonly string[];
  /** Called with every server-side failure (`resolve` threw or gave claims that cannot be signed). Default: `console.error`. */
  onError?: HandlerErrorListener;
}

/**
 * Creates the host's data-token route: `GET` (or `POST` with a JSON body, which is not read)
 * answering `{ token, expiresAt }` (200, `expiresAt` in epoch milliseconds) with a data API token
 * for the viewer `resolve` names. Every answer has `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`. Errors are JSON `{ error, code }`:
 *
 * | case | status | code |
 * |---|---|---|
 * | not a GET or POST | 405 (`Allow: GET, POST`) | `method_not_allowed` |
 * | cross-site: `Sec-Fetch-Site: cross-site`, or an `Origin` neither its own nor in `allowedOrigins` | 403 | `cross_site_request` |
 * | a POST whose body is not declared `Content-Type: application/json` | 415 | `unsupported_media_type` |
 * | `resolve` returned `null`/`undefined` | 401 | `unauthorized` |
 * | `resolve` returned a `Response` | its own | its own |
 * | `resolve` threw, or returned claims that are not a JSON object | 500 | `internal_error`, `invalid_claims` |
 *
 * ```ts
 * // app/api/data-token/route.ts (Next.js)
 * export const GET = createDataTokenHandler({
 *   secret: process.env.SERVICE_DATA_API_SECRET!,
 *   async resolve(request) {
 *     const user = await currentUser(request);
 *     return user && { externalId: user.id, userAttributes: { region: user.region } };
 *   },
 * });
 * ```
 *
 * @throws ServiceConfigError at creation for a missing secret or `resolve`, a lifetime out of
 *   range, or `allowedOrigins` that are not origins.
 */
export function createDataTokenHandler(options: DataTokenHandlerOptions): RouteHandler {
  const who = 'createDataTokenHandler';
  if (!isRecord(options) || typeof options.resolve !== 'function') {
    throw new ServiceConfigError(`${who}: pass \`resolve(request)\`, which decides who the viewer is`);
  }
  checkSecret(options.secret, who);
  const expiresInSeconds = options.expiresInSeconds ?? DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS;
  checkLifetime(expiresInSeconds, who);
  const allowedOrigins = resolveAllowedOrigins(options.allowedOrigins, who);
  const { resolve, onError } = options;
  let key: Promise<CryptoKey> | undefined;

  return async function dataTokenHandler(request: Request): Promise<Response> {
    if (request.method !== 'GET' && request.method !== 'POST') {
      return errorAnswer(
        405,
        { error: 'Use GET to ask for a data token', code: 'method_not_allowed' },
        { Allow: 'GET, POST' },
      );
    }
    const foreign = refuseForeignRequest(request, allowedOrigins, { json: request.method === 'POST' });
    if (foreign) return foreign;
    let resolution: DataTokenResolution;
    try {
      resolution = await resolve(request);
    } catch (error) {
      report(onError, error, request);
      return errorAnswer(500, { error: 'Could not create a data token', code: 'internal_error' });
    }
    if (isResponse(resolution)) return withSafeHeaders(resolution);
    if (resolution === null || resolution === undefined) {
      return errorAnswer(401, { error: 'Sign in to load analytics data', code: 'unauthorized' });
    }
    try {
      if (!isRecord(resolution))
        throw new ServiceValidationError(['resolve: must return the claims, a Response or null']);
      // Imported at the first token, not at creation: a route module may be loaded where no request is served.
      if (!key) {
        key = hmacKey(options.secret);
        key.catch(() => (key = undefined));
      }
      return jsonAnswer(200, await sign(key, resolution, expiresInSeconds, Date.now()));
    } catch (error) {
      report(onError, error, request);
      const code: ServiceErrorCode = ServiceValidationError.isInstance(error) ? 'invalid_claims' : 'internal_error';
      return errorAnswer(500, { error: 'Could not create a data token', code });
    }
  };
}
