/**
 * `ChatEmptyState`: what a new conversation shows: a title and suggested questions that send
 * themselves when picked.
 *
 * @module
 */
import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { isRunning } from '../../core/agent-chat';
import { cx } from './compose';
import { useAgentChatConfig, useAgentChatState } from './context';

/** Props of {@link ChatEmptyState}. */
export interface ChatEmptyStateProps extends ComponentPropsWithoutRef<'div'> {
  /** Questions offered as buttons. Default none. */
  suggestions?: readonly string[];
}

/** The empty state: `data-part="empty-state"`; each suggestion a button (`data-part="suggestion"`). */
export const ChatEmptyState = /*#__PURE__*/ forwardRef<HTMLDivElement, ChatEmptyStateProps>(function ChatEmptyState(
  { suggestions = [], className, ...props },
  ref,
) {
  const chat = useAgentChatState('ChatEmptyState');
  const { labels } = useAgentChatConfig('ChatEmptyState');
  return (
    <div ref={ref} data-part="empty-state" className={cx('service-chat-empty', className)} {...props}>
      <p className="service-chat-empty-title">{labels.emptyTitle}</p>
      {suggestions.length > 0 && (
        <ul aria-label={labels.suggestions} className="service-chat-suggestions">
          {suggestions.map((suggestion) => (
            <li key={suggestion}>
              <button
                type="button"
                data-part="suggestion"
                className="service-chat-button"
                disabled={isRunning(chat.status)}
                onClick={() => void chat.send(suggestion).catch(() => undefined)}
              >
                {suggestion}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});
