/**
 * The chat controller: one conversation with an agent, wired from the chat client (the wire) and
 * the thread store (the state). Hooks and non-React UIs share it; no chat state lives in React.
 *
 * It owns what every chat UI otherwise writes by hand: the user's message shown at once, the
 * begin/apply/end/fail loop, the `AbortController` of the local request plus the abort endpoint
 * that really stops the agent, "reconnecting" while the client resubscribes, continuing a stored
 * thread, and refusing a second question while an answer runs.
 *
 * @module
 */
import type { ChatClient, ResubscribeEvent } from './chat-client';
import { ServiceAbortError, ServiceConfigError, ServiceError, StreamingInProgressError } from './errors';
import { createMessageId, type ChatRequest } from './protocol/chat';
import { createNotifier, type ScheduleNotify } from './store';
import { createThreadStore, type ThreadSnapshot, type ThreadStatus, type ThreadStore } from './thread-store';

/**
 * Where the conversation stands: the thread store's statuses plus `reconnecting` (the connection
 * dropped or the service restarted, and the client is resending to resume the same answer).
 */
export type AgentChatStatus = ThreadStatus | 'reconnecting';

/** How a turn of the conversation ended when it did not end with its answer: stopped, or failed. */
export type AgentChatOutcome = 'aborted' | 'error';

/** What the controller publishes; a new object only when something in it changed. */
export interface AgentChatSnapshot extends Omit<ThreadSnapshot, 'status'> {
  /** Where the conversation stands (see {@link AgentChatStatus}). */
  readonly status: AgentChatStatus;
  /** The latest resend while `status` is `reconnecting`; `undefined` otherwise. */
  readonly reconnect: ResubscribeEvent | undefined;
  /**
   * The turns asked here that were stopped or failed, by the id of their question (the user's
   * message), so a UI keeps saying so after the next turn; a turn answered later (a retry) leaves
   * it. Empty after `reset`. (A read of a stored thread cannot tell how its earlier turns ended.)
   */
  readonly outcomes: ReadonlyMap<string, AgentChatOutcome>;
}

/**
 * What a conversation tells as it goes; {@link AgentChatController.listen} adds a set of them, and
 * the options of {@link createAgentChat} are the first.
 */
export interface AgentChatCallbacks {
  /** Called once the service has named the thread (the first `__cutoff__` of a new chat). */
  onChatId?: (chatId: string) => void;
  /** Called when an answer ends: `ready` or `aborted` (the snapshot tells which). */
  onFinish?: (snapshot: AgentChatSnapshot) => void;
  /** Called with every failure: of the stream, of the abort request, of a resume. */
  onError?: (error: Error) => void;
}

/** Options of {@link createAgentChat}. */
export interface AgentChatOptions extends AgentChatCallbacks {
  /** The wire: a chat client from `createChatClient` (or any object with its shape, for tests). */
  client: ChatClient;
  /** The state; default a new thread store. Pass one to show a thread you already hold. */
  store?: ThreadStore;
  /**
   * Runs the notification of subscribers after changes. Default: at once. Pass
   * `requestAnimationFrame` to tell a UI at most once per frame while tokens stream; snapshots
   * are always current when read.
   */
  scheduleNotify?: ScheduleNotify;
  /** A stored thread to continue: {@link AgentChatController.resume} reads it, and `send` adds to it. */
  chatId?: string;
  /**
   * After the abort endpoint said yes (or while the thread has no id yet), how long the answer
   * may take to end by itself before the local request is cut. Default 3000 ms.
   */
  abortGraceMs?: number;
}

/**
 * A conversation with an agent. Every method is bound: pass them around freely.
 *
 * Its work follows its subscribers, as a TanStack Query observer's does: when the last subscriber
 * leaves (the UI unmounts, or hides in React's `<Activity>`) the local request of a running answer
 * is cut, quietly (the agent goes on; no `onFinish`, no `onError`), and when a subscriber comes
 * back the answer is picked up where the service has it (the thread is read: it replays and then
 * streams live). Subscribers that leave and come back within one task (React's StrictMode) change
 * nothing. An answer asked with no subscriber at all runs to its end. No timers guess an unmount.
 */
