/**
 * Errors of the emulator's endpoints. Handlers throw them as Hono `HTTPException`s carrying the
 * exact JSON body the service sends; the one `onError` of `app.ts` ({@link handleError}) turns
 * them into responses, and anything else into a 500 `{"error"}`. Also the limits every request
 * body meets (size, nesting) and CORS for the APIs browsers call.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { UserErrorBody } from '../core/protocol/data';
import type { ServiceErrorCode } from '../core/protocol/error-codes';
import type { ManagementErrorBody } from '../core/protocol/workbook';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from './world';

/** A JSON response, for error bodies and for answers that are not `c.json()`-friendly. */
export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set('content-type', 'application/json; charset=utf-8');
  return response;
}

/** An `HTTPException` whose response is `body` as JSON with `status`. */
export function jsonError(status: ContentfulStatusCode, body: unknown): HTTPException {
  const message =
    typeof body === 'object' && body !== null && 'error' in body
      ? String((body as { error: unknown }).error)
      : `HTTP ${status}`;
  return new HTTPException(status, { message, res: jsonResponse(status, body) });
}

/**
 * The error of the management, embed and chat endpoints: `{"error": message}`, plus `code` where
 * the interface names one (behaviour 4).
 */
export function httpError(status: ContentfulStatusCode, message: string, code?: ServiceErrorCode): HTTPException {
  const body: ManagementErrorBody = code === undefined ? { error: message } : { error: message, code };
  return jsonError(status, body);
}

/** A data API user error: 400 `{"type":"UserError","error": message}` (behaviour 3). */
export function userError(message: string): HTTPException {
  const body: UserErrorBody = { type: 'UserError', error: message };
  return jsonError(400, body);
}

/**
 * Reads a body as text, at most `maxBytes`: a 413 `{"error"}` (or `tooLarge()`) as soon as a
 * declared `Content-Length` or the bytes read exceed it, so an oversized body is never buffered.
 * Call it after the credential is checked.
 */
export async function readBodyText(
  c: Context,
  maxBytes: number = MAX_BODY_BYTES,
  tooLarge?: () => HTTPException,
): Promise<string> {
  const refuse = () => tooLarge?.() ?? httpError(413, `Request body is larger than ${maxBytes} bytes`);
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw refuse();
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw refuse();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * True when JSON `text` nests objects and arrays deeper than `maxDepth`. A scan of the text, not
 * of parsed values: every later recursive walk (validation, cloning, `JSON.stringify`) of a value
 * this deep would overflow the stack and answer 500.
 */
export function jsonTooDeep(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * Parses JSON text read from a request: empty is `undefined`; malformed JSON, or JSON nested
 * deeper than {@link MAX_JSON_DEPTH}, throws `invalid(reason)` (default a 400 `{"error"}`).
 */
export function parseRequestJson(
  text: string,
  invalid: (reason: string) => HTTPException = (reason) => httpError(400, reason),
): unknown {
  if (text.trim() === '') return undefined;
  if (jsonTooDeep(text)) throw invalid(`Request JSON is nested more than ${MAX_JSON_DEPTH} levels deep`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid('Request body is not valid JSON');
  }
}

/**
 * Reads a JSON body of at most `maxBytes` (413 beyond); a missing one is `undefined`, a malformed
 * or too deeply nested one a 400 `{"error"}`.
 */
export async function readJson(c: Context, maxBytes: number = MAX_BODY_BYTES): Promise<unknown> {
  return parseRequestJson(await readBodyText(c, maxBytes));
}

/**
 * The `onError` of the app: `HTTPException`s answer with their own response (or `{"error"}` with
 * their status); anything else is a 500 `{"error":"Internal server error"}`, as the service
 * answers an internal failure, without the error's own text.
 */
export function handleError(error: Error): Response {
  if (error instanceof HTTPException) {
    return error.res ?? jsonResponse(error.status, { error: error.message || `HTTP ${error.status}` });
  }
  // The message of an unexpected error may be the engine's (SQL, internals): never sent.
  return jsonResponse(500, { error: 'Internal server error' });
}

/** Methods a browser app may call the data and chat APIs with (CORS). */
export const CORS_ALLOWED_METHODS = 'GET, POST, OPTIONS';
/**
 * Request headers a browser app may send to the data and chat APIs (CORS): the service's four,
 * then the emulator's testing headers, so browser tests can steer pace, faults and slow queries.
 */
export const CORS_ALLOWED_HEADERS =
  'Authorization, Content-Type, X-Service-Auth-Token, x-request-id, x-emulator-pace, x-emulator-fault, x-emulator-slow';

/**
 * CORS for the APIs browser apps call with a token from another origin (the data API, chat): a
 * preflight `OPTIONS` is answered 204 before any authentication, and every answer (errors too)
 * allows any origin without credentials, as the service does for token-authenticated APIs.
 */
export function corsMiddleware(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': CORS_ALLOWED_METHODS,
          'access-control-allow-headers': CORS_ALLOWED_HEADERS,
          'access-control-max-age': '600',
          vary: 'Origin, Access-Control-Request-Headers',
        },
      });
    }
    await next();
    c.res.headers.set('access-control-allow-origin', '*');
  };
}
