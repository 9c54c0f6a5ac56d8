/**
 * Small helpers of the Radix-like parts: user handlers run before ours, and ours are skipped when
 * the user's called `preventDefault()`.
 *
 * @module
 */
import type { SyntheticEvent } from 'react';

/** Calls `theirs`, then `ours` unless `theirs` prevented the default. */
export function composeEventHandlers<E extends SyntheticEvent>(
  theirs: ((event: E) => void) | undefined,
  ours: (event: E) => void,
): (event: E) => void {
  return (event) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours(event);
  };
}

/** Joins class names, skipping empty ones. */
export function cx(...names: (string | false | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
