/**
 * What `AgentChat` shares with its parts: the conversation (a `useAgentChat` result), the labels,
 * the replacement views and the display options. Parts used outside `AgentChat` read it from an
 * `AgentChatProvider` of their own.
 *
 * @module
 */
import { createContext, useContext, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { ServiceConfigError } from '../../core/errors';
import type { ChatMessage, ChatToolCall } from '../../core/thread-store';
import type { UseAgentChatResult } from '../../react/use-agent-chat';
import { DEFAULT_AGENT_CHAT_LABELS, type AgentChatLabels } from './labels';

/** Props of a replacement tool view (`components.tools[name]`) and of `components.toolCall`. */
export interface ChatToolViewProps {
  /** The tool call to show: its name, input and result. */
  call: ChatToolCall;
  /** The message that reports the call. */
  message: ChatMessage;
}

/** Props of a replacement view of a message part (`thinking`, `content`). */
export interface ChatPartViewProps {
  /** The message whose part this view shows. */
  message: ChatMessage;
  /** True while this message still streams. */
  streaming: boolean;
  /** True when this message is the final answer (4.4). */
  final: boolean;
}

/**
 * Views that replace the library's own: any tool by name (`tools: { serviceSqlApi: MyView }`),
 * or a message part for every message (`thinking`, `content`, `toolCall` for any tool without
 * its own entry in `tools`).
 */
export interface AgentChatComponents {
  /** Views of tools by tool name, such as `serviceSqlApi`. */
  tools?: Readonly<Record<string, ComponentType<ChatToolViewProps>>>;
  /** The view of every tool call without its own entry in `tools`. */
  toolCall?: ComponentType<ChatToolViewProps>;
  /** The view of a message's `thinking` (shown only with `showThinking`). */
  thinking?: ComponentType<ChatPartViewProps>;
  /** The view of a message's text (Markdown by default). */
  content?: ComponentType<ChatPartViewProps>;
}

/**
 * What the parts read, in two contexts: the display settings, which rarely change, apart from the
 * conversation, which changes every frame while an answer streams. A message reads only the
 * first, so a delta re-renders the message it belongs to and no other.
 */
export interface AgentChatConfig {
  /** Every string of the chat UI, defaults filled in. */
  labels: AgentChatLabels;
  /** Replacement views; `{}` for the library's own. */
  components: AgentChatComponents;
  /** Whether the agent's `thinking` is shown. */
  showThinking: boolean;
}

/** A context with a DevTools name, made in one pure call so an app without the chat drops it. */
function namedContext<T>(displayName: string) {
  const context = createContext<T | null>(null);
  context.displayName = displayName;
  return context;
}

const ConfigContext = /*#__PURE__*/ namedContext<AgentChatConfig>('AgentChatConfigContext');
const ChatContext = /*#__PURE__*/ namedContext<UseAgentChatResult>('AgentChatContext');

/** Props of {@link AgentChatProvider}. */
export interface AgentChatProviderProps {
  /** The conversation, from `useAgentChat`. */
  chat: UseAgentChatResult;
  /** Any subset of the strings; the rest stay English. */
  labels?: Partial<AgentChatLabels>;
  /** Replacement views of tools or message parts; default none. */
  components?: AgentChatComponents;
  /** Shows the agent's `thinking`, collapsed. Default `false`: hidden. */
  showThinking?: boolean;
  /** The chat parts (`ChatMessageList`, `ChatComposer`...) in your layout. */
  children?: ReactNode;
}

const NO_COMPONENTS: AgentChatComponents = {};

function sameEntries(a: object | undefined, b: object | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.is(a[key as keyof object], b[key as keyof object]))
  );
}

/**
 * The labels with the defaults filled in, the same object while the entries stay the same:
 * `labels` is usually an inline literal, and a new one must not re-render every part.
 */
function useMergedLabels(labels: Partial<AgentChatLabels> | undefined): AgentChatLabels {
  const [cache, setCache] = useState<{ given?: Partial<AgentChatLabels>; merged: AgentChatLabels }>(() => ({
    merged: DEFAULT_AGENT_CHAT_LABELS,
  }));
  if (sameEntries(cache.given, labels)) return cache.merged;
  const next = {
    given: labels,
    merged: labels ? { ...DEFAULT_AGENT_CHAT_LABELS, ...labels } : DEFAULT_AGENT_CHAT_LABELS,
  };
  // State derived during render: React re-renders at once with it, before any child sees the old one.
  setCache(next);
  return next.merged;
}

/**
 * Gives the chat parts (`ChatMessageList`, `ChatComposer`, ...) a conversation, for layouts of
 * your own; `AgentChat` renders one itself.
 */
export function AgentChatProvider({
  chat,
  labels,
  components = NO_COMPONENTS,
  showThinking = false,
  children,
}: AgentChatProviderProps): ReactNode {
  const merged = useMergedLabels(labels);
  const config = useMemo(() => ({ labels: merged, components, showThinking }), [merged, components, showThinking]);
  return (
    <ConfigContext.Provider value={config}>
      <ChatContext.Provider value={chat}>{children}</ChatContext.Provider>
    </ConfigContext.Provider>
  );
}

function outside(part: string): ServiceConfigError {
  return new ServiceConfigError(`\`${part}\` must be used within <AgentChat> or <AgentChatProvider>`);
}

/** The display settings of the nearest `AgentChat` (or `AgentChatProvider`); throws outside one, naming the part. */
export function useAgentChatConfig(part: string): AgentChatConfig {
  const value = useContext(ConfigContext);
  if (!value) throw outside(part);
  return value;
}

/** The conversation of the nearest `AgentChat` (or `AgentChatProvider`); throws outside one, naming the part. */
export function useAgentChatState(part: string): UseAgentChatResult {
  const value = useContext(ChatContext);
  if (!value) throw outside(part);
  return value;
}