export interface AgentChatController {
  /**
   * Asks `input`. The user's message shows at once; the promise settles when the answer ends
   * (its outcome is in the snapshot and `onFinish`/`onError`). Rejects, sending nothing, with a
   * {@link StreamingInProgressError} while an answer runs (one stream at a time), a
   * `ServiceValidationError` for blank input, a {@link ServiceConfigError} after `dispose`.
   */
  send(input: string): Promise<void>;
  /**
   * Stops the running answer through the abort endpoint, so the agent really stops, then ends
   * with `status` `aborted`. A refusal of the abort (403: not your thread, 404: unknown thread)
   * becomes `status` `error` with that error, and the local request is cut. Nothing runs: no-op.
   */
  abort(): Promise<void>;
  /**
   * Continues the thread: with a chat id (known or from the options), reads it (the service
   * replays it whole and then streams a running answer live: a page reloaded mid-answer picks
   * it up); without one, resends the last question with its same message id (the service joins
   * the run if one started, never a second one). Rejects like `send` while an answer runs.
   */
  resume(): Promise<void>;
  /**
   * Cuts the local request (the agent goes on) and forgets the thread: a new conversation, or,
   * given a `chatId`, that stored thread (shown once {@link AgentChatController.resume} reads it).
   */
  reset(chatId?: string): void;
  /**
   * Calls `listener` after each change of the snapshot (batched by `scheduleNotify`); returns the
   * unsubscribe. Bound: pass it to `useSyncExternalStore` as it is. The controller's work follows
   * its subscribers (see {@link AgentChatController}).
   */
  subscribe(listener: () => void): () => void;
  /**
   * Adds callbacks of the conversation's events (a UI that adopts a controller made elsewhere
   * hears its errors this way); returns the function that removes them. Bound.
   */
  listen(callbacks: AgentChatCallbacks): () => void;
  /** The conversation now: the same object until something changed. */
  getSnapshot(): AgentChatSnapshot;
  /**
   * Cuts the local request and goes silent: no notification or callback after it (one already
   * scheduled is dropped too); later calls to `send` and `resume` reject. Only for a controller
   * you will never use again: one that merely has no subscribers stops its work by itself.
   */
  dispose(): void;
  /**
   * Tells the controller that the client is resending after a drop (`status` becomes
   * `reconnecting` until the answer moves on): wire it as the client's `onResubscribe`.
   */
  reconnecting(event: ResubscribeEvent): void;
}

// ---------------------------------------------------------------------------------------------
// Status transitions: one pure function

/** The controller's own state; the messages live in the thread store. */
export interface AgentChatState {
  /** Where the conversation stands. */
  readonly status: AgentChatStatus;
  /** Why `status` is `error`; `undefined` otherwise. */
  readonly error: Error | undefined;
  /** The latest resend while `status` is `reconnecting`; `undefined` otherwise. */
  readonly reconnect: ResubscribeEvent | undefined;
}

/** What happens to a conversation; {@link agentChatReducer} turns it into the next state. */
export type AgentChatAction =
  | {
      /** A request leaves (send or resume): the state becomes `submitted`. */
      type: 'start';
    }
  | {
      /** The thread store changed while the answer runs (a line, or the end of the body). */
      type: 'thread';
      /** The store's status; `idle` and `submitted` (no line yet) keep the status shown. */
      status: ThreadStatus;
      /** The store's error, kept only when `status` is `error`. */
      error: Error | undefined;
    }
  | {
      /** The client resends after a drop: the state becomes `reconnecting`. */
      type: 'reconnect';
      /** The resend in progress, exposed as the state's `reconnect`. */
      event: ResubscribeEvent;
    }
  | {
      /** The request failed or was cut; ignored once the answer no longer runs. */
      type: 'fail';
      /** What ended the request; shown only when `stopped` is false. */
      error: Error;
      /** The user's abort cut the request: the state becomes `aborted` rather than `error`. */
      stopped: boolean;
    }
  | {
      /** The abort endpoint refused: the answer cannot be stopped as asked, so the state becomes `error`. */
      type: 'abortFailed';
      /** The abort request's failure. */
      error: Error;
    }
  | {
      /** The conversation was reset: back to the initial `idle` state. */
      type: 'reset';
    };

