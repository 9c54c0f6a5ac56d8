/**
 * What `AgentChat` shares with its parts: the conversation's controller (not its snapshot: each
 * part reads the slice it shows, so a streamed delta re-renders the message that changed and no
 * other part), the labels, the replacement views and the display options. Parts used outside
 * `AgentChat` read it from an `AgentChatProvider` of their own.
 *
 * @module
 */
import { createContext, useContext, useMemo, useRef, type ComponentType, type ReactNode } from 'react';
import type { AgentChatController, AgentChatSnapshot } from '../../core/agent-chat';
import { ServiceConfigError } from '../../core/errors';
import type { ChatMessage, ChatToolCall } from '../../core/thread-store';
import {
  useAgentChatResult,
  useChatController,
  type AgentChatFeedbackInput,
  type UseAgentChatOptions,
  type UseAgentChatResult,
} from '../../react/use-agent-chat';
import { useLatest } from '../../react/use-latest';
import { useStore } from '../../react/use-store';
import { named } from '../part';
import { useStableEntries, ViewSettingsProvider, type ViewSettings } from '../view-settings';
import { DEFAULT_AGENT_CHAT_LABELS, type AgentChatLabels } from './labels';
import { threadView, type ChatTurn, type ThreadView } from './thread-view';

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
  /** True when this message is its turn's final answer. */
  final: boolean;
}

/**
 * Views that replace the library's own: any tool by name (`tools: { serviceSqlApi: MyView }`),
 * or a message part for every message (`thinking`, `content`, `toolCall` for any tool without
 * its own entry in `tools`). Looked up as own properties only: a tool named `constructor` is just
 * a tool.
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

/** What follow-up suggestions are computed from: a finished turn. */
export interface ChatFollowUpInput {
  /** The question of the turn. */
  question: string;
  /** The turn's final answer. */
  answer: ChatMessage;
  /** Every message of the turn that shows (the question first), tool calls included. */
  messages: readonly ChatMessage[];
}

/** The focus target of the composer, so suggestions and actions can give it focus back. */
export interface ComposerFocus {
  /** The composer's textbox, while one is mounted. */
  current: HTMLTextAreaElement | null;
}

/**
 * What the parts read: the conversation's controller and the display settings, which change
 * rarely. A part reads the conversation itself through {@link useAgentChatSelector}.
 */
export interface AgentChatConfig {
  /** The conversation's controller. */
  chat: AgentChatController;
  /** Every string of the chat UI and its nested views, defaults filled in. */
  labels: AgentChatLabels;
  /** Replacement views; `{}` for the library's own. */
  components: AgentChatComponents;
  /** Whether the agent's `thinking` is shown. */
  showThinking: boolean;
  /** Reports a rating to `onFeedback`; `undefined` without one (no feedback buttons then). */
  feedback: ((feedback: AgentChatFeedbackInput) => void) | undefined;
  /** Follow-up questions after an answer; `undefined`: none. */
  followUps: ((turn: ChatFollowUpInput) => readonly string[]) | undefined;
  /** The composer's textbox, for giving focus back after a suggestion or "Ask again". */
  composer: ComposerFocus;
  /** The locale of numbers in the chat's strings; `undefined`: the browser's. */
  locale: string | undefined;
}

const ConfigContext = /*#__PURE__*/ named(
  /*#__PURE__*/ createContext<AgentChatConfig | null>(null),
  'AgentChatContext',
);

/** What {@link AgentChatProvider} and `AgentChat` show, besides the conversation. */
export interface AgentChatDisplayProps {
  /** Any subset of the strings (the chat's and its nested views'); the rest stay English. */
  labels?: Partial<AgentChatLabels>;
  /** Replacement views of tools or message parts; default none. */
  components?: AgentChatComponents;
  /** Shows the agent's `thinking`, collapsed. Default `false`: hidden. */
  showThinking?: boolean;
  /**
   * Origins images in answers may load from, as `https://cdn.example.com`; reaches every markdown
   * view in the chat. Default none: no image ever loads (see `StreamingMarkdown`).
   */
  allowedImageOrigins?: readonly string[];
  /** Locale of numbers and dates in the chat and its tables, a BCP-47 tag. Default: the browser's. */
  locale?: string;
  /**
   * Follow-up questions offered after an answer, computed from the finished turn (its question,
   * final answer and tool calls); picked, one is sent like a typed question. Default none.
   */
  followUps?: (turn: ChatFollowUpInput) => readonly string[];
}

/**
 * Props of {@link AgentChatProvider}: the conversation (a controller as `chat`, or the options of
 * `useAgentChat` to make one) and what the parts show.
 */
export type AgentChatProviderProps = UseAgentChatOptions &
  AgentChatDisplayProps & {
    /** The chat parts (`ChatMessageList`, `ChatComposer`...) in your layout. */
    children?: ReactNode;
  };

