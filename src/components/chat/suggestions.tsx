/**
 * Suggested questions: `ChatSuggestions`, a list of questions that send themselves when picked
 * (focus goes back to the composer), and `ChatEmptyState`, what a new conversation shows.
 *
 * @module
 */
import type { ComponentPropsWithoutRef } from 'react';
import { isRunning } from '../../core/agent-chat';
import { createPart } from '../part';
import { useAgentChatConfig, useAgentChatSelector } from './context';

/** Props of {@link ChatSuggestions}; other props go to its root `<ul>`. */
export interface ChatSuggestionsProps extends ComponentPropsWithoutRef<'ul'> {
  /** The questions, each a button. */
  suggestions: readonly string[];
}

/**
 * Questions to pick: `data-part="suggestions"`, a list named by `labels.suggestions` (or your
 * `aria-label`), each question a button (`data-part="suggestion"`, disabled while an answer runs).
 */
export const ChatSuggestions = /*#__PURE__*/ createPart(
  'ChatSuggestions',
  'ul',
  'suggestions',
  'service-chat-suggestions',
  function ChatSuggestions(props: ChatSuggestionsProps) {
    const { suggestions, ...rest } = props;
    const { chat, labels, composer } = useAgentChatConfig('ChatSuggestions');
    const busy = useAgentChatSelector((snapshot) => isRunning(snapshot.status));
    return {
      rest,
      props: { 'aria-label': labels.suggestions },
      children: suggestions.map((suggestion) => (
        <li key={suggestion}>
          <button
            type="button"
            data-part="suggestion"
            className="service-chat-suggestion"
            dir="auto"
            disabled={busy}
            onClick={() => {
              chat.send(suggestion).catch(() => undefined);
              // The reader's next words go in the composer.
              composer.current?.focus();
            }}
          >
            {suggestion}
          </button>
        </li>
      )),
    };
  },
);

/** Props of {@link ChatEmptyState}; other props go to its root `<div>`. */
export interface ChatEmptyStateProps extends ComponentPropsWithoutRef<'div'> {
  /** Questions offered as buttons. Default none. */
  suggestions?: readonly string[];
}

/** The empty state: `data-part="empty-state"`: a title, a line, and the suggested questions. */
export const ChatEmptyState = /*#__PURE__*/ createPart(
  'ChatEmptyState',
  'div',
  'empty-state',
  'service-chat-empty',
  function ChatEmptyState(props: ChatEmptyStateProps) {
    const { suggestions = [], ...rest } = props;
    const { labels } = useAgentChatConfig('ChatEmptyState');
    return {
      rest,
      children: (
        <>
          <span className="service-chat-empty-mark" aria-hidden="true" />
          <p className="service-chat-empty-title">{labels.emptyTitle}</p>
          <p className="service-chat-empty-description">{labels.emptyDescription}</p>
          {suggestions.length > 0 && <ChatSuggestions suggestions={suggestions} />}
        </>
      ),
    };
  },
);