/** The state of a new or reset conversation. */
export const INITIAL_AGENT_CHAT_STATE: AgentChatState = { status: 'idle', error: undefined, reconnect: undefined };

const RUNNING: readonly AgentChatStatus[] = ['submitted', 'streaming', 'reconnecting'];
const NO_OUTCOMES: ReadonlyMap<string, AgentChatOutcome> = new Map();

/** True while an answer runs: `submitted`, `streaming` or `reconnecting`. */
export function isRunning(status: AgentChatStatus): boolean {
  return RUNNING.includes(status);
}

/** Every status transition of the controller. Pure: same state and action, same result. */
export function agentChatReducer(state: AgentChatState, action: AgentChatAction): AgentChatState {
  switch (action.type) {
    case 'start':
      return { status: 'submitted', error: undefined, reconnect: undefined };
    case 'thread': {
      // A refused abort has the last word: lines still in flight must not hide it.
      if (!isRunning(state.status)) return state;
      // `idle`/`submitted` mean no line yet: a resend's progress (or none) keeps what we show.
      const status = action.status === 'idle' || action.status === 'submitted' ? state.status : action.status;
      if (status === 'reconnecting') return state;
      return { status, error: status === 'error' ? action.error : undefined, reconnect: undefined };
    }
    case 'reconnect':
      return isRunning(state.status) ? { status: 'reconnecting', error: undefined, reconnect: action.event } : state;
    case 'fail':
      if (!isRunning(state.status)) return state;
      return action.stopped
        ? { status: 'aborted', error: undefined, reconnect: undefined }
        : { status: 'error', error: action.error, reconnect: undefined };
    case 'abortFailed':
      return { status: 'error', error: action.error, reconnect: undefined };
    case 'reset':
      return INITIAL_AGENT_CHAT_STATE;
  }
}

// ---------------------------------------------------------------------------------------------
// The controller

/** The request of a running answer. */
interface Run {
  readonly controller: AbortController;
  /** The user asked to stop (or reset, or dispose). */
  stopped: boolean;
  /** Cut because the last subscriber left: ends quietly, and continues when one comes back. */
  parked: boolean;
  /** Stop asked before the thread had an id: call the abort endpoint once it has one. */
  abortWanted: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new ServiceError(String(error), { code: 'unknown_error', cause: error });
}

/**
 * Creates a conversation controller over a chat client.
 *
 * @example
 * ```ts
 * const chat = createAgentChat({
 *   client: createChatClient({ url: '/api/service', onResubscribe: (event) => chat.reconnecting(event) }),
 * });
 * chat.subscribe(() => render(chat.getSnapshot()));
 * await chat.send('Revenue by month?');
 * ```
 */
