/**
 * `@service/react/core`: the framework-free protocol and clients of the service. Runs in
 * browsers, Node and workers; no React.
 *
 * Every runtime export here ships to browsers (this entry has a size budget, `.size-limit.mjs`),
 * so it holds what a browser app uses. What only the service side or the library's own layers
 * need (request paths and validators for proxy routes, the embed's side of the messaging,
 * builders of service answers, wire constants) stays in `./protocol/*` for the server,
 * emulator and testing entries and the React layer to import. Types cost nothing and are all here.
 *
 * @packageDocumentation
 */

// Errors
export {
  ServiceError,
  ServiceHttpError,
  ServiceAuthError,
  StreamingInProgressError,
  ServiceStreamError,
  ConnectionLostError,
  ServiceAbortError,
  ServiceConfigError,
  ServiceValidationError,
} from './errors';
export type { ServiceErrorOptions } from './errors';
export type { ServiceErrorCode, ServiceErrorCodes } from './protocol/error-codes';

// Protocol: shared
export type { ValidationResult } from './protocol/shared';

// Protocol: chat requests and stream lines
export { createMessageId, isMessageId, classifyStreamLine, isSentinelId, isFinalAnswerMessage } from './protocol/chat';
export type {
  ChatUserAttribute,
  SessionSettings,
  ChatRequest,
  ChatAuthKind,
  AbortRequest,
  ToolCallWire,
  StreamMessage,
  CutoffLine,
  StateLine,
  AbortedLine,
  SuspendedLine,
  Usage,
  UsageLine,
  ErrorLine,
  RpcErrorLine,
  StreamLine,
  ClassifiedLine,
} from './protocol/chat';

// Protocol: tool payloads
export { parseToolCall } from './protocol/tools';
export type {
  MetaSearchMember,
  MetaSearchCube,
  ServiceMetaResult,
  ServiceSqlApiInput,
  SqlColumn,
  ServiceSqlApiResult,
  LegacyQueryResult,
  ToolResult,
  ParsedToolCall,
  ResultTable,
} from './protocol/tools';

// Protocol: what the browser and the host's own routes (session route, chat proxy) exchange
export type {
  EmbedSessionBrowserRequest,
  EmbedSessionRequest,
  GetEmbedSession,
  BrowserChatRequest,
  HandlerErrorBody,
  DataTokenResponse,
} from './protocol/host-routes';

// Protocol: embed messaging, the host's side (the embed's side is for the emulator and testing)
export {
  EMBED_EVENT_TYPES,
  EMBED_ACTION_TYPES,
  isLocaleTag,
  isTimeZone,
  isMemberName,
  parseEmbedEvent,
  isEmbedEvent,
  createEmbedAction,
} from './protocol/embed';
export type {
  Surface,
  EmbedDirection,
  EmbedEventEnvelope,
  EmbedActionEnvelope,
  ReadyPayload,
  ViewPayload,
  NavigatePayload,
  DashboardLoadedPayload,
  DownloadFormat,
  DownloadPayload,
  DrilldownPayload,
  AiQueryStatus,
  AiQueryPayload,
  ErrorPayload,
  SessionExpiringPayload,
  EmbedEventPayloads,
  EmbedEventType,
  EmbedEventOf,
  EmbedEvent,
  UnknownEmbedEvent,
  AnyEmbedEvent,
  ColorScheme,
  EmbedTheme,
  SetColorSchemePayload,
  SetThemePayload,
  SetLocalePayload,
  SetFilterPayload,
  NavigateActionPayload,
  RefreshPayload,
  SetTimezonePayload,
  SetSessionPayload,
  EmbedActionPayloads,
  EmbedActionType,
  EmbedActionOf,
  EmbedAction,
  UnknownEmbedAction,
  SupportedLocale,
  EmbedParseResult,
  EmbedActionInit,
  EmbedEventInit,
} from './protocol/embed';

// Protocol: embed sessions (the validators live in `@service/react/server`: browsers never mint sessions)
export type {
  UserAttributeValue,
  UserAttribute,
  UserAttributeDefinitionType,
  UserAttributeDefinition,
  GroupDefinition,
  UserProfile,
  EmbedSessionSettings,
  EmbedTenantProfile,
  SessionRequest,
  SessionResponse,
} from './protocol/session';

// Protocol: workbooks, dashboards, lists (their validators and helpers live in `@service/react/server`)
export type {
  WorkbookType,
  FolderPathEntry,
  ResourceOwner,
  Workbook,
  CreateWorkbookInput,
  DashboardKind,
  WidgetType,
  BreakpointValues,
  DashboardLayout,
  WidgetPosition,
  ResponsiveLayouts,
  DashboardWidget,
  DashboardAppManifest,
  DashboardAppSource,
  DashboardConfig,
  DashboardStatus,
  ReportKind,
  ColumnFormat,
  PeriodComparison,
  ReportSnapshot,
  Dashboard,
  CursorPageParams,
  PageInfo,
  ListPage,
  ManagementErrorBody,
} from './protocol/workbook';

