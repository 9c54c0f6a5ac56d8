/**
 * `@service/react/core`: the framework-free protocol and clients of the service. Runs in
 * browsers, Node and workers; no React.
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
  codeForStatus,
} from './errors';
export type { ServiceErrorOptions } from './errors';

// Protocol: shared
export type { ValidationResult } from './protocol/shared';

// Protocol: chat requests and stream lines
export {
  CHAT_STREAM_PATH,
  CHAT_ABORT_PATH,
  STREAMING_IN_PROGRESS,
  SENTINEL_IDS,
  AGENT_NODE,
  MESSAGE_ID_PATTERN,
  createMessageId,
  isMessageId,
  sessionSettingsProblems,
  validateChatRequest,
  resolveIsDefaultBranch,
  classifyStreamLine,
  isSentinelId,
  isFinalAnswerMessage,
  createRpcAuthError,
} from './protocol/chat';
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
export {
  SERVICE_META_TOOL,
  SERVICE_SQL_API_TOOL,
  SQL_RESULT_ROW_LIMIT,
  classifyToolResult,
  parseToolCall,
  toResultTable,
} from './protocol/tools';
export type {
  MetaSearchMember,
  MetaSearchCube,
  ServiceMetaInput,
  ServiceMetaResult,
  ServiceSqlApiInput,
  SqlColumn,
  ServiceSqlApiResult,
  LegacyQueryResult,
  ToolResult,
  ParsedToolCall,
  ResultTable,
} from './protocol/tools';

// Protocol: embed messaging
export {
  EMBED_SOURCE,
  EMBED_EVENT_PREFIX,
  EMBED_ACTION_PREFIX,
  SURFACES,
  EMBED_EVENT_TYPES,
  EMBED_ACTION_TYPES,
  SUPPORTED_LOCALES,
  DEFAULT_LOCALE,
  FILTER_PARAMETER_PREFIX,
  TIME_GRAIN_PARAMETER_PREFIX,
  resolveLocale,
  isLocaleTag,
  isTimeZone,
  isMemberName,
  isFilterUrlParameter,
  parseEmbedEvent,
  parseEmbedAction,
  isEmbedEvent,
  isEmbedAction,
  isEmbedEventType,
  createEmbedAction,
  createEmbedEvent,
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
  RevokeSessionRequest,
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

// Protocol: data API
export {
  DATA_API_PATHS,
  CONTINUE_WAIT,
  INVALID_TOKEN,
  AUTHORIZATION_HEADER_NOT_SET,
  FILTER_OPERATORS,
  isDataErrorBody,
  isUserErrorBody,
  isContinueWait,
  classifyCubeSqlLine,
  isLoadResponse,
  isMultiLoadResponse,
  isMetaResponse,
} from './protocol/data';
export type {
  UserErrorBody,
  DataErrorBody,
  CubeSqlRequest,
  CubeSqlColumn,
  CubeSqlCell,
  CubeSqlRow,
  CubeSqlSchemaLine,
  CubeSqlDataLine,
  CubeSqlErrorLine,
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
  LoadRequest,
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
export { readNdjson } from './ndjson';
export type { ReadNdjsonOptions } from './ndjson';

// Chat client
export { createChatClient, createReplayFilter, DEFAULT_RESUBSCRIBE } from './chat-client';
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

// Embedding
export { createEmbedChannel } from './embed-channel';
export type { EmbedRejection, EmbedChannelOptions, EmbedChannel } from './embed-channel';
export { tenantOrigin, buildEmbedUrl, buildFilterUrlParameter } from './embed-url';
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
  DataRequestOptions,
  SqlResult,
  SqlChunk,
  DataClient,
} from './data-client';
