/**
 * `createSessionHandler`: the host application's embed-session route (interface §2.7, §4.2).
 *
 * The browser asks for a session for one iframe load; the host's server decides who the viewer is
 * from its own authentication (`resolve`) and mints the session with the API key. The browser
 * never chooses its `externalId`, groups, attributes or security context: its body may only say
 * which surface it is about to load (`surface`, `publicId`, `deploymentId`), and `resolve` decides
 * what to make of that. Everything else the browser sends is dropped unread.
 *
 * @module
 */
import {
  ConnectionLostError,
  ServiceAbortError,
  ServiceConfigError,
  ServiceError,
  ServiceHttpError,
  ServiceValidationError,
} from '../core/errors';
import type { ServiceErrorCode } from '../core/protocol/error-codes';
import {
  parseEmbedSessionBrowserRequest,
  type EmbedSessionBrowserRequest,
  type HandlerErrorBody,
} from '../core/protocol/host-routes';
import type { SessionRequest } from '../core/protocol/session';
import { isRecord } from '../core/protocol/shared';
import { createEmbeddingClient, type EmbeddingClient } from './client/embedding';
import type { ServiceClientOptions } from './client/request';
import {
  defaultExposeErrorDetails,
  errorAnswer,
  isResponse,
  jsonAnswer,
  readLimitedText,
  refuseForeignRequest,
  report,
  resolveAllowedOrigins,
  withSafeHeaders,
  type HandlerErrorListener,
  type RouteErrorBody,
} from './transport';

/** A Fetch-standard route handler: `Request` in, `Response` out. */
export type RouteHandler = (request: Request) => Promise<Response>;

/**
 * The session request `resolve` builds: a generate-session body (§2.7) in which `deploymentId`
 * may be left out when the handler has a default `deploymentId`.
 */
export type SessionRequestInit = Partial<SessionRequest>;

/** What `resolve` may answer. */
export type SessionResolution = SessionRequestInit | Response | null | undefined;

/** The second argument of `resolve`. */
export interface SessionResolveContext {
  /** The browser's checked body: which surface it wants. Empty when it sent none. */
  body: EmbedSessionBrowserRequest;
}

/** Options shared by both ways of giving the handler a client. */
export interface SessionHandlerBaseOptions {
  /**
   * Decides who the viewer is, from the host's own authentication (its session cookie, its auth
   * library), and returns the session request for them. Return:
   * - a session request: minted as given (with `deploymentId` defaulted to the handler's);
   * - `null` or `undefined`: nobody is signed in, answered 401 `{ error, code: 'unauthorized' }`;
   * - a `Response` (for example `refuseSession(403, 'Not a member of this workspace')`): sent
   *   as it is, for any other refusal.
   *
   * A throw is answered 500 and reported to `onError`. Use `context.body` only as a hint of what
   * the viewer wants to open (check that they may), never as identity.
   */
  resolve(request: Request, context: SessionResolveContext): SessionResolution | Promise<SessionResolution>;
  /** `deploymentId` of requests from `resolve` that give none. Default: none (then `resolve` must give it). */
  deploymentId?: number;
  /**
   * Put details in error bodies: the validation problems of the request `resolve` built and the
   * service's own message. Default: on unless `process.env.NODE_ENV` is `production` (and off where
   * there is no `process`). The API key is never in any answer either way.
   */
  exposeErrorDetails?: boolean;
  /**
   * Called with every server-side failure (`resolve` threw, its request was invalid, the service
   * refused or failed); not with viewer refusals. Default: `console.error`.
   */
  onError?: HandlerErrorListener;
  /**
   * Origins of other sites whose pages may call this route with the viewer's cookies, such as
   * `['https://admin.partner.example']`. Default: none, so only pages of the route's own origin
   * can: the browser says `Sec-Fetch-Site: same-origin`, or the `Origin` equals the origin the
   * browser used (`X-Forwarded-Proto` + `X-Forwarded-Host` behind a proxy, else `Host`). Any other
   * cross-site request (`Sec-Fetch-Site: cross-site` or `same-site`, a foreign or `null` `Origin`)
   * is refused with 403 `cross_site_request`: without this, a page elsewhere could mint a session
   * as the viewer.
   */
  allowedOrigins?: readonly string[];
}