// Protocol: data API (its wire details are the data client's business: types only)
export type {
  UserErrorBody,
  DataErrorBody,
  CubeSqlRequest,
  CubeSqlColumn,
  CubeSqlCell,
  CubeSqlRow,
  CubeSqlLine,
  FilterOperator,
  MemberFilter,
  AndFilter,
  OrFilter,
  Filter,
  TimeGranularity,
  TimeDimension,
  OrderDirection,
  LoadQuery,
  LoadRow,
  MemberAnnotation,
  LoadAnnotation,
  LoadResponse,
  MultiLoadResponse,
  MetaMeasure,
  MetaDimension,
  MetaCube,
  MetaResponse,
} from './protocol/data';

// NDJSON
export { readNdjson, DEFAULT_NDJSON_SLICE_MS } from './ndjson';
export type { ReadNdjsonOptions } from './ndjson';

// Chat client
export { createChatClient, createReplayFilter, DEFAULT_BODY_END_TIMEOUT_MS, DEFAULT_RESUBSCRIBE } from './chat-client';
export type {
  ChatAuth,
  ResubscribeOptions,
  ResubscribeEvent,
  ChatClientOptions,
  ChatStreamLine,
  ChatStreamOptions,
  ChatAbortOptions,
  ChatClient,
  ReplayFilter,
} from './chat-client';

// Thread store
export { createThreadStore, selectFinalAnswer } from './thread-store';
export type {
  ThreadStatus,
  ChatToolCall,
  ChatMessage,
  ThreadSnapshot,
  ThreadStoreOptions,
  ThreadStore,
} from './thread-store';

// Chat controller: the conversation that hooks and non-React UIs share
export { createAgentChat, agentChatReducer, isRunning, INITIAL_AGENT_CHAT_STATE } from './agent-chat';
export type {
  AgentChatController,
  AgentChatCallbacks,
  AgentChatOptions,
  AgentChatOutcome,
  AgentChatSnapshot,
  AgentChatStatus,
  AgentChatState,
  AgentChatAction,
} from './agent-chat';
export type { ScheduleNotify } from './store';

// Embedding
export { createEmbedChannel } from './embed-channel';
export type { EmbedRejection, EmbedChannelOptions, EmbedChannel, EmbedIframe } from './embed-channel';
export { tenantOrigin, buildEmbedUrl, buildFilterUrlParameter } from './embed-url';
// "Ask about this": a drilldown and the dashboard's filters as a question for the chat
export { drilldownQuestion, describeFilters } from './embed-questions';
export type { DrilldownQuestionParts, DrilldownQuestionOptions } from './embed-questions';
// Embed controller: one iframe's life (session per load, ready timeout, queue, view state,
// renewal), which `useEmbed` and non-React hosts share
export {
  createEmbedController,
  EMBED_ERROR_CODES,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_RENEW_AFTER_MS,
  DEFAULT_RENEWAL_LIMITS,
} from './embed-controller';
export type {
  RenewalLimits,
  EmbedStatus,
  EmbedSnapshot,
  EmbedViewState,
  EmbedControllerOptions,
  EmbedController,
} from './embed-controller';
export type {
  EmbedFilterScalar,
  EmbedFilterOperator,
  EmbedFilterCondition,
  EmbedFilterValue,
  EmbedFilterEntry,
  EmbedFilters,
  EmbedTimeGrain,
  DashboardSwitches,
  ChatSwitches,
  EmbedUrlBaseOptions,
  EmbedDashboardParameters,
  DashboardEmbedUrlOptions,
  AppEmbedUrlOptions,
  ChatEmbedUrlOptions,
  BuildEmbedUrlOptions,
} from './embed-url';

// Data client
export { createDataClient, DataQueryError, ContinueWaitExhaustedError, DEFAULT_CONTINUE_WAIT } from './data-client';
export type {
  ContinueWaitOptions,
  DataClientOptions,
  DataTokenRequest,
  DataTokenFunction,
  DataRequestOptions,
  SqlResult,
  SqlChunk,
  DataClient,
} from './data-client';

// Data queries for TanStack Query (framework-free: callable in server loaders and React Server Components)
export {
  dataQueryOptions,
  sqlQueryOptions,
  metaQueryOptions,
  dataInfiniteQueryOptions,
  isRetryableDataError,
  DATA_QUERY_KEY,
  DEFAULT_DATA_STALE_TIME_MS,
  DEFAULT_DATA_RETRIES,
  DEFAULT_DATA_PAGE_SIZE,
} from './data-query';
export type {
  DataSettings,
  DataQuery,
  DeepReadonly,
  DataRow,
  MembersOf,
  LoadValue,
  DataQueryResult,
  SqlQueryResult,
  SqlAnnotation,
  DataQueryKey,
  SqlQueryKey,
  MetaQueryKey,
  DataPagesQueryKey,
  DataQueryOptions,
  DataInfiniteQueryOptions,
} from './data-query';
export { comparisonQuery, comparisonRange } from './data-compare';
export type { MetricComparison, DateRange, ComparisonQueryResult } from './data-compare';
export { toResultView, isDataQueryResult } from './data-result';
export type { ResultView } from './data-result';
export { fetchDataToken, DEFAULT_DATA_TOKEN_RENEW_BEFORE_MS } from './data-token';
export type { FetchDataTokenOptions } from './data-token';
