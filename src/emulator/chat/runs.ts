/**
 * Threads and runs of the emulator's Chat API (protocol 3 "Chat thread streaming").
 *
 * A run is the agent answering one input (one `messageId`). It produces its lines on its own
 * schedule whether or not anyone listens, like the service: a client that disconnects leaves the
 * run going, and a request with the same `messageId` joins it, first receiving what was sent so
 * far, then the rest live, with no second assistant answer. Every line is also folded into the
 * thread's messages (`state.threads`), so a read of the thread (`chatId` without `input`) sees
 * where the run stands.
 *
 * @module
 */
import type { StreamMessage, Usage } from '../../core/protocol/chat';
import type { ChatThread } from '../state';
import { abortedLine, stateLine, suspendedLine, usageLine } from './lines';

/** A line of a chat answer as written (a message or a sentinel). */
export type WireLine = object;

/** Receives a run's lines. */
export interface RunListener {
  /** One line; the first calls replay what the run sent before the listener joined. */
  line(line: WireLine): void;
  /** The run is over: its closing lines were the last `line()` calls. */
  end(): void;
  /** The run was suspended: write `__suspended__` and end the response. */
  suspend(line: WireLine): void;
}

/** Thrown inside the agent when its run was stopped (aborted); the agent just unwinds. */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
}

/** Why a run waits: `hold` (a test fault, until the next joiner or an abort) or `suspend` (until the same body is resent). */
type Pause = 'hold' | 'suspend';

/** The live part of a thread: its folded messages and its runs. */
export class ThreadRuntime {
  /** Folded messages by id, as a read shows them (`isDelta: false`). */
  private readonly messages = new Map<string, StreamMessage>();
  /** Runs by the `messageId` they answer. */
  readonly runs = new Map<string, Run>();
  /** The run that is not over yet, if any. */
  active: Run | undefined;
  private sort = 0;

  constructor(
    /** The thread record of `state.threads` (owner, messages). */
    readonly record: ChatThread,
    private readonly now: () => number,
  ) {
    for (const message of record.messages) {
      this.messages.set(message.id, message);
      this.sort = Math.max(this.sort, message.sort ?? 0);
    }
  }

  /** The next `sort` of the thread (`__cutoff__` is 0, everything after counts up). */
  nextSort(): number {
    this.sort += 1;
    return this.sort;
  }

  /** The highest `sort` given so far. */
  lastSort(): number {
    return this.sort;
  }

  /** True when the thread has a message with this id. */
  hasMessage(id: string): boolean {
    return this.messages.has(id);
  }

  /** The messages in `sort` order, each whole (`isDelta: false`). */
  snapshot(): StreamMessage[] {
    return this.record.messages.map((message) => ({ ...message }));
  }

  /** Folds one message line into the thread: deltas append, anything else replaces. */
  apply(line: StreamMessage): void {
    const previous = this.messages.get(line.id);
    let next: StreamMessage;
    if (line.isDelta === true && previous) {
      next = { ...previous, ...line, isDelta: false };
      if (line.content !== undefined) next.content = (previous.content ?? '') + line.content;
      if (line.thinking !== undefined) next.thinking = (previous.thinking ?? '') + line.thinking;
    } else next = { ...line, isDelta: false };
    this.messages.set(line.id, next);
    this.store();
  }

  /** Marks messages still in process as done (a stopped run leaves nothing "generating" behind). */
  settle(): void {
    let changed = false;
    for (const [id, message] of this.messages) {
      if (message.isInProcess) {
        this.messages.set(id, { ...message, isInProcess: false });
        changed = true;
      }
    }
    if (changed) this.store();
  }

  private store(): void {
    // A stable sort keeps messages of equal `sort` in arrival order.
    this.record.messages = [...this.messages.values()].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
    this.record.updatedAt = this.now();
  }

  /** Starts tracking a run for `messageId`; it becomes the active run. */
  startRun(messageId: string): Run {
    const run = new Run(this, messageId);
    this.runs.set(messageId, run);
    this.active = run;
    return run;
  }
}

