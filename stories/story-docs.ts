/**
 * Helpers for the docs pages: props a story supplies itself (a recorded message, a session
 * route) stay documented but get no control, and stay out of the story's args.
 */
import type { ArgTypes } from '@storybook/react-vite';
import type { ComponentType } from 'react';

/**
 * A component typed without the props its stories supply themselves, so that story args hold
 * only what the controls set. The docs page still lists every prop: it reads them from the
 * component's TSDoc.
 */
export function suppliedByStory<P, K extends keyof P>(
  component: ComponentType<P>,
  ...supplied: K[]
): ComponentType<Omit<P, K>> {
  void supplied;
  return component as unknown as ComponentType<Omit<P, K>>;
}

/** Arg types giving `names` no control: documented in the table, set by the story. */
export function noControls(...names: string[]): Partial<ArgTypes> {
  return Object.fromEntries(names.map((name) => [name, { control: false }]));
}
