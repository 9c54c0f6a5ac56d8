/**
 * The thread store: merges chat stream lines (2.8, 4.4, behaviour 1) into the messages a
 * chat UI renders, and publishes immutable snapshots for `useSyncExternalStore`.
 *
 * Rules it applies, each from the protocol layer (the single home of the wire format):
 * - `isDelta: true` appends the line's `content` and `thinking` chunks to the message with the
 *   same `id` (a delta for an unknown id creates it); any other line replaces that message whole.
 * - One message per `id`: a line replayed after a resubscribe or a resumed suspension replaces
 *   the message instead of adding another. Replayed *deltas* would append twice; the chat client
 *   drops lines it has already delivered before they reach the store, so the store only needs
 *   id-dedupe semantics.
 * - Messages are ordered by `sort`; equal `sort` keeps the order in which the ids first arrived,
 *   and a message whose `sort` changes moves.
 * - Sentinel lines (`__cutoff__`, `__state__`, `__aborted__`, `__suspended__`, `__usage__`) are
 *   never messages: they set `chatId`, `status` and `usage`.
 * - A tool call's start and result lines share an id and so become one message; its JSON is
 *   parsed once per distinct wire text, and a parse failure is an `error` state of the tool call.
 *
 * Cost: applying a line costs in proportion to that line, not to the thread. Only the changed
 * message gets a new object; the `messages` array of a snapshot is built when a snapshot is
 * read after a change, so a UI that reads once per frame pays for the thread once per frame.
 *
 * @module
 */
import { chatLineError } from './chat-errors';
import {
  classifyStreamLine,
  isFinalAnswerMessage,
  isSentinelId,
  type StreamMessage,
  type ToolCallWire,
  type Usage,
} from './protocol/chat';
import { parseToolCall, type ParsedToolCall } from './protocol/tools';
import { ServiceError } from './errors';
import { createNotifier } from './store';

/**
 * Where the thread's latest response stands. One enum rather than booleans, so a UI can switch
 * on it.
 *
 * Transitions:
 * - `idle`: a new or reset store.
 * - `submitted`: {@link ThreadStore.begin} was called (a request is on its way, no line yet).
 * - `streaming`: a `__cutoff__` line arrived (whatever its `isStreaming`: the response is still
 *   open), or a message line arrived while `idle` or `submitted`.
 * - `ready`: the `__usage__` line (always the last one) or {@link ThreadStore.end} while
 *   `submitted` or `streaming`.
 * - `aborted`: an `__aborted__` line; a later `__usage__` or `end()` keeps it.
 * - `suspended`: a `__suspended__` line (the server restarted; resend the same request to resume);
 *   the replay's `__cutoff__` turns it back to `streaming`.
 * - `error`: an `{"error"}` line, a JSON-RPC error line, or {@link ThreadStore.fail}; the error is
 *   in {@link ThreadSnapshot.error}. A later `__usage__` or `end()` keeps it.
 */
export type ThreadStatus = 'idle' | 'submitted' | 'streaming' | 'ready' | 'aborted' | 'suspended' | 'error';

/** A tool call of a message: its JSON parsed once ({@link ParsedToolCall}) plus the wire text it came from. */
export type ChatToolCall = ParsedToolCall & {
  /** The tool call as the service sent it (`input` and `result` are JSON text). */
  readonly raw: ToolCallWire;
};

/** A chat message as the store renders it from one or more stream lines. Never mutated: a change makes a new object. */
export interface ChatMessage {
  /** The message id of the stream; for the user's own input, the request's `messageId`. */
  readonly id: string;
  /** Who wrote it: the user (their question) or the agent. */
  readonly role: 'user' | 'assistant';
  /** Text so far (Markdown for assistant messages); `''` when the message has none. */
  readonly content: string;
  /** Agent reasoning so far; `''` when there is none. */
  readonly thinking: string;
  /**
   * The tool use this message reports; `undefined` when it is not a tool call. The key is
   * always present so every message has the same shape.
   */
  readonly toolCall: ChatToolCall | undefined;
  /** Agent graph node that produced the message; `[]` when absent. `["final"]` marks the final answer (4.4). */
  readonly graphPath: readonly string[];
  /** Still being generated. */
  readonly isInProcess: boolean;
  /** As the stream says (`isStructuredResponse` of 2.4): the message carries a structured answer rather than free text. */
  readonly isStructuredResponse: boolean;
  /**
   * Ordering sequence from the stream. A message whose first line had no `sort` takes the
   * highest `sort` of the thread at that moment, so it goes last.
   */
  readonly sort: number;
}

