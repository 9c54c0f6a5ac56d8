/**
 * The agent chat UI: `AgentChat`, and its parts for layouts of your own.
 *
 * @module
 */
export { AgentChat } from './agent-chat';
export type { AgentChatProps, AgentChatViewProps } from './agent-chat';
export { AgentChatProvider, useAgentChatConfig, useAgentChatState } from './context';
export type {
  AgentChatProviderProps,
  AgentChatComponents,
  AgentChatConfig,
  ChatToolViewProps,
  ChatPartViewProps,
} from './context';
export { DEFAULT_AGENT_CHAT_LABELS } from './labels';
export type { AgentChatLabels } from './labels';
export { ChatMessageList } from './message-list';
export type { ChatMessageListProps } from './message-list';
export { ChatMessageItem, ChatThinking } from './message';
export type { ChatMessageProps, ChatThinkingProps } from './message';
export { ChatToolCallView } from './tool-call';
export type { ChatToolCallProps } from './tool-call';
export { ChatComposer } from './composer';
export type { ChatComposerProps } from './composer';
export { ChatEmptyState } from './suggestions';
export type { ChatEmptyStateProps } from './suggestions';
export { ChatAnnouncer } from './announcer';
export type { ChatAnnouncerProps } from './announcer';
