/**
 * `useControllableState`: one hook for a value a component holds itself unless its parent holds
 * it (Radix `use-controllable-state`): `prop` controls it, `defaultProp` starts it, `onChange`
 * hears every change either way.
 *
 * @module
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLatest } from './use-latest';

/** Options of {@link useControllableState}. */
export interface ControllableStateOptions<T> {
  /** The value, when the parent holds it; `undefined` lets the component hold it. */
  prop: T | undefined;
  /** The first value the component holds, when `prop` is `undefined`. */
  defaultProp: T;
  /** Every change the component makes, controlled or not. Read through a ref (an inline function is fine). */
  onChange?: ((value: T) => void) | undefined;
  /** Named in the development warning when the component switches between controlled and not. */
  name: string;
}

/**
 * The value and its setter: `prop` when given, the component's own state otherwise. Warns in
 * development when a component switches between the two, which loses what the user typed.
 */
export function useControllableState<T>(options: ControllableStateOptions<T>): [T, (value: T) => void] {
  const { prop, defaultProp, name } = options;
  const [own, setOwn] = useState(defaultProp);
  const controlled = prop !== undefined;
  const onChange = useLatest(options.onChange);
  const wasControlled = useRef(controlled);
  useEffect(() => {
    if (process.env.NODE_ENV !== 'production' && wasControlled.current !== controlled) {
      console.warn(
        `[@service/react] ${name} switched from ${wasControlled.current ? 'controlled' : 'uncontrolled'} to ${
          controlled ? 'controlled' : 'uncontrolled'
        }: give it a value on every render (use '' rather than undefined) or never.`,
      );
    }
    wasControlled.current = controlled;
  }, [controlled, name]);
  const set = useCallback(
    (value: T) => {
      if (!controlled) setOwn(value);
      onChange.current?.(value);
    },
    [controlled, onChange],
  );
  return [controlled ? prop : own, set];
}
