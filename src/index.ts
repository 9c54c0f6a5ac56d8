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
export { ServiceProvider, useServiceContext, useStore } from './react';
export type {
  ServiceProviderProps,
  ServiceContextValue,
  EmbedSessionRequest,
  GetEmbedSession,
  EmbedDefaults,
  ChatSettings,
  DataSettings,
  ExternalStore,
} from './react';
export { useAgentChat } from './react';
export type { UseAgentChatOptions, UseAgentChatResult } from './react';

// Components
export {
  AgentChat,
  AgentChatProvider,
  useAgentChatConfig,
  useAgentChatState,
  DEFAULT_AGENT_CHAT_LABELS,
  ChatMessageList,
  ChatMessageItem,
  ChatThinking,
  ChatToolCallView,
  ChatComposer,
  ChatEmptyState,
  ChatAnnouncer,
} from './components/chat';
export type {
  AgentChatProps,
  AgentChatProviderProps,
  AgentChatComponents,
  AgentChatConfig,
  AgentChatLabels,
  ChatToolViewProps,
  ChatPartViewProps,
  ChatMessageListProps,
  ChatMessageProps,
  ChatThinkingProps,
  ChatToolCallProps,
  ChatComposerProps,
  ChatEmptyStateProps,
  ChatAnnouncerProps,
} from './components/chat';

// The framework-free core
export * from './core';