/** What the store publishes; a new object only when something in it changed. */
export interface ThreadSnapshot {
  /** The thread's chat id, from the `__cutoff__` line; `undefined` before the first one. */
  readonly chatId: string | undefined;
  /** The messages ordered by `sort`; sentinel lines are never among them. */
  readonly messages: readonly ChatMessage[];
  /** The final answer by the rule of 4.4, see {@link selectFinalAnswer}. */
  readonly finalAnswer: ChatMessage | undefined;
  /** Token usage of the latest response (`__usage__`); `undefined` while a response streams. */
  readonly usage: Usage | undefined;
  /** Where the thread stands (see {@link ThreadStatus}). */
  readonly status: ThreadStatus;
  /** Why `status` is `error`; `undefined` in every other status. */
  readonly error: Error | undefined;
}

/** Options of {@link createThreadStore}. */
export interface ThreadStoreOptions {
  /**
   * Called with each line the store ignores: values that are not lines of the protocol and
   * sentinel ids it does not know. Default: nothing. Such lines never throw, so that one odd
   * line cannot cost the user the rest of an answer; this hook lets development builds see them.
   */
  onInvalidLine?: (value: unknown, reason: string) => void;
  /**
   * Runs the notification of listeners after a change. Default: at once, synchronously (after
   * the outermost {@link ThreadStore.batch}). Pass `requestAnimationFrame` (or `queueMicrotask`)
   * to notify at most once per frame while tokens stream: snapshots are always current when
   * read, only the notification is deferred.
   */
  scheduleNotify?: (notify: () => void) => void;
}

/** A subscribable store of one chat thread. Every method is bound: pass them around freely. */
export interface ThreadStore {
  /**
   * Merges one stream line (a parsed JSON value, as `readNdjson` yields it). Lines that are not
   * part of the protocol are reported through `onInvalidLine` and ignored; never throws.
   */
  apply(line: unknown): void;
  /** Applies several lines with one notification. */
  applyMany(lines: Iterable<unknown>): void;
  /** Runs `fn` and notifies listeners once afterwards, if anything changed. Batches nest. */
  batch<T>(fn: () => T): T;
  /** Marks a request as sent: `status` becomes `submitted` and the previous error and usage are cleared. */
  begin(): void;
  /** Marks the end of the response body: `submitted` or `streaming` becomes `ready`; other statuses stay. */
  end(): void;
  /** Records a failure outside the stream's lines (network, HTTP status): `status` becomes `error`. */
  fail(error: unknown): void;
  /** The current snapshot; the same object until something changes. */
  getSnapshot(): ThreadSnapshot;
  /** Calls `listener` after each change (see `scheduleNotify`); returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Forgets the thread: back to an empty, `idle` store. */
  reset(): void;
}

/**
 * The final answer (4.4): the last message with `role` `assistant`, `graphPath[0]` equal to
 * `final` and `graphPath` of at most 2 elements; `undefined` when there is none.
 */
export function selectFinalAnswer(messages: readonly ChatMessage[]): ChatMessage | undefined {
  return messages.findLast(isFinalAnswerMessage);
}

const NO_PATH: readonly string[] = [];

/** One message of the thread with its arrival number, which breaks ties of `sort`. */
interface Entry {
  readonly seq: number;
  message: ChatMessage;
  /** Waiting in `unplaced`; a copy of it still in `order` is a stale place, skipped. */
  unplaced: boolean;
}

