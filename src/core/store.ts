/**
 * The one small subscribable base of the core's stores (thread store, chat controller, embed
 * controller, the emulator page's chat): listeners in a `Set`, a bound `subscribe` returning its
 * unsubscribe (ready for `useSyncExternalStore`), and, on top of it, batched notification through
 * a scheduler that can be swapped (the animation frame while tokens stream), with hooks called as
 * listeners come and go, so a store's work can follow its subscribers (TanStack's
 * `onSubscribe`/`onUnsubscribe`). Internal: each store exposes only `subscribe`. No other listener
 * set exists in `src/` (a test checks).
 *
 * @module
 */

/** Runs a notification; the default runs it at once. */
export type ScheduleNotify = (notify: () => void) => void;

/** What {@link createSubscribable} gives a store: its listeners, without batching. */
export interface Subscribable {
  /** Adds `listener`; returns its unsubscribe. Bound. */
  subscribe(listener: () => void): () => void;
  /** Calls every listener now, in the order they subscribed. */
  notify(): void;
}

/** What {@link createNotifier} gives a store. */
export interface Notifier {
  /** Adds `listener`; returns its unsubscribe. Bound. */
  subscribe(listener: () => void): () => void;
  /** Marks a change: listeners are told after the outermost {@link Notifier.batch} (or at once outside one), through the scheduler. */
  changed(): void;
  /** Runs `fn`, then notifies once if anything changed. Batches nest. */
  batch<T>(fn: () => T): T;
  /** Opens a batch without a closure, for paths run once per streamed line; pair with {@link Notifier.release} in a `finally`. */
  hold(): void;
  /** Closes a batch opened by {@link Notifier.hold}. */
  release(): void;
  /** True while at least one listener is subscribed. */
  hasListeners(): boolean;
  /** Notifies no more, even a notification already scheduled, and takes no new listener. */
  close(): void;
}

/** Hooks of {@link createNotifier}, called after a listener was added or removed. */
export interface NotifierHooks {
  /** A listener was added. */
  onSubscribe?: () => void;
  /** A listener was removed (once per unsubscribe, however often it is called). */
  onUnsubscribe?: () => void;
}

const runNow: ScheduleNotify = (notify) => notify();

/**
 * Creates the listener set of one store, for a store that changes at most once per event and so
 * needs no batching (the embed controller, whose bundle is the smallest the library ships).
 */
export function createSubscribable(): Subscribable {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    notify() {
      for (const listener of listeners) listener();
    },
  };
}

/**
 * Creates the listener set and batching of one store. At most one notification is scheduled at a
 * time: changes made before a scheduled one runs ride along with it.
 */
export function createNotifier(scheduleNotify: ScheduleNotify = runNow, hooks: NotifierHooks = {}): Notifier {
  const { subscribe: add, notify: tell } = createSubscribable();
  let depth = 0;
  let pending = false;
  let scheduled = false;
  let closed = false;
  let count = 0;

  function notify(): void {
    scheduled = false;
    if (!closed) tell();
  }

  function flush(): void {
    if (!pending || depth > 0 || closed) return;
    pending = false;
    if (scheduled) return;
    scheduled = true;
    scheduleNotify(notify);
  }

  function hold(): void {
    depth++;
  }

  function release(): void {
    depth--;
    flush();
  }

  return {
    hold,
    release,
    subscribe(listener) {
      if (closed) return () => {};
      // A wrapper per subscription: the same function subscribed twice is two subscribers.
      const remove = add(() => listener());
      count++;
      hooks.onSubscribe?.();
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        remove();
        count--;
        hooks.onUnsubscribe?.();
      };
    },
    hasListeners: () => count > 0,
    close() {
      closed = true;
    },
    changed() {
      pending = true;
      flush();
    },
    batch(fn) {
      hold();
      try {
        return fn();
      } finally {
        release();
      }
    },
  };
}
