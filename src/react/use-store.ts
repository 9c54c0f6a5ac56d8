/**
 * The one bridge from the core's stores to React: `useSyncExternalStore` over a store's
 * `subscribe`/`getSnapshot`, with an optional selector whose result is cached per snapshot.
 *
 * @module
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';

/**
 * What React can read: any core store (thread store, chat controller, embed channel state).
 * `subscribe` returns its unsubscribe; `getSnapshot` returns the same object until something
 * changed. Both must be callable unbound (the core binds them).
 */
export interface ExternalStore<Snapshot> {
  /** Calls `listener` after each change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
  /** The current state: the same object until something changed. */
  getSnapshot(): Snapshot;
}

const identity = <T>(value: T): T => value;

/**
 * Reads a core store in React. Without `selector`, the component re-renders when the snapshot
 * object changes. With one, it re-renders only when the selected value changes (by `isEqual`,
 * default `Object.is`); the selection is computed once per snapshot, and an inline selector
 * re-created every render costs one call, never a loop.
 *
 * The server render (and hydration) reads `getSnapshot()` too: core stores hold no browser state
 * before they are used, so both sides agree.
 */
export function useStore<Snapshot, Selected = Snapshot>(
  store: ExternalStore<Snapshot>,
  selector: (snapshot: Snapshot) => Selected = identity as (snapshot: Snapshot) => Selected,
  isEqual: (a: Selected, b: Selected) => boolean = Object.is,
): Selected {
  // The last snapshot, the selector applied to it and its result, so that equal selections keep
  // their identity (across renders too, when an inline selector is re-created every time).
  const cache = useRef<{ snapshot: Snapshot; selector: unknown; selected: Selected } | null>(null);
  const getSelection = (): Selected => {
    const snapshot = store.getSnapshot();
    const last = cache.current;
    if (last && last.snapshot === snapshot && last.selector === selector) return last.selected;
    const next = selector(snapshot);
    const selected = last && isEqual(last.selected, next) ? last.selected : next;
    cache.current = { snapshot, selector, selected };
    return selected;
  };
  const subscribe = useCallback((listener: () => void) => store.subscribe(listener), [store]);
  return useSyncExternalStore(subscribe, getSelection, getSelection);
}