/** Order of entries: by `sort`, then by arrival. */
function compareEntries(a: Entry, b: Entry): number {
  return a.message.sort - b.message.sort || a.seq - b.seq;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  // A loop, not `every`: this runs once per streamed line.
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/** Usage arrives once per response, so comparing its JSON text is cheap and covers every field. */
function sameUsage(a: Usage | undefined, b: Usage | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function text(value: string | null | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** A flag of a line (`null` reads as absent); absent, it keeps `previous` (a delta) or is `false`. */
function flag(value: boolean | null | undefined, previous: boolean | undefined): boolean {
  return typeof value === 'boolean' ? value : previous === true;
}

/**
 * The tool call of a line, reusing `previous` (and its parse) when the wire text is the same.
 * `classifyStreamLine` lets optional fields be `null`; they read as absent.
 */
function toolCallOf(previous: ChatToolCall | undefined, wire: ToolCallWire): ChatToolCall {
  const input = text(wire.input);
  const result = typeof wire.result === 'string' ? wire.result : undefined;
  const raw = previous?.raw;
  // Compared field by field: tool results can be large, and a replayed line must cost no parse.
  if (raw && raw.name === wire.name && raw.input === input && raw.result === result) return previous;
  const next: ToolCallWire = result === undefined ? { name: wire.name, input } : { name: wire.name, input, result };
  return Object.assign(parseToolCall(next), { raw: next });
}

/**
 * A message line merged into the message it updates (`previous`), or `previous` itself when
 * nothing changed. A delta (`isDelta: true` on a known id) appends its text to `previous` and
 * keeps the fields it leaves out; any other line replaces the message whole.
 */
function mergeLine(previous: ChatMessage | undefined, line: StreamMessage, defaultSort: number): ChatMessage {
  const base = line.isDelta === true ? previous : undefined;
  const path = line.graphPath ?? base?.graphPath ?? NO_PATH;
  const wire = line.toolCall ?? undefined;
  const { role } = line;
  const content = (base?.content ?? '') + text(line.content);
  const thinking = (base?.thinking ?? '') + text(line.thinking);
  const toolCall = wire ? toolCallOf(previous?.toolCall, wire) : base?.toolCall;
  // The same array when the path did not change, so the message can stay the same object.
  const graphPath = previous && sameStrings(path, previous.graphPath) ? previous.graphPath : path;
  const isInProcess = flag(line.isInProcess, base?.isInProcess);
  const isStructuredResponse = flag(line.isStructuredResponse, base?.isStructuredResponse);
  const sort = typeof line.sort === 'number' ? line.sort : (previous?.sort ?? defaultSort);
  // Field by field, not a loop over keys: this runs once per streamed line, and a delta with
  // text fails at its first test.
  if (
    previous &&
    content === previous.content &&
    thinking === previous.thinking &&
    role === previous.role &&
    toolCall === previous.toolCall &&
    graphPath === previous.graphPath &&
    isInProcess === previous.isInProcess &&
    isStructuredResponse === previous.isStructuredResponse &&
    sort === previous.sort
  ) {
    return previous;
  }
  return { id: line.id, role, content, thinking, toolCall, graphPath, isInProcess, isStructuredResponse, sort };
}

function toError(error: unknown): Error {
  if (error instanceof Error) return error;
  return new ServiceError(typeof error === 'string' ? error : 'The chat request failed', {
    code: 'unknown_error',
    cause: error,
  });
}

function sameError(a: Error | undefined, b: Error): boolean {
  return (
    a !== undefined &&
    a.constructor === b.constructor &&
    a.message === b.message &&
    (a as { code?: unknown }).code === (b as { code?: unknown }).code
  );
}

/**
 * Creates the store of one chat thread: feed it stream lines with `apply`, read it with
 * `getSnapshot` and `subscribe` (ready for `useSyncExternalStore`).
 */
export function createThreadStore(options: ThreadStoreOptions = {}): ThreadStore {
  const { onInvalidLine } = options;
  const { subscribe, batch, hold, release, changed: notifyChanged } = createNotifier(options.scheduleNotify);

  const byId = new Map<string, Entry>();
  /**
   * Entries ordered by (`sort`, `seq`), as of the last read. A message that arrives after all of
   * them (the usual case: streams append in `sort` order) is pushed here at once; one that arrives
   * out of order, or moves, waits in `unplaced` until the next read merges it in: a sort of the
   * few waiting plus one pass, which the read pays anyway to build `messages`. So a line costs in
   * proportion to itself whatever order `sort` arrives in (amortized over the reads).
   */
  let order: Entry[] = [];
  let unplaced: Entry[] = [];
  /** Highest `sort` of the thread, for messages without one; `undefined` after the holder moved down. */
  let highest: number | undefined = -Infinity;
  let nextSeq = 0;

  let chatId: string | undefined;
  let usage: Usage | undefined;
  let status: ThreadStatus = 'idle';
  let error: Error | undefined;

  let messagesDirty = false;
  let snapshotDirty = false;
  let messages: readonly ChatMessage[] = [];
  let finalAnswer: ChatMessage | undefined;
  let snapshot: ThreadSnapshot = { chatId, messages, finalAnswer, usage, status, error };

  function changed(messagesChanged: boolean): void {
    snapshotDirty = true;
    if (messagesChanged) messagesDirty = true;
    notifyChanged();
  }

  /** Merges the waiting entries into `order`, dropping the stale places of those that moved. */
  function place(): void {
    if (unplaced.length === 0) return;
    unplaced.sort(compareEntries);
    const merged: Entry[] = [];
    let next = 0;
    for (const entry of order) {
      if (entry.unplaced) continue;
      while (next < unplaced.length && compareEntries(unplaced[next]!, entry) < 0) merged.push(unplaced[next++]!);
      merged.push(entry);
    }
    for (const entry of unplaced) entry.unplaced = false;
    order = merged.concat(unplaced.slice(next));
    unplaced = [];
  }

  function highestSort(): number {
    if (highest === undefined) {
      highest = -Infinity;
      for (const { message } of byId.values()) highest = Math.max(highest, message.sort);
    }
    return byId.size ? highest : 0;
  }

  function setStatus(next: ThreadStatus, nextError?: Error): void {
    if (status === next && (next !== 'error' || (nextError && sameError(error, nextError)))) return;
    status = next;
    error = next === 'error' ? nextError : undefined;
    changed(false);
  }

  function setUsage(next: Usage | undefined): void {
    if (sameUsage(usage, next)) return;
    usage = next;
    changed(false);
  }

  function applyMessage(line: StreamMessage): void {
    // The `__name__` form is reserved for sentinels, but a tool call's id is the agent's to choose
    // (`__proto__` included): a line that carries a tool call is one, whatever its id.
    if (isSentinelId(line.id) && !line.toolCall)
      return onInvalidLine?.(line, `${line.id}: unknown sentinel, not a chat message`);
    if (status === 'idle' || status === 'submitted') setStatus('streaming');
    let entry = byId.get(line.id);
    const previous = entry?.message;
    // A message whose first line has no `sort` takes the highest `sort` so far: it goes last.
    const message = mergeLine(previous, line, previous?.sort ?? highestSort());
    if (message === previous) return;
    const { sort } = message;
    if (highest !== undefined) highest = Math.max(highest, sort);
    let moved: boolean;
    if (entry) {
      moved = sort !== entry.message.sort;
      if (moved && entry.message.sort === highest && sort < highest) highest = undefined;
      entry.message = message;
    } else {
      entry = { seq: nextSeq++, message, unplaced: false };
      byId.set(line.id, entry);
      const last = order.at(-1);
      // Streams append in `sort` order: the usual new message goes last at once.
      moved = unplaced.length > 0 || (last !== undefined && compareEntries(last, entry) > 0);
      if (!moved) order.push(entry);
    }
    if (moved && !entry.unplaced) {
      entry.unplaced = true;
      unplaced.push(entry);
    }
    changed(true);
  }

  function applyLine(value: unknown): void {
    const classified = classifyStreamLine(value);
    switch (classified.kind) {
      case 'message':
        return applyMessage(classified.line);
      case 'cutoff': {
        const { chatId: nextChatId } = classified.line.state;
        if (chatId !== nextChatId) {
          chatId = nextChatId;
          changed(false);
        }
        setUsage(undefined);
        return setStatus('streaming');
      }
      case 'state':
        // `state.messages` may be in a foreign serialisation (behaviour 1) and every
        // message it holds also streamed as its own line: the streamed messages stand.
        return;
      case 'usage':
        setUsage(classified.line.usage);
        if (status === 'idle' || status === 'submitted' || status === 'streaming') setStatus('ready');
        return;
      case 'aborted':
        return setStatus('aborted');
      case 'suspended':
        return setStatus('suspended');
      case 'error':
      case 'rpcError':
        return setStatus('error', chatLineError(classified.line));
      case 'invalid':
        onInvalidLine?.(classified.value, classified.reason);
        return;
    }
  }

  function apply(line: unknown): void {
    // `batch` without its closure: this runs once per streamed line.
    hold();
    try {
      applyLine(line);
    } finally {
      release();
    }
  }

  function applyMany(lines: Iterable<unknown>): void {
    batch(() => {
      for (const line of lines) applyLine(line);
    });
  }

  function begin(): void {
    batch(() => {
      setUsage(undefined);
      setStatus('submitted');
    });
  }

  function end(): void {
    if (status === 'submitted' || status === 'streaming') batch(() => setStatus('ready'));
  }

  function fail(reason: unknown): void {
    batch(() => setStatus('error', toError(reason)));
  }

  function reset(): void {
    if (byId.size === 0 && chatId === undefined && usage === undefined && status === 'idle') return;
    batch(() => {
      byId.clear();
      order = [];
      unplaced = [];
      highest = -Infinity;
      chatId = undefined;
      usage = undefined;
      status = 'idle';
      error = undefined;
      changed(true);
    });
  }

  function getSnapshot(): ThreadSnapshot {
    if (!snapshotDirty) return snapshot;
    if (messagesDirty) {
      place();
      messages = order.map((entry) => entry.message);
      finalAnswer = selectFinalAnswer(messages);
      messagesDirty = false;
    }
    snapshotDirty = false;
    // A change undone before this read (a replayed `__cutoff__` … `__usage__`) keeps the snapshot.
    if (usage !== snapshot.usage && sameUsage(snapshot.usage, usage)) usage = snapshot.usage;
    const next: ThreadSnapshot = { chatId, messages, finalAnswer, usage, status, error };
    for (const key in next) {
      if (next[key as keyof ThreadSnapshot] !== snapshot[key as keyof ThreadSnapshot]) return (snapshot = next);
    }
    return snapshot;
  }

  return { apply, applyMany, batch, begin, end, fail, getSnapshot, subscribe, reset };
}
