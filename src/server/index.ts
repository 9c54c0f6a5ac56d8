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

// Management and embed client: the whole client, or one group alone
export { createServiceClient } from './client';
export type { ServiceClient } from './client';
export type {
  ServiceClientOptions,
  ServiceClientBase,
  RequestOptions,
  ListParams,
  ScimListParams,
  Paginated,
  RawRequestOptions,
} from './client/request';
export { createEmbeddingClient } from './client/embedding';
export type {
  EmbeddingClient,
  EmbedTenant,
  EmbedTenantUser,
  EmbedTenantGroup,
  EmbedTenantGroupInput,
  EmbedTenantGroupPatch,
  EmbedTenantMember,
} from './client/embedding';
export { createWorkspaceClient, DEFAULT_UPSERT_ATTEMPTS } from './client/workspace';
export type {
  WorkspaceClient,
  UpsertOptions,
  ReportListParams,
  NotificationListParams,
  Folder,
} from './client/workspace';
export { createPeopleClient } from './client/people';
export type { PeopleClient } from './client/people';
export { createPlatformClient } from './client/platform';
export type { PlatformClient, LogListParams, BranchReadOptions, DataModelFileListParams } from './client/platform';
export { createTenantClient } from './client/tenant';
export type { TenantClient } from './client/tenant';
export type { RetryOptions } from './transport';
// What the management methods send and answer, and the rules they check (the protocol's, shared with the emulator)
export {
  BULK_USER_ACTIONS,
  USER_ATTRIBUTE_TYPES,
  WORKSPACE_ITEM_TYPES,
  REPORT_SORTS,
  EMBED_ACCESS_ACTIONS,
} from '../core/protocol/management';
export type {
  BulkResult,
  BulkFailure,
  WorkspaceItemRef,
  Report,
  ReportSort,
  ReportInput,
  ConnectWorkbookInput,
  DuplicateWorkbookInput,
  AiWidgetThreadInput,
  EmbedAccessAction,
  WorkbookEmbedAccess,
  WorkbookEmbedAccessInput,
  Notification,
  NotificationFields,
  NotificationInput,
  NotificationPatch,
  NotificationRecipient,
  NotificationListFilters,
  User,
  UserInput,
  UserPatch,
  BulkUserAction,
  BulkUserUpdate,
  UserAttributeType,
  TenantUserAttribute,
  TenantUserAttributeInput,
  TenantUserAttributePatch,
  UserAttributeValues,
  TenantSettings,
  AppConfig,
  OAuthIntegration,
  OAuthIntegrationInput,
  UserOAuthToken,
  OAuthInitiation,
  OAuthInitiationInput,
  OidcTokenConfig,
  OidcTokenConfigInput,
  PythonRunInput,
  PythonRun,
} from '../core/protocol/management';
export { DEPLOY_MODES, LOG_SOURCES, LOG_CONTAINERS } from '../core/protocol/platform';
export type {
  Deployment,
  DeploymentInput,
  DeploymentPatch,
  DeployMode,
  BuildStatus,
  CreationStep,
  Environment,
  Region,
  LogSource,
  LogFilters,
  LogEntry,
  Pod,
  EnvVar,
  EnvVarInput,
  DataModelFile,
  DataModelFilesInput,
  DataModelFilesDelete,
  DataModelFilesRename,
  DataModelUpload,
  DataModelUploadChunk,
  Branch,
  BranchRef,
  BranchInput,
  CommitInput,
  Commit,
  MergeInput,
  ConnectRepositoryInput,
  RepositoryConnection,
  RepoHostStatus,
  RepoHostInstallation,
  RepoHostRepository,
  RepoHostBranch,
  TransformSync,
} from '../core/protocol/platform';
export {
  SCIM_USER_SCHEMA,
  SCIM_GROUP_SCHEMA,
  SCIM_LIST_RESPONSE_SCHEMA,
  SCIM_PATCH_OP_SCHEMA,
  SCIM_ERROR_SCHEMA,
  SCIM_PATCH_OPS,
} from '../core/protocol/scim';
export type {
  ScimUser,
  ScimGroup,
  ScimMeta,
  ScimReference,
  ScimListResponse,
  ScimPatch,
  ScimPatchOperation,
  ScimPageParams,
} from '../core/protocol/scim';
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
export type { SessionRequest, SessionResponse, UserAttribute, UserAttributeValue } from '../core/protocol/session';
export type { SessionSettings, ChatRequest } from '../core/protocol/chat';
export type {
  Workbook,
  CreateWorkbookInput,
  Dashboard,
  ListPage,
  PageInfo,
  CursorPageParams,
} from '../core/protocol/workbook';
export {
  ServiceError,
  ServiceHttpError,
  ServiceAbortError,
  ServiceConfigError,
  ServiceValidationError,
  ConnectionLostError,
} from '../core/errors';
export type { ServiceErrorCode, ServiceErrorCodes } from '../core/protocol/error-codes';
