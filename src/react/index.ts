/**
 * The React layer: `ServiceProvider` and the hooks, over the core's stores and clients.
 *
 * @module
 */
export { ServiceProvider, useServiceContext, useOptionalServiceContext } from './context';
export type {
  ServiceProviderProps,
  ServiceContextValue,
  EmbedSessionRequest,
  GetEmbedSession,
  EmbedDefaults,
  ChatSettings,
  DataSettings,
} from './context';
export { useStore } from './use-store';
export { themeTokens, themeContrastProblems } from './theme';
export type { ThemeTokens } from './theme';
export type { ExternalStore } from './use-store';
export { useLatest, useIsomorphicLayoutEffect } from './use-latest';
export { fetchEmbedSession } from './fetch-embed-session';
export { useEmbed, DEFAULT_READY_TIMEOUT_MS, DEFAULT_RENEW_AFTER_MS } from './use-embed';
export { EMBED_ERROR_CODES, DEFAULT_RENEWAL_LIMITS } from '../core/embed-controller';
export { useServiceQueryClient } from './use-service-query-client';
export { useDataQuery, useSqlQuery, useDataMeta, useDataSettings } from './use-data-query';
export type { UseDataQueryOptions } from './use-data-query';
export { useAgentChat } from './use-agent-chat';
export type {
  UseAgentChatOptions,
  UseAgentChatInit,
  UseAgentChatAdopt,
  UseAgentChatCallbacks,
  UseAgentChatResult,
  AgentChatFeedback,
  AgentChatFeedbackInput,
} from './use-agent-chat';
