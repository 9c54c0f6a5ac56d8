/**
 * Latest-value refs: user callbacks are read through them, so an inline function re-created on
 * every render never re-subscribes, reloads or restarts anything.
 *
 * @module
 */
import { useEffect, useLayoutEffect, useRef, type DependencyList, type EffectCallback, type RefObject } from 'react';

/**
 * `useLayoutEffect` in the browser, `useEffect` on the server (where neither runs, but
 * `useLayoutEffect` would warn in React 18's `renderToString`). Decided at each call, not when the
 * module loads: importing the package on a server reads no browser global, and the answer cannot
 * be frozen by whichever environment happened to import it first.
 */
export function useIsomorphicLayoutEffect(effect: EffectCallback, deps?: DependencyList): void {
  // The same hook on every render of a process: there is no DOM on a server, and it never goes away in a browser.
  const useChosenEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;
  useChosenEffect(effect, deps);
}

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
