/**
 * Latest-value refs: user callbacks are read through them, so an inline function re-created on
 * every render never re-subscribes, reloads or restarts anything.
 *
 * @module
 */
import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * `useLayoutEffect` in the browser, `useEffect` on the server (where neither runs, but
 * `useLayoutEffect` would warn in React 18's `renderToString`).
 */
export const useIsomorphicLayoutEffect: typeof useLayoutEffect =
  typeof document !== 'undefined' ? useLayoutEffect : useEffect;

/**
 * A ref that always holds the latest `value`, updated before any effect of the same commit runs
 * (so effects and event handlers see this render's callbacks), never during render.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useIsomorphicLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