const NO_COMPONENTS: AgentChatComponents = {};

/**
 * Gives the chat parts (`ChatMessageList`, `ChatComposer`, ...) a conversation, for layouts of
 * your own; `AgentChat` renders one itself. Give it a controller (`chat`, from `createAgentChat`
 * or `useAgentChat().chat`) or the options to make one, never both. Renders no element.
 */
export function AgentChatProvider(props: AgentChatProviderProps): ReactNode {
  const { children } = props;
  const value = useAgentChatProviderValue(props);
  return <AgentChatContextProvider value={value}>{children}</AgentChatContextProvider>;
}

/** The context value of a provider's props (shared by `AgentChatProvider` and `AgentChat`). */
export function useAgentChatProviderValue(props: UseAgentChatOptions & AgentChatDisplayProps): {
  config: AgentChatConfig;
  settings: ViewSettings;
} {
  const { labels, components = NO_COMPONENTS, showThinking = false, allowedImageOrigins, locale, followUps } = props;
  const { chat, feedback } = useChatController(props);
  const given = useStableEntries(labels);
  const merged = useMemo(
    () => (given ? { ...DEFAULT_AGENT_CHAT_LABELS, ...given } : DEFAULT_AGENT_CHAT_LABELS),
    [given],
  );
  const hasFeedback = props.onFeedback !== undefined;
  // Read when a turn ends, through a ref: an inline function re-renders nothing.
  const latestFollowUps = useLatest(followUps);
  const hasFollowUps = followUps !== undefined;
  const composer = useRef<HTMLTextAreaElement | null>(null);
  const origins = useStableEntries(allowedImageOrigins);
  const config = useMemo<AgentChatConfig>(
    () => ({
      chat,
      labels: merged,
      components,
      showThinking,
      feedback: hasFeedback ? feedback : undefined,
      followUps: hasFollowUps ? (turn) => latestFollowUps.current?.(turn) ?? [] : undefined,
      composer,
      locale,
    }),
    [chat, merged, components, showThinking, hasFeedback, feedback, hasFollowUps, latestFollowUps, locale],
  );
  const settings = useMemo<ViewSettings>(
    () => ({ labels: merged, allowedImageOrigins: origins, locale }),
    [merged, origins, locale],
  );
  return useMemo(() => ({ config, settings }), [config, settings]);
}

/** Provides a value made by {@link useAgentChatProviderValue}. */
export function AgentChatContextProvider({
  value,
  children,
}: {
  value: { config: AgentChatConfig; settings: ViewSettings };
  children?: ReactNode;
}): ReactNode {
  return (
    <ConfigContext.Provider value={value.config}>
      <ViewSettingsProvider settings={value.settings}>{children}</ViewSettingsProvider>
    </ConfigContext.Provider>
  );
}

function outside(part: string): ServiceConfigError {
  return new ServiceConfigError(`\`${part}\` must be used within <AgentChat> or <AgentChatProvider>`);
}

/**
 * The controller and display settings of the nearest `AgentChat` (or `AgentChatProvider`); throws
 * outside one, naming the part. Reading it re-renders only when the settings change.
 */
export function useAgentChatConfig(part: string): AgentChatConfig {
  const value = useContext(ConfigContext);
  if (!value) throw outside(part);
  return value;
}

/**
 * A slice of the nearest chat's conversation: re-renders only when `selector`'s result changes (by
 * `isEqual`, default `Object.is`). For parts of your own; the library's parts read theirs so.
 *
 * ```tsx
 * const status = useAgentChatSelector((snapshot) => snapshot.status);
 * ```
 */
export function useAgentChatSelector<T>(
  selector: (snapshot: AgentChatSnapshot) => T,
  isEqual?: (a: T, b: T) => boolean,
): T {
  return useStore(useAgentChatConfig('useAgentChatSelector').chat, selector, isEqual);
}

/** A slice of the derived thread view (turns, rows) of the nearest chat. */
export function useThreadSelector<T>(
  part: string,
  selector: (view: ThreadView) => T,
  isEqual?: (a: T, b: T) => boolean,
): T {
  const { chat, showThinking } = useAgentChatConfig(part);
  return useStore(chat, (snapshot) => selector(threadView(snapshot, showThinking)), isEqual);
}

/**
 * The whole conversation of the nearest chat and its actions, as `useAgentChat` returns them.
 * Re-renders on every change (every frame while an answer streams): prefer
 * {@link useAgentChatSelector} for a part.
 */
export function useAgentChatState(part: string): UseAgentChatResult {
  const { chat, feedback } = useAgentChatConfig(part);
  return useAgentChatResult(chat, feedback ?? ignore);
}

const ignore = () => {};

export type { ChatTurn };
