/**
 * Building DOM in the embed page: elements from data, never from HTML strings, so nothing a
 * dashboard, a query result or a chat answer contains can become markup.
 *
 * @module
 */

/** Attribute values: `false`, `null` and `undefined` leave the attribute out; `true` sets it empty. */
export type AttributeValue = string | number | boolean | null | undefined;

/** A child: a node, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Event listeners, by event name (`click`, `change`, ...). */
export type Listeners = { [event: string]: (event: Event) => void };

/** Options of {@link h} and {@link s}. */
export interface ElementOptions {
  attrs?: Readonly<Record<string, AttributeValue>>;
  on?: Listeners;
  /** CSS custom properties and properties set through the CSSOM (allowed under a strict CSP). */
  style?: Readonly<Record<string, string>>;
}

function build<E extends Element>(element: E, options: ElementOptions, children: readonly Child[]): E {
  for (const [name, value] of Object.entries(options.attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [event, listener] of Object.entries(options.on ?? {})) element.addEventListener(event, listener);
  const style = (element as unknown as ElementCSSInlineStyle).style;
  for (const [property, value] of Object.entries(options.style ?? {})) style.setProperty(property, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}

/** An HTML element. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  return build(document.createElement(tag), options, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element. */
export function s<K extends keyof SVGElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  return build(document.createElementNS(SVG_NS, tag) as SVGElementTagNameMap[K], options, children);
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(
    ...children
      .filter((child): child is Node | string | number => child !== null && child !== undefined && child !== false)
      .map((child) => (typeof child === 'number' ? String(child) : child)),
  );
}
