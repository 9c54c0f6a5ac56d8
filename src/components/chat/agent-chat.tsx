/**
 * `AgentChat`: the whole chat, ready to drop in: the message list (or the empty state with
 * suggestions), the composer and the announcer, over one conversation. Compose the parts yourself
 * with `AgentChatProvider` for another layout.
 *
 * @module
 */
import { useEffect, type ComponentPropsWithoutRef, type KeyboardEvent } from 'react';
import { isRunning } from '../../core/agent-chat';
import type { EmbedTheme } from '../../core/protocol/embed';
import type { UseAgentChatOptions } from '../../react/use-agent-chat';
import { useStore } from '../../react/use-store';
import { useThemeTokens } from '../../react/use-theme-tokens';
import { createPart } from '../part';
import { ChatAnnouncer } from './announcer';
import { ChatComposer } from './composer';
import { AgentChatContextProvider, useAgentChatProviderValue, type AgentChatDisplayProps } from './context';
import { ChatMessageList } from './message-list';
import { preloadSqlView } from './sql-view-loader';
import { ChatEmptyState } from './suggestions';

/** What {@link AgentChat} shows, besides the conversation's options. */
export interface AgentChatViewProps
  extends AgentChatDisplayProps, Omit<ComponentPropsWithoutRef<'section'>, 'onError'> {
  /** Questions offered while the conversation is empty. Default none. */
  suggestions?: readonly string[];
  /** Disables the composer. Default `false`. */
  disabled?: boolean;
  /** Focuses the textbox on mount. Default `false`. */
  autoFocus?: boolean;
  /**
   * The brand theme of this chat, field by field over `ServiceProvider`'s `theme` (which the
   * chat follows by default): `primaryColor`, `font`, `borderRadius` and `analyticsChat` colours
   * become its `--service-*` tokens and its charts' (docs/theming.md). Tokens in `style` win over both.
   */
  theme?: EmbedTheme;
  /**
   * The question in the composer, when you hold it: pre-fill one (a dashboard's drilldown, see
   * `drilldownQuestion`) and keep it with `onInputChange`. Default: the composer holds it.
   */
  input?: string;
  /** Every change of the question in the composer (typing, and clearing it once sent). */
  onInputChange?: (input: string) => void;
}

/**
 * Props of {@link AgentChat}: the options of `useAgentChat` (either `chat`, a controller made with
 * `createAgentChat` or `useAgentChat().chat`, or the settings to make one of its own, never both)
 * and what the UI shows.
 */
export type AgentChatProps = UseAgentChatOptions & AgentChatViewProps;

/**
 * The agent chat: `data-part="chat"`, `data-state` the conversation's status. Escape anywhere in
 * it stops a running answer.
 *
 * ```tsx
 * <ServiceProvider chat={{ url: '/api/service' }}>
 *   <AgentChat suggestions={['Revenue by month', 'Top 10 customers']} />
 * </ServiceProvider>
 * ```
 */
export const AgentChat = /*#__PURE__*/ createPart(
  'AgentChat',
  'section',
  'chat',
  'service-chat',
  function AgentChat(props: AgentChatProps) {
    const {
      chat: _chat,
      url: _url,
      auth: _auth,
      sessionSettings: _sessionSettings,
      fetch: _fetch,
      chatId: _chatId,
      onChatId: _onChatId,
      onFinish: _onFinish,
      onError: _onError,
      onFeedback: _onFeedback,
      labels: _labels,
      components: _components,
      showThinking: _showThinking,
      allowedImageOrigins: _allowedImageOrigins,
      locale: _locale,
      followUps: _followUps,
      suggestions,
      disabled,
      autoFocus,
      theme,
      input,
      onInputChange,
      ...rest
    } = props;
    const tokens = useThemeTokens(theme);
    const value = useAgentChatProviderValue(props);
    const { chat } = value.config;
    const status = useStore(chat, (snapshot) => snapshot.status);
    const empty = useStore(chat, (snapshot) => snapshot.messages.length === 0 && snapshot.status === 'idle');
    // The view of a query's result loads with the chat, not when the first result arrives.
    useEffect(() => {
      void preloadSqlView();
    }, []);
    return {
      rest,
      state: status,
      props: {
        // The caller's `style` is merged over the tokens, so tokens set there win.
        style: tokens,
        onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
          // Escape stops the answer from anywhere in the chat (the composer handles its own first).
          if (event.key === 'Escape' && isRunning(chat.getSnapshot().status)) {
            event.preventDefault();
            void chat.abort();
          }
        },
      },
      children: (
        <AgentChatContextProvider value={value}>
          {empty ? <ChatEmptyState suggestions={suggestions} /> : <ChatMessageList />}
          <ChatComposer disabled={disabled} autoFocus={autoFocus} input={input} onInputChange={onInputChange} />
          <ChatAnnouncer />
        </AgentChatContextProvider>
      ),
    };
  },
);
