/**
 * The one element factory of the library's components (Radix's `Primitive` habit): every exported
 * part forwards its ref to its root element, spreads the caller's other props and `className` on
 * it, composes the caller's event handlers before its own (ours skipped when theirs called
 * `preventDefault()`), and carries `data-part`, `data-state` where it has state, and a
 * `displayName`. A part's render function says only what is its own.
 *
 * @module
 */
import {
  createElement,
  forwardRef,
  useCallback,
  type ComponentPropsWithoutRef,
  type ComponentRef,
  type ForwardRefExoticComponent,
  type ForwardedRef,
  type JSX,
  type PropsWithoutRef,
  type ReactNode,
  type Ref,
  type RefAttributes,
  type SyntheticEvent,
} from 'react';

/** An HTML tag a part can have as its root. */
export type PartTag = keyof JSX.IntrinsicElements;

/** `data-*` attributes, which object types otherwise refuse. */
export type DataAttributes = { [key: `data-${string}`]: string | number | boolean | undefined };

/** Props of a part's root element as its render function gives them. */
export type PartElementProps<T extends PartTag> = ComponentPropsWithoutRef<T> &
  DataAttributes & {
    /** The part's own ref to its root, composed with the caller's. Keep it stable (a ref object). */
    ref?: Ref<ComponentRef<T>>;
  };

/** What a part's render function returns: the root element's props, its state and its children. */
export interface PartRender<T extends PartTag> {
  /** The caller's props that go to the root element: what is left once the part took its own. */
  rest: ComponentPropsWithoutRef<T>;
  /** `data-state` of the root: what the part shows now (`open`, `running`...). Default none. */
  state?: string;
  /** The library's own props of the root. The caller's handlers run first; the caller's other props win. */
  props?: PartElementProps<T>;
  /** The root's children. */
  children?: ReactNode;
  /**
   * The part gave the caller's ref an imperative handle itself (`useImperativeHandle` with the
   * ref its render received, as the embeds do): the root gets none. Default `false`.
   */
  handle?: boolean;
}

/**
 * `value` with its `displayName` set (a component or a context, for React DevTools), in one call
 * that can be marked pure: a module-level assignment would keep the module in every bundle.
 */
export function named<T extends { displayName?: string | undefined }>(value: T, displayName: string): T {
  value.displayName = displayName;
  return value;
}

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
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}

function setRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) (ref as { current: T | null }).current = value;
}

/** One ref callback that sets both refs; the same function while they stay the same. */
export function useComposedRefs<T>(first: Ref<T> | undefined, second: Ref<T> | undefined): Ref<T> | undefined {
  const composed = useCallback(
    (node: T | null) => {
      setRef(first, node);
      setRef(second, node);
    },
    [first, second],
  );
  return first && second ? composed : (first ?? second);
}

const HANDLER = /^on[A-Z]/;

/**
 * Our props with the caller's over them: handlers composed (theirs first), `style` merged, every
 * other prop of the caller winning.
 */
function mergeProps(ours: Record<string, unknown>, theirs: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...ours };
  for (const key of Object.keys(theirs)) {
    const mine = ours[key];
    const given = theirs[key];
    if (HANDLER.test(key) && typeof mine === 'function' && typeof given === 'function') {
      merged[key] = composeEventHandlers(
        given as (event: SyntheticEvent) => void,
        mine as (event: SyntheticEvent) => void,
      );
    } else if (key === 'style' && mine && given) {
      merged[key] = { ...(mine as object), ...(given as object) };
    } else if (given !== undefined) merged[key] = given;
  }
  return merged;
}

/** An exported part of the library: a component that forwards its ref to its root element `T`. */
export type PartComponent<T extends PartTag, P> = ForwardRefExoticComponent<
  PropsWithoutRef<P> & RefAttributes<ComponentRef<T>>
>;

/**
 * Makes a part: `forwardRef` to a root `tag` carrying `data-part={part}` and the classes
 * `baseClassName` and the caller's `className`; `render` returns the rest of the caller's props
 * and what is the part's own (see {@link PartRender}), or `null` to render nothing. It receives
 * the caller's ref too, for a part whose ref is a handle.
 */
export function createPart<T extends PartTag, P extends { className?: string }>(
  displayName: string,
  tag: T,
  part: string,
  baseClassName: string | undefined,
  render: (props: P, ref: ForwardedRef<unknown>) => PartRender<T> | null,
): PartComponent<T, P> {
  const Part = forwardRef<ComponentRef<T>, P>(function Part(props, forwardedRef: ForwardedRef<ComponentRef<T>>) {
    // The ref goes to the render only for `useImperativeHandle` (the embeds' handle); none reads it.
    // eslint-disable-next-line react-hooks/refs
    const result = render(props as P, forwardedRef as ForwardedRef<unknown>);
    const ownRef = result?.props?.ref;
    const ref = useComposedRefs<ComponentRef<T>>(result?.handle ? undefined : forwardedRef, ownRef);
    if (!result) return null;
    const { ref: _ownRef, ...ours } = result.props ?? {};
    const element = mergeProps(ours as Record<string, unknown>, result.rest as Record<string, unknown>);
    element['className'] = cx(baseClassName, props.className);
    element['data-part'] = part;
    if (result.state !== undefined) element['data-state'] = result.state;
    element['ref'] = ref;
    return createElement(tag, element, result.children);
  });
  Part.displayName = displayName;
  return Part as unknown as PartComponent<T, P>;
}
