/**
 * A ready `getEmbedSession` for the common case: the host's own route made with
 * `createSessionHandler` (`@service/react/server`).
 *
 * @module
 */
import { ServiceHttpError } from '../core/errors';
import type { ServiceErrorCode } from '../core/protocol/error-codes';
import { DEFAULT_EMBED_SESSION_ROUTE, isHandlerErrorBody, type GetEmbedSession } from '../core/protocol/host-routes';

/**
 * Returns a `getEmbedSession` for `ServiceProvider` that posts the embed's request
 * (`{ surface, publicId?, deploymentId? }`) as JSON to `url` on your own server and resolves with
 * the `sessionId` of its answer. The route decides who the viewer is from its own sign-in; the
 * browser never says.
 *
 * The request sends the page's cookies (`credentials: 'same-origin'`) and is aborted when the
 * embed no longer needs the session. A non-2xx answer rejects with a `ServiceHttpError` carrying
 * the route's `{ error, code }`; an answer without a `sessionId` string is passed on as it is and
 * the embed reports it as a `ServiceValidationError`.
 * @param url The route. Default `/api/embed-session`.
 */
export function fetchEmbedSession(url: string = DEFAULT_EMBED_SESSION_ROUTE): GetEmbedSession {
  return async (request, { signal }) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      credentials: 'same-origin',
      signal,
    });
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const known = isHandlerErrorBody(body) ? body : undefined;
      throw new ServiceHttpError(known?.error ?? `The embed session route answered ${response.status}`, {
        status: response.status,
        // The route's own code, as sent: `createSessionHandler`'s are all listed, but `refuseSession`
        // may carry one of the host's.
        code: known?.code as ServiceErrorCode | undefined,
        body,
      });
    }
    return (body as { sessionId?: string } | undefined)?.sessionId as string;
  };
}
