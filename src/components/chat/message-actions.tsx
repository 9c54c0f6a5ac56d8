/**
 * `ChatMessageActions`: the action bar of a finished turn. Copy (the answer as Markdown), Copy
 * table (its result as tab-separated values, which pastes into a spreadsheet), Ask again (the same
 * question as a new turn: the service's thread is linear), and, with `onFeedback`, Helpful and Not
 * helpful with an optional comment. A stopped or failed turn offers Ask again.
 *
 * @module
 */
import { useEffect, useRef, useState, type ComponentPropsWithoutRef, type FormEvent } from 'react';
import { isRunning } from '../../core/agent-chat';
import { toResultTable } from '../../core/protocol/tools';
import { toTsv } from '../../core/result-data';
import type { ChatToolCall } from '../../core/thread-store';
import { createPart } from '../part';
import { sameEntries } from '../view-settings';
import { useAgentChatConfig, useAgentChatSelector, useThreadSelector } from './context';
import type { ThreadView } from './thread-view';

/** Props of {@link ChatMessageActions}; other props go to its root `<div>`. */
export interface ChatMessageActionsProps extends ComponentPropsWithoutRef<'div'> {
  /** Any message of the turn the actions are for (its question or its final answer). */
  messageId: string;
}

/** What the actions need of a turn: stable objects once the turn has ended. */
function turnFacts(view: ThreadView, messageId: string) {
  const turn = view.turnOf.get(messageId);
  let table: ChatToolCall | undefined;
  for (const message of turn?.messages ?? []) {
    const call = message.toolCall;
    if (call?.name === 'serviceSqlApi' && call.status === 'complete' && call.result.kind === 'serviceSqlApi')
      table = call;
  }
  return { state: turn?.state, final: turn?.final, question: turn?.question?.content, table };
}

/** The rating buttons: the rating, their `data-action`, their label. */
const RATINGS = [
  ['up', 'helpful', 'helpful'],
  ['down', 'not-helpful', 'notHelpful'],
] as const;

/** Writes `text` to the clipboard; false when the browser refuses. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The action bar of a turn: `data-part="message-actions"`, a `role="group"` named by
 * `labels.messageActions`; `data-state` is the turn's (`complete`, `aborted`, `error`). Buttons are
 * named "Copy", "Copy table", "Ask again", "Helpful" and "Not helpful" (from `labels`); nothing
 * renders for a turn still running.
 */
export const ChatMessageActions = /*#__PURE__*/ createPart(
  'ChatMessageActions',
  'div',
  'message-actions',
  'service-chat-actions',
  function ChatMessageActions(props: ChatMessageActionsProps) {
    const { messageId, ...rest } = props;
    const { chat, labels, feedback, composer } = useAgentChatConfig('ChatMessageActions');
    const facts = useThreadSelector('ChatMessageActions', (view) => turnFacts(view, messageId), sameEntries);
    const busy = useAgentChatSelector((snapshot) => isRunning(snapshot.status));
    const [copied, setCopied] = useState<'answer' | 'table' | undefined>(undefined);
    const [rating, setRating] = useState<'up' | 'down' | undefined>(undefined);
    const [comment, setComment] = useState<'open' | 'sent' | undefined>(undefined);
    const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
    useEffect(() => () => clearTimeout(timer.current), []);
    if (!facts.state || facts.state === 'running') return null;
    const { final, question, table } = facts;

    const copy = (what: 'answer' | 'table', text: string) =>
      void copyText(text).then((done) => {
        if (!done) return;
        setCopied(what);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(undefined), 2000);
      });
    const rate = (value: 'up' | 'down') => {
      if (!final || !feedback) return;
      setRating(value);
      setComment('open');
      feedback({ messageId: final.id, rating: value });
    };
    const sendComment = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const text = String(new FormData(event.currentTarget).get('comment') ?? '').trim();
      if (final && feedback && rating && text) feedback({ messageId: final.id, rating, comment: text });
      setComment('sent');
    };
    const rows = table?.status === 'complete' ? toResultTable(table.result) : undefined;

    return {
      rest,
      state: facts.state,
      props: { role: 'group', 'aria-label': labels.messageActions },
      children: (
        <>
          {final && final.content !== '' && (
            <button
              type="button"
              className="service-chat-action"
              data-action="copy"
              data-state={copied === 'answer' ? 'copied' : undefined}
              onClick={() => copy('answer', final.content)}
            >
              {copied === 'answer' ? labels.copied : labels.copy}
            </button>
          )}
          {final && rows && (
            <button
              type="button"
              className="service-chat-action"
              data-action="copy-table"
              data-state={copied === 'table' ? 'copied' : undefined}
              onClick={() => copy('table', toTsv(rows.columns, rows.rows))}
            >
              {copied === 'table' ? labels.copied : labels.copyTable}
            </button>
          )}
          {question !== undefined && (
            <button
              type="button"
              className="service-chat-action"
              data-action="ask-again"
              disabled={busy}
              onClick={() => {
                chat.send(question).catch(() => undefined);
                composer.current?.focus();
              }}
            >
              {labels.askAgain}
            </button>
          )}
          {final &&
            feedback &&
            RATINGS.map(([value, action, label]) => (
              <button
                key={value}
                type="button"
                className="service-chat-action"
                data-action={action}
                aria-pressed={rating === value}
                onClick={() => rate(value)}
              >
                {labels[label]}
              </button>
            ))}
          {comment === 'open' && (
            <form className="service-chat-feedback" onSubmit={sendComment}>
              <textarea
                name="comment"
                rows={2}
                dir="auto"
                aria-label={labels.feedbackComment}
                placeholder={labels.feedbackComment}
                className="service-chat-input"
              />
              <button type="submit" className="service-chat-action">
                {labels.feedbackSend}
              </button>
            </form>
          )}
          {rating && comment !== 'open' && (
            <span role="status" className="service-chat-note">
              {labels.feedbackThanks}
            </span>
          )}
        </>
      ),
    };
  },
);
