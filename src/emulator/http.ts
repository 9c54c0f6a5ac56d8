/**
 * Errors of the emulator's endpoints. Handlers throw them as Hono `HTTPException`s carrying the
 * exact JSON body the service sends; the one `onError` of `app.ts` ({@link handleError}) turns
 * them into responses, and anything else into a 500 `{"error"}`.
 *
 * @module
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { UserErrorBody } from '../core/protocol/data';
import type { ManagementErrorBody } from '../core/protocol/workbook';

/** A JSON response, for error bodies and for answers that are not `c.json()`-friendly. */
export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const response = new Response(JSON.stringify(body), { status, headers });
  response.headers.set('content-type', 'application/json; charset=utf-8');
  return response;
}

/** An `HTTPException` whose response is `body` as JSON with `status`. */
export function jsonError(status: ContentfulStatusCode, body: unknown): HTTPException {
  const message = typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : `HTTP ${status}`;
  return new HTTPException(status, { message, res: jsonResponse(status, body) });
}

/**
 * The error of the management, embed and chat endpoints: `{"error": message}`, plus `code` where
 * the interface names one (behaviour 4).
 */
export function httpError(status: ContentfulStatusCode, message: string, code?: string): HTTPException {
  const body: ManagementErrorBody = code === undefined ? { error: message } : { error: message, code };
  return jsonError(status, body);
}

/** A data API user error: 400 `{"type":"UserError","error": message}` (behaviour 3). */
export function userError(message: string): HTTPException {
  const body: UserErrorBody = { type: 'UserError', error: message };
  return jsonError(400, body);
}

/** Reads a JSON body; a missing or malformed one is `undefined` (the caller decides what that means). */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw httpError(400, 'Request body is not valid JSON');
  }
}

/**
 * The `onError` of the app: `HTTPException`s answer with their own response (or `{"error"}` with
 * their status); anything else is a 500 `{"error"}` with the message, as the service answers an
 * internal failure.
 */
export function handleError(error: Error): Response {
  if (error instanceof HTTPException) {
    return error.res ?? jsonResponse(error.status, { error: error.message || `HTTP ${error.status}` });
  }
  return jsonResponse(500, { error: error.message || 'Internal error' });
}