/**
 * Options of {@link createSessionHandler}: a client, or what it takes to create one (then
 * `timeoutMs`, default 30 s, bounds the wait for the service: 504 `upstream_timeout` after it).
 */
export type SessionHandlerOptions = SessionHandlerBaseOptions &
  (
    | {
        /** A client from `createServiceClient` or `createEmbeddingClient` (only `generateSession` is used). */
        client: Pick<EmbeddingClient, 'generateSession'>;
        /** Not with `client`: the client already has its base URL. */
        baseUrl?: never;
        /** Not with `client`: the client already has its key. */
        apiKey?: never;
      }
    | ({
        /** Not with `baseUrl` and `apiKey`: the handler creates its client from them. */
        client?: never;
      } & ServiceClientOptions)
  );

/** The largest body the browser may send: the hints above fit many times over. */
const MAX_BODY_BYTES = 16 * 1024;

/** Statuses of the service passed to the browser as they are; any other failure is the server's (502). */
const PASSED_STATUSES = new Set([403, 404, 429]);

/**
 * A refusal for `resolve` to return: a JSON error answer `{ error, code }` with `Cache-Control:
 * no-store`. `code` (any string of yours) defaults to `unauthorized` for 401, `forbidden` for 403
 * and `refused` otherwise.
 */
export function refuseSession(status: 401 | 403 | 404 | 429, message: string, code?: string): Response {
  const fallback: ServiceErrorCode = status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : 'refused';
  return jsonAnswer(status, { error: message, code: code ?? fallback } satisfies HandlerErrorBody);
}

/**
 * Creates the host's embed-session route: `POST` with `Content-Type: application/json` and an
 * optional JSON body `{ surface?, publicId?, deploymentId? }`, answering `{ sessionId }` (200, `Cache-Control:
 * no-store`: a session is single-use). Errors are JSON `{ error, code }`:
 *
 * | case | status | code |
 * |---|---|---|
 * | not a POST | 405 (`Allow: POST`) | `method_not_allowed` |
 * | cross-site: `Sec-Fetch-Site: cross-site` or `same-site`, or an `Origin` neither its own (as the browser reached it: forwarded headers, `Host`) nor in `allowedOrigins` | 403 | `cross_site_request` |
 * | body not declared `Content-Type: application/json` (a form post) | 415 | `unsupported_media_type` |
 * | body not JSON, or a hint of the wrong type | 400 | `bad_request` (with `problems`) |
 * | `resolve` returned `null`/`undefined` | 401 | `unauthorized` |
 * | `resolve` returned a `Response` | its own | its own |
 * | `resolve` threw | 500 | `internal_error` |
 * | `resolve` built an invalid request (no request sent) | 500 | `invalid_session_request` (`problems` with details on) |
 * | the service answered 403 (key scoped elsewhere, not allowed), 404 or 429 | the same | the service error's code |
 * | the service refused the key (401), rejected the request (400: duplicate attributes, unknown attribute or group names, `cannot change type`) or failed (5xx, network) | 502 | the service error's code (`groups_not_found`…; `detail` with details on) |
 * | the service did not answer within `timeoutMs` (default 30 s) | 504 | `upstream_timeout` |
 *
 * Every answer, a `Response` of `resolve` included, has `Cache-Control: no-store` and
 * `X-Content-Type-Options: nosniff`.
 *
 * Why 502 for the service's 401 and 400: the viewer can do nothing about the server's key or the
 * request the server built; a 401 would read as "sign in again" to the browser.
 *
 * ```ts
 * // app/api/embed-session/route.ts (Next.js)
 * export const POST = createSessionHandler({
 *   baseUrl: process.env.SERVICE_URL!, apiKey: process.env.SERVICE_API_KEY!, deploymentId: 1,
 *   async resolve() {
 *     const user = await currentUser();
 *     return user && { externalId: user.id, groups: user.teams, userAttributes: [{ name: 'region', value: user.region }] };
 *   },
 * });
 * ```
 */
