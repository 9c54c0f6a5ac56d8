/**
 * What the browser and the host application's own routes exchange: the embed-session route
 * (`createSessionHandler`, called by `ServiceProvider`'s `getEmbedSession`) and the chat proxy
 * (`createChatProxyHandler`, called by the chat client). Both sides import these shapes from here,
 * so the browser never re-declares them and never imports the server entry.
 *
 * @module
 */
import type { ChatRequest } from './chat';
import { SURFACES, type Surface } from './embed';
import { isRecord, type ValidationResult } from './shared';

/** Where `fetchEmbedSession` posts by default: the host's route made with `createSessionHandler`. */
export const DEFAULT_EMBED_SESSION_ROUTE = '/api/embed-session';

/**
 * What the browser may say when it asks for a session, checked and with nothing else kept: the
 * shape of `ServiceProvider`'s `getEmbedSession` request. Hints for the server, never identity.
 */
export interface EmbedSessionBrowserRequest {
  /** The surface the iframe will load. */
  surface?: Surface;
  /** The dashboard's public id, for the `dashboard` surface. */
  publicId?: string;
  /** The deployment the browser asks for (an `EmbeddedApp`'s `deploymentId`): a wish, not a grant. */
  deploymentId?: number;
}

/** What an embed asks for when it needs a session: the surface it loads and which one. */
export type EmbedSessionRequest = EmbedSessionBrowserRequest & {
  /** The surface the session is for. */
  surface: Surface;
};

/**
 * Fetches a new embed session id for one iframe load (sessions are single-use and must be
 * exchanged within 5 minutes). `signal` aborts when the embed unmounts or gives up waiting.
 */
export type GetEmbedSession = (request: EmbedSessionRequest, options: { signal: AbortSignal }) => Promise<string>;

/** Longest `publicId` hint the session route accepts. */
const MAX_PUBLIC_ID_LENGTH = 200;

/**
 * Checks a browser's session request body and keeps only its three hints. An absent body is an
 * empty request; anything else that is not an object, or a hint of the wrong type, is refused.
 */
export function parseEmbedSessionBrowserRequest(value: unknown): ValidationResult<EmbedSessionBrowserRequest> {
  if (value === undefined) return { ok: true, value: {} };
  if (!isRecord(value))
    return { ok: false, problems: ['body: must be a JSON object such as { "surface": "dashboard", "publicId": "…" }'] };
  const problems: string[] = [];
  const result: EmbedSessionBrowserRequest = {};
  const { surface, publicId, deploymentId } = value;
  if (surface !== undefined) {
    const known = SURFACES.find((s) => s === surface);
    if (known) result.surface = known;
    else problems.push(`surface: must be one of ${SURFACES.join(', ')}`);
  }
  if (publicId !== undefined) {
    if (typeof publicId === 'string' && publicId.trim() !== '' && publicId.length <= MAX_PUBLIC_ID_LENGTH)
      result.publicId = publicId;
    else problems.push('publicId: must be a non-empty string, the public id of a dashboard');
  }
  if (deploymentId !== undefined) {
    if (typeof deploymentId === 'number' && Number.isInteger(deploymentId) && deploymentId > 0)
      result.deploymentId = deploymentId;
    else problems.push('deploymentId: must be a positive whole number');
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: result };
}

/** The chat request fields a browser may send through the chat proxy (2.8 without `sessionSettings`). */
export const BROWSER_CHAT_FIELDS = ['input', 'chatId', 'messageId', 'activeBranchName', 'isDefaultBranch'] as const;

/** A chat request as the browser may send it: {@link BROWSER_CHAT_FIELDS} only. */
export type BrowserChatRequest = Pick<ChatRequest, (typeof BROWSER_CHAT_FIELDS)[number]>;

/** The error body of the host's routes: `{ error, code }` plus details when they may be shown. */
export interface HandlerErrorBody {
  /** What went wrong, for people. */
  error: string;
  /** Stable, machine-readable code: one of `ServiceErrorCodes`, or the host's own given to `refuseSession`. */
  code: string;
  /** Problems of an invalid request (always for the browser's own input; server-side ones only with details on). */
  problems?: readonly string[];
  /** The service's own message, with details on. */
  detail?: string;
}

/** True for a route's error body: an object with string `error` and `code`. */
export function isHandlerErrorBody(value: unknown): value is HandlerErrorBody {
  return isRecord(value) && typeof value.error === 'string' && typeof value.code === 'string';
}

// ---------------------------------------------------------------------------------------------
// The data-token route
// ---------------------------------------------------------------------------------------------

/** Where `fetchDataToken` asks by default: the host's route made with `createDataTokenHandler`. */
export const DEFAULT_DATA_TOKEN_ROUTE = '/api/data-token';

/** The answer of the data-token route: a data API JWT for the viewer and when it expires. */
export interface DataTokenResponse {
  /** The JWT, sent raw in the data API's `Authorization` header. */
  token: string;
  /** When the token stops being valid, epoch milliseconds (its `exp` claim). */
  expiresAt: number;
}

/**
 * Checks a data-token route's answer: a non-empty `token` string and, when present, a finite
 * `expiresAt`. Routes written before `createDataTokenHandler` answer `{ token }` alone: their
 * `expiresAt` is `undefined`, and the token is asked for again for every request.
 */
export function parseDataTokenResponse(
  value: unknown,
): ValidationResult<Pick<DataTokenResponse, 'token'> & Partial<Pick<DataTokenResponse, 'expiresAt'>>> {
  if (!isRecord(value) || typeof value.token !== 'string' || value.token.trim() === '')
    return { ok: false, problems: ['token: must be the data API token, a non-empty string'] };
  const { token, expiresAt } = value;
  if (expiresAt === undefined) return { ok: true, value: { token } };
  if (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt))
    return { ok: false, problems: ['expiresAt: must be epoch milliseconds'] };
  return { ok: true, value: { token, expiresAt } };
}
