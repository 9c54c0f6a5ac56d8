/**
 * What follows a turn once it has ended: a "Stopped" (or failed) marker that stays after the next
 * turn, the turn's action bar, and, after the latest answer, follow-up questions.
 *
 * @module
 */
import { useMemo, type ReactNode } from 'react';
import { sameEntries } from '../view-settings';
import { useAgentChatConfig, useThreadSelector } from './context';
import { ChatMessageActions } from './message-actions';
import { ChatSuggestions } from './suggestions';
import { sameItems, type ThreadView } from './thread-view';
import type { ChatMessage } from '../../core/thread-store';

const NONE: readonly ChatMessage[] = [];

function endOf(view: ThreadView, key: string) {
  const turn = view.turnByKey.get(key);
  return {
    state: turn?.state,
    latest: turn?.latest ?? false,
    final: turn?.final,
    // Rebuilt with every snapshot; the same messages (compared one by one) once the turn has ended.
    messages: turn?.messages ?? NONE,
    question: turn?.question?.content,
  };
}

/** The end of one turn in the message list (internal to `ChatMessageList`). */
export function ChatTurnEnd({ turnKey }: { turnKey: string }): ReactNode {
  const { labels, followUps } = useAgentChatConfig('ChatMessageList');
  const end = useThreadSelector(
    'ChatMessageList',
    (view) => endOf(view, turnKey),
    (a, b) => sameEntries({ ...a, messages: 0 }, { ...b, messages: 0 }) && sameItems(a.messages, b.messages),
  );
  const { state, latest, final, messages, question } = end;
  const suggestions = useMemo(
    () =>
      followUps && latest && state === 'complete' && final && question !== undefined
        ? followUps({ question, answer: final, messages })
        : [],
    [followUps, latest, state, final, messages, question],
  );
  if (!state || state === 'running') return null;
  return (
    <>
      {state === 'aborted' && (
        <p className="service-chat-note" data-part="status" data-state="aborted">
          {labels.aborted}
        </p>
      )}
      {state === 'error' && !latest && (
        <p className="service-chat-note" data-part="status" data-state="error">
          {labels.error}
        </p>
      )}
      <ChatMessageActions messageId={turnKey} />
      {suggestions.length > 0 && (
        <ChatSuggestions suggestions={suggestions} aria-label={labels.followUps} data-kind="follow-up" />
      )}
    </>
  );
}
