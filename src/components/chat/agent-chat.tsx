/**
 * `AgentChat`: the whole chat, ready to drop in: the message list, the empty state with
 * suggestions, the composer and the announcer, over `useAgentChat`. Compose the parts yourself
 * with `AgentChatProvider` for another layout.
 *
 * @module
 */
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import type { EmbedTheme } from '../../core/protocol/embed';
import { useAgentChat, type UseAgentChatOptions, type UseAgentChatResult } from '../../react/use-agent-chat';
import { useThemeTokens } from '../../react/use-theme-tokens';
import { ChatAnnouncer } from './announcer';
import { ChatComposer } from './composer';
import { cx } from './compose';
import { AgentChatProvider, type AgentChatComponents } from './context';
import type { AgentChatLabels } from './labels';
import { ChatMessageList } from './message-list';
import { ChatEmptyState } from './suggestions';

/** Props of {@link AgentChat}: the options of `useAgentChat`, and what the UI shows. */
export interface AgentChatProps extends UseAgentChatOptions, Omit<ComponentPropsWithoutRef<'section'>, 'onError'> {
  /**
   * A conversation you drive yourself (`useAgentChat()` higher up); default one of its own, made
   * from the options on this component and the `ServiceProvider`'s `chat` settings.
   */
  chat?: UseAgentChatResult;
  /** Questions offered while the conversation is empty. */
  suggestions?: readonly string[];
  /** Shows the agent's reasoning, collapsed. Default `false`. */
  showThinking?: boolean;
  /** Any subset of the UI strings. */
  labels?: Partial<AgentChatLabels>;
  /** Views replacing the library's: tools by name, message parts. */
  components?: AgentChatComponents;
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
 * The agent chat: `data-part="chat"`, `data-state` the conversation's status.
 *
 * ```tsx
 * <ServiceProvider chat={{ url: '/api/service' }}>
 *   <AgentChat suggestions={['Revenue by month', 'Top 10 customers']} />
 * </ServiceProvider>
 * ```
 */
export const AgentChat = /*#__PURE__*/ forwardRef<HTMLElement, AgentChatProps>(function AgentChat(props, ref) {
  const {
    chat: external,
    url,
    auth,
    sessionSettings,
    fetch,
    chatId,
    onChatId,
    onFinish,
    onError,
    suggestions,
    showThinking,
    labels,
    components,
    disabled,
    autoFocus,
    theme,
    input,
    onInputChange,
    className,
    style,
    ...rest
  } = props;
  const tokens = useThemeTokens(theme);
  const own = useAgentChat({ url, auth, sessionSettings, fetch, chatId, onChatId, onFinish, onError });
  const chat = external ?? own;
  const empty = chat.messages.length === 0 && chat.status === 'idle';
  return (
    <AgentChatProvider chat={chat} labels={labels} components={components} showThinking={showThinking}>
      <section
        ref={ref}
        data-part="chat"
        data-state={chat.status}
        className={cx('service-chat', className)}
        style={{ ...tokens, ...style }}
        {...rest}
      >
        {empty ? <ChatEmptyState suggestions={suggestions} /> : <ChatMessageList />}
        <ChatComposer disabled={disabled} autoFocus={autoFocus} input={input} onInputChange={onInputChange} />
        <ChatAnnouncer />
      </section>
    </AgentChatProvider>
  );
});
