/**
 * What the chat parts show, derived from the controller's snapshot once per snapshot: the turns (a
 * question and the messages answering it, with its final answer and how it ended), the rows of the
 * message list, and what each message part needs. Pure, and cached per snapshot, so every part that
 * reads a slice of it pays for the derivation once per frame together.
 *
 * @module
 */
import { isRunning, type AgentChatSnapshot } from '../../core/agent-chat';
import { isFinalAnswerMessage } from '../../core/protocol/chat';
import type { ChatMessage } from '../../core/thread-store';

/** How a turn stands: its answer `running`, `complete`, stopped (`aborted`) or failed (`error`). */
export type ChatTurnState = 'running' | 'complete' | 'aborted' | 'error';

/** A question and the messages that answer it. */
export interface ChatTurn {
  /** The id of its first message: stable for the turn's life. */
  readonly key: string;
  /** The user's message; `undefined` for messages before the first question (a thread read in part). */
  readonly question: ChatMessage | undefined;
  /** Its messages that show (the question first), in order. */
  readonly messages: readonly ChatMessage[];
  /** Its final answer (the last final-answer message of the turn). */
  readonly final: ChatMessage | undefined;
  /** How it stands. */
  readonly state: ChatTurnState;
  /** True for the thread's latest turn. */
  readonly latest: boolean;
}

/** The derived view of a conversation. */
export interface ThreadView {
  /** The turns, in order. */
  readonly turns: readonly ChatTurn[];
  /** The message list's rows in order: `m:<message id>`, then `t:<turn key>` after each settled turn. */
  readonly rows: readonly string[];
  /** The turn of each message that shows, by message id. */
  readonly turnOf: ReadonlyMap<string, ChatTurn>;
  /** The turns by key. */
  readonly turnByKey: ReadonlyMap<string, ChatTurn>;
  /** The last message that shows. */
  readonly last: ChatMessage | undefined;
  /** An answer runs. */
  readonly running: boolean;
  /** What the agent is busy with while nothing new shows: `waiting` (no text yet) or a running `tool`. */
  readonly activity: 'waiting' | 'tool' | undefined;
}

/** True when `message` shows anything with these options (a thinking-only message hides without `showThinking`). */
export function isVisibleMessage(message: ChatMessage, showThinking: boolean): boolean {
  return message.content !== '' || message.toolCall !== undefined || (showThinking && message.thinking !== '');
}

function derive(snapshot: AgentChatSnapshot, showThinking: boolean): ThreadView {
  const running = isRunning(snapshot.status);
  const groups: ChatMessage[][] = [];
  for (const message of snapshot.messages) {
    if (!isVisibleMessage(message, showThinking)) continue;
    if (message.role === 'user' || groups.length === 0) groups.push([message]);
    else groups.at(-1)!.push(message);
  }
  const turns: ChatTurn[] = [];
  const rows: string[] = [];
  const turnOf = new Map<string, ChatTurn>();
  const turnByKey = new Map<string, ChatTurn>();
  groups.forEach((messages, index) => {
    const latest = index === groups.length - 1;
    const question = messages[0]!.role === 'user' ? messages[0] : undefined;
    const outcome = question && snapshot.outcomes.get(question.id);
    const state: ChatTurnState =
      latest && running
        ? 'running'
        : (outcome ??
          (latest && (snapshot.status === 'aborted' || snapshot.status === 'error') ? snapshot.status : 'complete'));
    const turn: ChatTurn = {
      key: messages[0]!.id,
      question,
      messages,
      final: messages.findLast(isFinalAnswerMessage),
      state,
      latest,
    };
    turns.push(turn);
    turnByKey.set(turn.key, turn);
    for (const message of messages) {
      turnOf.set(message.id, turn);
      rows.push(`m:${message.id}`);
    }
    if (state !== 'running') rows.push(`t:${turn.key}`);
  });
  const last = groups.at(-1)?.at(-1);
  const activity = !running
    ? undefined
    : !last || last.role === 'user'
      ? 'waiting'
      : last.toolCall?.status === 'running'
        ? 'tool'
        : undefined;
  return { turns, rows, turnOf, turnByKey, last, running, activity };
}

const cache = new WeakMap<AgentChatSnapshot, [ThreadView?, ThreadView?]>();

/** The view of `snapshot`, derived once per snapshot and `showThinking`. */
export function threadView(snapshot: AgentChatSnapshot, showThinking: boolean): ThreadView {
  let entry = cache.get(snapshot);
  if (!entry) cache.set(snapshot, (entry = []));
  const slot = showThinking ? 1 : 0;
  return (entry[slot] ??= derive(snapshot, showThinking));
}

/** True when two lists hold the same items in the same order (by `Object.is`). */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a === b || (a.length === b.length && a.every((item, index) => Object.is(item, b[index])));
}
