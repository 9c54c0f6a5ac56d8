/**
 * One message of the conversation and its parts: the agent's `thinking` (collapsible, shown only
 * with `showThinking`), a tool call, the text, and the final answer, which stands out from the
 * working messages around it.
 *
 * @module
 */
import { forwardRef, memo, useState, type ComponentPropsWithoutRef, type ReactNode, type SyntheticEvent } from 'react';
import type { ChatMessage } from '../../core/thread-store';
import { StreamingMarkdown } from '../markdown';
import { composeEventHandlers, cx } from './compose';
import { useAgentChatConfig } from './context';
import { ChatToolCallView } from './tool-call';

/** Props of {@link ChatThinking}. */
export interface ChatThinkingProps extends ComponentPropsWithoutRef<'details'> {
  /** The message whose `thinking` is shown. */
  message: ChatMessage;
  /** True while the message streams. */
  streaming?: boolean;
}

/** The agent's reasoning, collapsed: `data-part="thinking"`, `data-state` `open` or `closed`. */
export const ChatThinking = /*#__PURE__*/ forwardRef<HTMLDetailsElement, ChatThinkingProps>(function ChatThinking(
  { message, streaming = false, className, onToggle, ...props },
  ref,
) {
  const { labels, components } = useAgentChatConfig('ChatThinking');
  const [open, setOpen] = useState(false);
  const Custom = components.thinking;
  return (
    <details
      ref={ref}
      data-part="thinking"
      data-state={open ? 'open' : 'closed'}
      className={cx('service-chat-thinking', className)}
      onToggle={composeEventHandlers(onToggle, (event: SyntheticEvent<HTMLDetailsElement>) =>
        setOpen(event.currentTarget.open),
      )}
      {...props}
    >
      <summary>{labels.thinking}</summary>
      {Custom ? (
        <Custom message={message} streaming={streaming} final={false} />
      ) : (
        <StreamingMarkdown text={message.thinking} streaming={streaming} />
      )}
    </details>
  );
});

/** Props of {@link ChatMessageItem}. */
export interface ChatMessageProps extends ComponentPropsWithoutRef<'article'> {
  /** The message, as the conversation's `messages` hold it. */
  message: ChatMessage;
  /** True when this message is the final answer (rule of 4.4). */
  final?: boolean;
  /** True while this message still streams. */
  streaming?: boolean;
}

/** True when `message` shows anything with these options (a thinking-only message hides without `showThinking`). */
export function isVisibleMessage(message: ChatMessage, showThinking: boolean): boolean {
  return message.content !== '' || message.toolCall !== undefined || (showThinking && message.thinking !== '');
}

/**
 * One message: `data-part="message"`, `data-role` `user` or `assistant`, `data-state`
 * `streaming` or `complete`. The final answer's text is `data-part="final-answer"`.
 */
export const ChatMessageItem = /*#__PURE__*/ memo(
  /*#__PURE__*/ forwardRef<HTMLElement, ChatMessageProps>(function ChatMessageItem(
    { message, final = false, streaming = false, className, ...props },
    ref,
  ) {
    const { labels, components, showThinking } = useAgentChatConfig('ChatMessageItem');
    const Content = components.content;
    let text: ReactNode = null;
    if (message.content !== '') {
      text = Content ? (
        <Content message={message} streaming={streaming} final={final} />
      ) : (
        <StreamingMarkdown text={message.content} streaming={streaming} className="service-chat-text" />
      );
    }
    return (
      <article
        ref={ref}
        data-part="message"
        data-role={message.role}
        data-state={streaming ? 'streaming' : 'complete'}
        data-final={final || undefined}
        aria-label={message.role === 'user' ? labels.user : final ? labels.finalAnswer : labels.assistant}
        className={cx('service-chat-message', className)}
        {...props}
      >
        {showThinking && message.thinking !== '' && <ChatThinking message={message} streaming={streaming} />}
        {message.toolCall && <ChatToolCallView message={message} />}
        {final ? (
          <div data-part="final-answer" className="service-chat-final">
            {text}
          </div>
        ) : (
          text
        )}
      </article>
    );
  }),
);
