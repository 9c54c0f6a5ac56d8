/**
 * `@service/react/server`: everything that needs the API key, for the partner's backend. A
 * management and embed client, embed-session minting with validation, data API tokens, and
 * Fetch-standard route handlers (`Request` in, `Response` out) for the embed-session route, the
 * data-token route and the chat proxy, plus an
 * adapter for Node's `req`/`res` (Express). Runs in Node 20, Next.js route handlers, Hono and edge
 * runtimes: nothing here imports a Node module.
 *
 * Never import it from browser code: the API key must stay on the server.
 *
 * @packageDocumentation
 */

// Validation (the protocol's, shared with the emulator)
export { validateSessionRequest, sessionErrorCode, SESSION_ERROR_CODES } from '../core/protocol/session';
export type { SessionErrorCode } from '../core/protocol/session';
export {
  validateCreateWorkbookInput,
  validateSlug,
  normalizeSlug,
  validateWorkbook,
  validateDashboard,
  validateReportSnapshot,
  validateResourceOwner,
  UPSERT_BRANCH_CHANGED,
} from '../core/protocol/workbook';

// Management and embed client
export { createServiceClient, DEFAULT_UPSERT_ATTEMPTS } from './client';
export type {
  ServiceClient,
  ServiceClientOptions,
  RetryOptions,
  RequestOptions,
  UpsertOptions,
  ListParams,
  ReportListParams,
  Paginated,
  Deployment,
  Folder,
  Report,
  EmbedTenant,
  EmbedTenantUser,
  EmbedTenantGroup,
  EmbedTenantGroupInput,
  EmbedTenantGroupPatch,
  EmbedTenantMember,
  EmbedAccessAction,
  WorkbookEmbedAccess,
  WorkbookEmbedAccessInput,
  RawRequestOptions,
} from './client';
export type { QueryValue } from './transport';

// Route handlers
export { createSessionHandler, refuseSession } from './session-handler';
export type {
  RouteHandler,
  SessionRequestInit,
  SessionResolution,
  SessionResolveContext,
  SessionHandlerBaseOptions,
  SessionHandlerOptions,
} from './session-handler';
export {
  createDataTokenHandler,
  createDataToken,
  DEFAULT_DATA_TOKEN_EXPIRES_IN_SECONDS,
  MAX_DATA_TOKEN_EXPIRES_IN_SECONDS,
} from './data-token';
export type {
  DataTokenHandlerOptions,
  DataTokenResolution,
  DataTokenClaims,
  DataTokenSecret,
  CreateDataTokenOptions,
} from './data-token';
export { createChatProxyHandler, DEFAULT_MAX_CHAT_BODY_BYTES } from './chat-proxy';
export { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from './chat-proxy';
export { DEFAULT_TIMEOUT_MS } from './transport';
export type { ChatProxyContext, SessionSettingsResolution, ChatProxyOptions, ChatProxyHandler } from './chat-proxy';
export type { HandlerErrorListener } from './transport';
// The shapes the browser and these routes exchange live in the protocol, shared with the browser.
export {
  BROWSER_CHAT_FIELDS,
  DEFAULT_EMBED_SESSION_ROUTE,
  DEFAULT_DATA_TOKEN_ROUTE,
  parseEmbedSessionBrowserRequest,
} from '../core/protocol/host-routes';
export type {
  EmbedSessionBrowserRequest,
  BrowserChatRequest,
  HandlerErrorBody,
  DataTokenResponse,
} from '../core/protocol/host-routes';

// Node adapter (duck-typed: no Node import)
export { toNodeHandler, DEFAULT_LINGER_MS } from './node';
export type { NodeRequestLike, NodeResponseLike, NodeHandlerOptions, NodeHandler } from './node';

// Types and errors callers meet at this entry, so that one import is enough
export type { SessionRequest, SessionResponse } from '../core/protocol/session';
export type { SessionSettings, ChatRequest } from '../core/protocol/chat';
export type { Workbook, CreateWorkbookInput, ListPage, PageInfo, CursorPageParams } from '../core/protocol/workbook';
export {
  ServiceError,
  ServiceHttpError,
  ServiceAbortError,
  ServiceConfigError,
  ServiceValidationError,
  ConnectionLostError,
} from '../core/errors';
