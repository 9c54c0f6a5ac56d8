/**
 * One message of the conversation and its parts: the agent's `thinking` (collapsible, shown only
 * with `showThinking`), a tool step, the text, and the final answer of its turn.
 *
 * @module
 */
import { memo, useState, type ComponentPropsWithoutRef, type ReactNode, type SyntheticEvent } from 'react';
import type { ChatMessage } from '../../core/thread-store';
import { StreamingMarkdown } from '../markdown/streaming-markdown';
import { createPart, named } from '../part';
import { useAgentChatConfig } from './context';
import { ChatToolCallView } from './tool-call';

/** Props of {@link ChatThinking}; other props go to its root `<details>`. */
export interface ChatThinkingProps extends ComponentPropsWithoutRef<'details'> {
  /** The message whose `thinking` is shown. */
  message: ChatMessage;
  /** True while the message streams. Default `false`. */
  streaming?: boolean;
}

/** The agent's reasoning, collapsed: `data-part="thinking"`, `data-state` `open` or `closed`. */
export const ChatThinking = /*#__PURE__*/ createPart(
  'ChatThinking',
  'details',
  'thinking',
  'service-chat-thinking',
  function ChatThinking(props: ChatThinkingProps) {
    const { message, streaming = false, ...rest } = props;
    const { labels, components } = useAgentChatConfig('ChatThinking');
    const [open, setOpen] = useState(false);
    const Custom = components.thinking;
    return {
      rest,
      state: open ? 'open' : 'closed',
      props: {
        onToggle: (event: SyntheticEvent<HTMLDetailsElement>) => setOpen(event.currentTarget.open),
      },
      children: (
        <>
          <summary>{labels.thinking}</summary>
          {Custom ? (
            <Custom message={message} streaming={streaming} final={false} />
          ) : (
            <StreamingMarkdown text={message.thinking} streaming={streaming} dir="auto" />
          )}
        </>
      ),
    };
  },
);

/** Props of {@link ChatMessageItem}; other props go to its root `<article>`. */
export interface ChatMessageProps extends ComponentPropsWithoutRef<'article'> {
  /** The message, as the conversation's `messages` hold it. */
  message: ChatMessage;
  /** True when this message is its turn's final answer. Default `false`. */
  final?: boolean;
  /** True while this message still streams. Default `false`. */
  streaming?: boolean;
  /** True once its turn has ended: a tool call left without its result shows as stopped. Default `false`. */
  settled?: boolean;
}

/**
 * One message: `data-part="message"`, `data-role` `user` or `assistant`, `data-state`
 * `streaming` or `complete`. A final answer's text is `data-part="final-answer"`, in every turn
 * and in the same style. Text is `dir="auto"`: a right-to-left question reads right to left.
 */
export const ChatMessageItem = /*#__PURE__*/ named(
  /*#__PURE__*/ memo(
    /*#__PURE__*/ createPart(
      'ChatMessageItem',
      'article',
      'message',
      'service-chat-message',
      function ChatMessageItem(props: ChatMessageProps) {
        const { message, final = false, streaming = false, settled = false, ...rest } = props;
        const { labels, components, showThinking } = useAgentChatConfig('ChatMessageItem');
        const Content = components.content;
        let text: ReactNode = null;
        if (message.content !== '') {
          text = Content ? (
            <Content message={message} streaming={streaming} final={final} />
          ) : (
            <StreamingMarkdown text={message.content} streaming={streaming} className="service-chat-text" dir="auto" />
          );
        }
        return {
          rest,
          state: streaming ? 'streaming' : 'complete',
          props: {
            'data-role': message.role,
            'data-final': final || undefined,
            'aria-label': message.role === 'user' ? labels.user : final ? labels.finalAnswer : labels.assistant,
          },
          children: (
            <>
              {showThinking && message.thinking !== '' && <ChatThinking message={message} streaming={streaming} />}
              {message.toolCall && <ChatToolCallView message={message} settled={settled} />}
              {final ? (
                <div data-part="final-answer" className="service-chat-final">
                  {text}
                </div>
              ) : (
                text
              )}
            </>
          ),
        };
      },
    ),
  ),
  'ChatMessageItem',
);