export function createAgentChat(options: AgentChatOptions): AgentChatController {
  const { client, abortGraceMs = 3000 } = options;
  if (!client || typeof client.stream !== 'function')
    throw new ServiceConfigError('createAgentChat: `client` must be a chat client (createChatClient)');
  const store = options.store ?? createThreadStore();
  const notifier = createNotifier(options.scheduleNotify, {
    onSubscribe: () => {
      if (!parked || running || disposed) return;
      parked = false;
      chat.resume().catch(() => undefined);
    },
    // Settled at the end of the task: StrictMode (and a subscriber moving between components)
    // unsubscribes and subscribes again synchronously, which must not cut a request.
    onUnsubscribe: () => queueMicrotask(park),
  });
  // Boxed, so the same callbacks object listening twice is two listeners.
  const callbacks = new Set<{ readonly of: AgentChatCallbacks }>([{ of: options }]);

  let state = INITIAL_AGENT_CHAT_STATE;
  let storedChatId = options.chatId;
  let announcedChatId = storedChatId;
  /** The request of the running answer; `undefined` when none runs. */
  let running: Run | undefined;
  /** The last question and its message id, for a resume before the thread had an id. */
  let last: { input: string; messageId: string } | undefined;
  let disposed = false;
  /** An answer was cut because nobody was subscribed: the next subscriber picks it up. */
  let parked = false;

  let outcomes: ReadonlyMap<string, AgentChatOutcome> = NO_OUTCOMES;

  let threadSnapshot: ThreadSnapshot | undefined;
  let seenState: AgentChatState | undefined;
  let seenChatId: string | undefined;
  let seenOutcomes: ReadonlyMap<string, AgentChatOutcome> | undefined;
  let snapshot: AgentChatSnapshot;

  function getSnapshot(): AgentChatSnapshot {
    const thread = store.getSnapshot();
    if (thread === threadSnapshot && state === seenState && storedChatId === seenChatId && outcomes === seenOutcomes)
      return snapshot;
    threadSnapshot = thread;
    seenState = state;
    seenChatId = storedChatId;
    seenOutcomes = outcomes;
    const { status, error, reconnect } = state;
    return (snapshot = { ...thread, chatId: thread.chatId ?? storedChatId, status, error, reconnect, outcomes });
  }

  /** Records how the latest turn ended: stopped or failed, or answered (which forgets an earlier failure). */
  function settleOutcome(): void {
    const question = store.getSnapshot().messages.findLast((message) => message.role === 'user');
    if (!question) return;
    const outcome = state.status === 'aborted' || state.status === 'error' ? state.status : undefined;
    if (outcomes.get(question.id) === outcome) return;
    const next = new Map(outcomes);
    if (outcome) next.set(question.id, outcome);
    else next.delete(question.id);
    outcomes = next;
    notifier.changed();
  }

  function dispatch(action: AgentChatAction): void {
    const next = agentChatReducer(state, action);
    if (next === state) return;
    state = next;
    notifier.changed();
  }

  function emit<K extends keyof AgentChatCallbacks>(name: K, value: Parameters<NonNullable<AgentChatCallbacks[K]>>[0]) {
    if (disposed) return;
    for (const entry of [...callbacks]) (entry.of[name] as ((value: unknown) => void) | undefined)?.(value);
  }

  /** The last subscriber left: cut a running answer's request, to be continued by the next one. */
  function park(): void {
    if (notifier.hasListeners() || !running || running.stopped || disposed) return;
    parked = running.parked = true;
    running.controller.abort(new ServiceAbortError('The chat has no subscribers'));
  }

  const unsubscribeStore = store.subscribe(() => {
    const thread = store.getSnapshot();
    if (running) dispatch({ type: 'thread', status: thread.status, error: thread.error });
    if (thread.chatId !== undefined && thread.chatId !== announcedChatId) {
      announcedChatId = storedChatId = thread.chatId;
      emit('onChatId', thread.chatId);
      // `stopAgent` never rejects: a refused abort becomes the `error` status and `onError`.
      if (running?.abortWanted) void stopAgent();
    }
    notifier.changed();
  });

  function refuse(): Promise<never> | undefined {
    if (disposed) return Promise.reject(new ServiceConfigError('This chat was disposed'));
    if (running) return Promise.reject(new StreamingInProgressError());
    return undefined;
  }

  async function run(request: ChatRequest, optimistic: boolean): Promise<void> {
    parked = false;
    const current: Run = (running = {
      controller: new AbortController(),
      stopped: false,
      parked: false,
      abortWanted: false,
    });
    notifier.batch(() => {
      store.begin();
      if (optimistic && request.input !== undefined) {
        // The user's question shows at once; the stream's echo of it replaces it by id.
        const sort = (store.getSnapshot().messages.at(-1)?.sort ?? 0) + 1;
        store.apply({ id: request.messageId, role: 'user', content: request.input, isDelta: false, sort });
      }
      dispatch({ type: 'start' });
    });
    try {
      for await (const line of client.stream(request, { signal: current.controller.signal })) {
        if ((current.stopped || current.parked) && current.controller.signal.aborted) break;
        store.apply(line);
      }
      if (!current.parked) {
        store.end();
        dispatch({ type: 'thread', status: store.getSnapshot().status, error: store.getSnapshot().error });
      }
    } catch (caught) {
      // Parked: the answer goes on at the service, and here once someone subscribes again.
      if (current.parked) return;
      const error = toError(caught);
      const stopped = current.stopped && ServiceAbortError.isInstance(error);
      if (!stopped) store.fail(error);
      dispatch({ type: 'fail', error, stopped });
    } finally {
      clearTimeout(current.timer);
      if (running === current) {
        running = undefined;
        if (!current.parked) settleOutcome();
      }
      // The status may have stayed the same (a refused abort): subscribers still learn the answer ended.
      notifier.changed();
    }
    if (disposed || current.parked) return;
    const done = getSnapshot();
    if (done.status === 'error' && done.error) emit('onError', done.error);
    else if (done.status === 'ready' || done.status === 'aborted') emit('onFinish', done);
  }

  /** Calls the abort endpoint for the running answer's thread; cuts the local request if it is refused. */
  async function stopAgent(): Promise<void> {
    const current = running;
    const chatId = store.getSnapshot().chatId ?? storedChatId;
    if (!current || chatId === undefined) return;
    current.abortWanted = false;
    try {
      await client.abort(chatId);
    } catch (caught) {
      const error = toError(caught);
      if (running === current) {
        dispatch({ type: 'abortFailed', error });
        settleOutcome();
        current.stopped = true;
        current.controller.abort(error);
      }
      emit('onError', error);
    }
  }

  const chat: AgentChatController = {
    send(input: string): Promise<void> {
      const refusal = refuse();
      if (refusal) return refusal;
      const text = typeof input === 'string' ? input.trim() : '';
      if (!text)
        return Promise.reject(new ServiceConfigError('send: the question is empty', { code: 'invalid_input' }));
      last = { input: text, messageId: createMessageId() };
      const chatId = store.getSnapshot().chatId ?? storedChatId;
      return run({ input: text, messageId: last.messageId, ...(chatId ? { chatId } : {}) }, true);
    },

    resume(): Promise<void> {
      const refusal = refuse();
      if (refusal) return refusal;
      const chatId = store.getSnapshot().chatId ?? storedChatId;
      if (chatId !== undefined) return run({ chatId }, false);
      if (last) return run({ input: last.input, messageId: last.messageId }, true);
      return Promise.reject(new ServiceConfigError('resume: no thread to continue (no chatId and nothing sent)'));
    },

    async abort(): Promise<void> {
      const current = running;
      if (!current || current.stopped) return;
      current.stopped = true;
      // Whatever the service says, the local request ends within the grace period.
      current.timer = setTimeout(
        () => current.controller.abort(new ServiceAbortError('The chat answer was stopped')),
        abortGraceMs,
      );
      if ((store.getSnapshot().chatId ?? storedChatId) === undefined) {
        // No thread id yet (the first line is on its way): stop the agent as soon as it arrives.
        current.abortWanted = true;
        return;
      }
      await stopAgent();
    },

    reset(chatId?: string): void {
      if (disposed) return;
      parked = false;
      if (running) {
        running.stopped = true;
        running.controller.abort(new ServiceAbortError('The chat was reset'));
        running = undefined;
      }
      last = undefined;
      outcomes = NO_OUTCOMES;
      storedChatId = announcedChatId = chatId;
      notifier.batch(() => {
        store.reset();
        dispatch({ type: 'reset' });
        notifier.changed();
      });
    },

    reconnecting(event: ResubscribeEvent): void {
      if (running && !running.stopped) dispatch({ type: 'reconnect', event });
    },

    subscribe: notifier.subscribe,
    listen(listener: AgentChatCallbacks): () => void {
      const entry = { of: listener };
      callbacks.add(entry);
      return () => void callbacks.delete(entry);
    },
    getSnapshot,

    dispose(): void {
      if (disposed) return;
      disposed = true;
      notifier.close();
      callbacks.clear();
      if (running) {
        running.stopped = true;
        running.controller.abort(new ServiceAbortError('The chat was disposed'));
      }
      unsubscribeStore();
    },
  };
  snapshot = getSnapshot();
  return chat;
}