export function createSessionHandler(options: SessionHandlerOptions): RouteHandler {
  if (!isRecord(options) || typeof options.resolve !== 'function') {
    throw new ServiceConfigError('createSessionHandler: pass `resolve(request)`, which decides who the viewer is');
  }
  const client: Pick<EmbeddingClient, 'generateSession'> =
    options.client ??
    createEmbeddingClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.fetch,
      retry: options.retry,
      timeoutMs: options.timeoutMs,
    });
  if (typeof client.generateSession !== 'function') {
    throw new ServiceConfigError(
      'createSessionHandler: `client` must come from createServiceClient or createEmbeddingClient',
    );
  }
  const { resolve, deploymentId, onError } = options;
  const expose = options.exposeErrorDetails ?? defaultExposeErrorDetails();
  const allowedOrigins = resolveAllowedOrigins(options.allowedOrigins, 'createSessionHandler');

  /** The answer to a failure of the server's side (not the viewer's): reported, then answered. */
  function serverFailure(request: Request, error: unknown): Response {
    report(onError, error, request);
    if (ServiceValidationError.isInstance(error)) {
      const body: RouteErrorBody = {
        error: 'The server built an invalid embed session request',
        code: 'invalid_session_request',
        ...(expose ? { problems: error.problems } : {}),
      };
      return errorAnswer(500, body);
    }
    if (ServiceHttpError.isInstance(error)) {
      const status = PASSED_STATUSES.has(error.status) ? error.status : 502;
      const body: RouteErrorBody = {
        error: `The analytics service refused the embed session (HTTP ${error.status})`,
        code: error.code,
        ...(expose && error.serviceMessage !== undefined ? { detail: error.serviceMessage } : {}),
      };
      return errorAnswer(status, body);
    }
    if (ServiceError.isInstance(error) && error.code === 'upstream_timeout') {
      return errorAnswer(504, {
        error: 'The analytics service did not answer in time for an embed session',
        code: error.code,
      });
    }
    if (
      ConnectionLostError.isInstance(error) ||
      (ServiceError.isInstance(error) && error.code === 'invalid_response')
    ) {
      // Unreachable, or an answer without a session: the service could not give one.
      return errorAnswer(502, {
        error: 'The analytics service could not be reached for an embed session',
        code: error.code,
      });
    }
    return errorAnswer(500, { error: 'Could not create an embed session', code: 'internal_error' });
  }

  return async function sessionHandler(request: Request): Promise<Response> {
    if (request.method !== 'POST') {
      return errorAnswer(
        405,
        { error: 'Use POST to ask for an embed session', code: 'method_not_allowed' },
        { Allow: 'POST' },
      );
    }
    const foreign = refuseForeignRequest(request, allowedOrigins);
    if (foreign) return foreign;
    const text = await readLimitedText(request, MAX_BODY_BYTES).catch(() => '');
    if (text === undefined)
      return errorAnswer(413, { error: 'The request body is too large', code: 'payload_too_large' });
    let parsed: unknown;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        return errorAnswer(400, { error: 'The request body is not JSON', code: 'bad_request' });
      }
    }
    const hints = parseEmbedSessionBrowserRequest(parsed);
    if (!hints.ok)
      return errorAnswer(400, {
        error: 'Invalid embed session request',
        code: 'bad_request',
        problems: hints.problems,
      });

    let resolution: SessionResolution;
    try {
      resolution = await resolve(request, { body: hints.value });
    } catch (error) {
      return serverFailure(request, error);
    }
    if (isResponse(resolution)) return withSafeHeaders(resolution);
    if (resolution === null || resolution === undefined) {
      return errorAnswer(401, { error: 'Sign in to view embedded analytics', code: 'unauthorized' });
    }
    if (!isRecord(resolution)) {
      return serverFailure(
        request,
        new ServiceValidationError(['resolve: must return a session request object, a Response or null']),
      );
    }
    const sessionRequest = { ...resolution, deploymentId: resolution.deploymentId ?? deploymentId } as SessionRequest;
    try {
      const { sessionId } = await client.generateSession(sessionRequest, { signal: request.signal });
      return jsonAnswer(200, { sessionId });
    } catch (error) {
      // The browser went away: nobody reads the answer.
      if (ServiceAbortError.isInstance(error))
        return errorAnswer(499, { error: 'The request was cancelled', code: 'aborted' });
      return serverFailure(request, error);
    }
  };
}
