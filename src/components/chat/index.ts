/**
 * The agent chat UI: `AgentChat`, and its parts for layouts of your own.
 *
 * @module
 */
export { AgentChat } from './agent-chat';
export type { AgentChatProps, AgentChatViewProps } from './agent-chat';
export { AgentChatProvider, useAgentChatConfig, useAgentChatSelector, useAgentChatState } from './context';
export type {
  AgentChatProviderProps,
  AgentChatDisplayProps,
  AgentChatComponents,
  AgentChatConfig,
  ChatFollowUpInput,
  ChatToolViewProps,
  ChatPartViewProps,
  ComposerFocus,
} from './context';
export { DEFAULT_AGENT_CHAT_LABELS } from './labels';
export type { AgentChatLabels, ChatLabels } from './labels';
export { ChatMessageList } from './message-list';
export type { ChatMessageListProps } from './message-list';
export { ChatMessageItem, ChatThinking } from './message';
export type { ChatMessageProps, ChatThinkingProps } from './message';
export { ChatToolCallView } from './tool-call';
export type { ChatToolCallProps, ChatToolCallState } from './tool-call';
export { ChatActivity } from './activity';
export type { ChatActivityProps } from './activity';
export { ChatMessageActions } from './message-actions';
export type { ChatMessageActionsProps } from './message-actions';
export {
  ChatComposer,
  ChatComposerRoot,
  ChatComposerInput,
  ChatComposerSend,
  ChatComposerStop,
  useChatComposer,
  useComposerSend,
  useComposerStop,
} from './composer';
export type {
  ChatComposerProps,
  ChatComposerRootProps,
  ChatComposerInputProps,
  ChatComposerButtonProps,
  ChatComposerState,
} from './composer';
export { ChatEmptyState, ChatSuggestions } from './suggestions';
export type { ChatEmptyStateProps, ChatSuggestionsProps } from './suggestions';
export { ChatAnnouncer } from './announcer';
export type { ChatAnnouncerProps } from './announcer';