/** Token counts of a run, shaped like the service's `__usage__`. */
export interface RunUsage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** The model name the emulated agent reports in `__usage__`. */
export const EMULATED_MODEL = 'emulator-analyst-1';

/** One run: the agent answering one input of a thread. */
export class Run {
  /** Every line sent so far (after `__cutoff__`), closing lines included once over. */
  readonly log: WireLine[] = [];
  readonly usage: RunUsage = { llmCalls: 0, inputTokens: 0, outputTokens: 0 };
  private readonly listeners = new Set<RunListener>();
  private pause: Pause | undefined;
  private waiters: (() => void)[] = [];
  private over = false;

  constructor(
    readonly thread: ThreadRuntime,
    /** The `messageId` this run answers (the user echo's id). */
    readonly messageId: string,
  ) {}

  /** True once the run's closing lines were sent. */
  get done(): boolean {
    return this.over;
  }

  /** True while suspended (waiting for the same body to be resent). */
  get suspended(): boolean {
    return this.pause === 'suspend';
  }

  /**
   * Adds a listener: replays the log (`replay: true`) or not, then delivers the rest live; a run
   * that is over ends the listener at once. Returns the unsubscribe function. A listener that
   * ends itself during the replay (a fault) is not kept.
   */
  subscribe(listener: RunListener & { readonly closed: boolean }, options: { replay: boolean }): () => void {
    if (options.replay) {
      for (const line of this.log) {
        if (listener.closed) return () => {};
        listener.line(line);
      }
    }
    if (listener.closed) return () => {};
    if (this.over) {
      listener.end();
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private broadcast(line: WireLine): void {
    this.log.push(line);
    for (const listener of [...this.listeners]) listener.line(line);
  }

  /**
   * Waits while the run is held or suspended; throws {@link RunStopped} once it is over. The agent
   * calls it before each line.
   */
  async checkpoint(): Promise<void> {
    while (this.pause !== undefined && !this.over) await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.over) throw new RunStopped('The run was stopped');
  }

  /** Sends a message line: logged, folded into the thread, delivered to every listener. */
  emit(line: StreamMessage): void {
    if (this.over) throw new RunStopped('The run was stopped');
    this.thread.apply(line);
    this.broadcast(line);
  }

  private close(closing: readonly WireLine[]): void {
    if (this.over) return;
    this.over = true;
    this.pause = undefined;
    for (const line of closing) this.broadcast(line);
    if (this.thread.active === this) this.thread.active = undefined;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener.end();
    this.wake();
  }

  private usageOf(): Usage {
    const { llmCalls, inputTokens, outputTokens } = this.usage;
    return {
      models: llmCalls > 0 ? [EMULATED_MODEL] : [],
      llmCalls,
      inputTokens,
      outputTokens,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      totalTokens: inputTokens + outputTokens,
    };
  }

  /** Ends the run normally: `__state__`, then `__usage__`. */
  finish(): void {
    if (this.over) return;
    this.close([stateLine(this.thread.snapshot(), this.thread.nextSort()), usageLine(this.usageOf())]);
  }

  /** Ends the run with an `{"error"}` line (the agent itself failed), then `__usage__`. */
  fail(message: string): void {
    if (this.over) return;
    this.thread.settle();
    this.close([{ error: message }, usageLine(this.usageOf())]);
  }

  /** Stops the run (abort, 4.4): `__aborted__`, then `__usage__`. No-op when already over. */
  abort(): void {
    if (this.over) return;
    this.thread.settle();
    this.close([abortedLine(), usageLine(this.usageOf())]);
  }

  /** Pauses the run until {@link release} (fault `hold-after`). */
  hold(): void {
    if (!this.over && this.pause === undefined) this.pause = 'hold';
  }

  /**
   * Suspends the run (fault `suspend-after`): every listener gets `__suspended__` and is ended;
   * the run waits until {@link release} (the same body sent again).
   */
  suspend(): void {
    if (this.over) return;
    this.pause = 'suspend';
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener.suspend(suspendedLine(this.messageId));
  }

  /** Lets a held or suspended run go on. */
  release(): void {
    if (this.pause === undefined) return;
    this.pause = undefined;
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
