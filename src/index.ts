/**
 * `@service/react`: the React entry (provider, hooks, embeds and the chat UI).
 *
 * It also re-exports the framework-free core, as `@tanstack/react-query` re-exports
 * `query-core`, so an app needs one import path. Server code (and React Server Components) should
 * import `@service/react/core` instead: this entry is a `'use client'` boundary.
 *
 * @module
 */

// React layer: provider and hooks
export { ServiceProvider, useServiceContext, useStore, themeTokens, themeContrastProblems } from './react';
export type {
  ServiceProviderProps,
  ServiceContextValue,
  EmbedSessionRequest,
  GetEmbedSession,
  EmbedDefaults,
  ChatSettings,
  DataSettings,
  ExternalStore,
  ThemeTokens,
} from './react';
export {
  fetchEmbedSession,
  useEmbed,
  DEFAULT_READY_TIMEOUT_MS,
  DEFAULT_RENEW_AFTER_MS,
  DEFAULT_RENEWAL_LIMITS,
  EMBED_ERROR_CODES,
} from './react';
export type {
  UseEmbedOptions,
  UseEmbedResult,
  EmbedHandle,
  EmbedCallbacks,
  EmbedViewProps,
  EmbedCommonOptions,
  EmbedDashboardOptions,
  EmbedErrorInfo,
} from './react/use-embed';
export type { EmbedStatus, RenewalLimits } from './core/embed-controller';

// Components
export { EmbeddedDashboard, EmbeddedApp, EmbeddedChat } from './components/embeds/embedded';
export type {
  EmbeddedDashboardProps,
  EmbeddedAppProps,
  EmbeddedChatProps,
  EmbedFrameProps,
  EmbedComponent,
} from './components/embeds/embedded';
export type { PartComponent, PartTag } from './components/part';
export {
  EmbedPlaceholder,
  EmbedErrorState,
  EmbedRetryButton,
  embedLabels,
  describeEmbedError,
} from './components/embeds/parts';
export type {
  EmbedLabels,
  EmbedErrorDescription,
  EmbedPlaceholderProps,
  EmbedErrorStateProps,
  EmbedRetryButtonProps,
} from './components/embeds/parts';
export {
  SqlToolView,
  ResultTable,
  ResultChart,
  DEFAULT_SQL_TOOL_LABELS,
  DEFAULT_MAX_TABLE_ROWS,
  DEFAULT_CHART_LIMITS,
} from './components/results';
export type {
  SqlToolViewProps,
  ResultTableProps,
  ResultTableSort,
  ResultChartProps,
  SqlToolLabels,
  ChartLimits,
  ColumnFormats,
  FormatNumber,
} from './components/results';

export { StreamingMarkdown, DEFAULT_MARKDOWN_LABELS, DEFAULT_MARKDOWN_LIMITS } from './components/markdown';
export type { StreamingMarkdownProps } from './components/markdown';
export type {
  MarkdownLimits,
  MarkdownComponents,
  MarkdownElementProps,
  StreamingMarkdownLabels,
} from './components/markdown';
export type { ResultColumn } from './core/result-data';
// Values of query results as people read them (the result table's formatting, for views of your own).
export { formatValue, describeColumn, humanizeName, columnTitle, pluralForm } from './core/format-value';
export type { FormatColumn, ValueFormat, TemporalGranularity, PluralForms } from './core/format-value';
export { useAgentChat } from './react';
export type {
  UseAgentChatOptions,
  UseAgentChatInit,
  UseAgentChatAdopt,
  UseAgentChatCallbacks,
  UseAgentChatResult,
  AgentChatFeedback,
  AgentChatFeedbackInput,
} from './react';

// Data in React: hooks over TanStack Query (the query options themselves are core's, below) and
// native views of the partner's own queries.
export { useDataQuery, useSqlQuery, useDataMeta, useDataSettings } from './react';
export type { UseDataQueryOptions } from './react';
export {
  MetricCard,
  QueryChart,
  QueryTable,
  DEFAULT_QUERY_TABLE_PAGE_SIZE,
  DEFAULT_DATA_VIEW_LABELS,
  defaultChartSpec,
  chartFieldNames,
} from './components/data';
export type {
  MetricCardProps,
  QueryChartProps,
  QueryTableProps,
  ChartSpec,
  DataViewLabels,
  MetricChange,
  MetricDirection,
  FormatCount,
  DataViewSource,
  ViewQuery,
} from './components/data';

// Components
export {
  AgentChat,
  AgentChatProvider,
  useAgentChatConfig,
  useAgentChatSelector,
  useAgentChatState,
  DEFAULT_AGENT_CHAT_LABELS,
  ChatMessageList,
  ChatMessageItem,
  ChatThinking,
  ChatToolCallView,
  ChatActivity,
  ChatMessageActions,
  ChatComposer,
  ChatComposerRoot,
  ChatComposerInput,
  ChatComposerSend,
  ChatComposerStop,
  useChatComposer,
  useComposerSend,
  useComposerStop,
  ChatEmptyState,
  ChatSuggestions,
  ChatAnnouncer,
} from './components/chat';
export type {
  AgentChatProps,
  AgentChatViewProps,
  AgentChatProviderProps,
  AgentChatDisplayProps,
  AgentChatComponents,
  AgentChatConfig,
  AgentChatLabels,
  ChatLabels,
  ChatFollowUpInput,
  ChatToolViewProps,
  ChatPartViewProps,
  ComposerFocus,
  ChatMessageListProps,
  ChatMessageProps,
  ChatThinkingProps,
  ChatToolCallProps,
  ChatToolCallState,
  ChatActivityProps,
  ChatMessageActionsProps,
  ChatComposerProps,
  ChatComposerRootProps,
  ChatComposerInputProps,
  ChatComposerButtonProps,
  ChatComposerState,
  ChatEmptyStateProps,
  ChatSuggestionsProps,
  ChatAnnouncerProps,
} from './components/chat';

// The framework-free core
export * from './core';
