import type { Element, Nodes as HastNodes } from 'hast';
import { createElement, type ComponentType, type JSX, type ReactNode } from 'react';
import { allowedImageUrl, safeUrl } from './url';

/** Props an element renderer receives: the element's own props plus the hast node it came from. */
export type MarkdownElementProps<Tag extends keyof JSX.IntrinsicElements> = JSX.IntrinsicElements[Tag] & {
  /** The hast element being rendered (as react-markdown passes it). */
  node?: Element;
};

/**
 * Replacements for the elements markdown renders, by tag name, as react-markdown's `components`:
 * a component, or another tag name. They receive sanitized props (a link's `href` is already safe
 * and carries `target` and `rel`; an image's `src` is absent unless its origin is allowed).
 */
export type MarkdownComponents = {
  [Tag in keyof JSX.IntrinsicElements]?: ComponentType<MarkdownElementProps<Tag>> | keyof JSX.IntrinsicElements;
};

/** What rendering needs besides the tree. */
export interface RenderOptions {
  components: MarkdownComponents | undefined;
  allowedImageOrigins: readonly string[];
  /** Text shown for a blocked image without alt text. */
  imageLabel: string;
  /** Accessible name of a task list checkbox (its checked state says whether it is done). */
  taskLabel: string;
}

/** React nodes for a hast tree made from markdown (no raw HTML: the tree is built without it). */
export function renderHast(tree: HastNodes, options: RenderOptions): ReactNode[] {
  const result: ReactNode[] = [];
  const children = tree.type === 'root' ? tree.children : [tree];
  children.forEach((child, index) => {
    // The whitespace between blocks means nothing in HTML; dropping it lets blocks rendered one
    // at a time join to exactly what the whole text renders to.
    if (child.type === 'element') result.push(renderElement(child, String(index), options));
  });
  return result;
}

/** Elements in which whitespace text is not allowed (React warns; browsers move it out). */
const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr']);

function renderChildren(parent: Element, options: RenderOptions): ReactNode[] | undefined {
  const { children } = parent;
  if (children.length === 0) return undefined;
  const inTable = TABLE_PARTS.has(parent.tagName);
  const result: ReactNode[] = [];
  children.forEach((child, index) => {
    if (child.type === 'text') {
      if (!(inTable && child.value.trim() === '')) result.push(child.value);
    } else if (child.type === 'element') result.push(renderElement(child, String(index), options));
  });
  return result;
}

type Props = Record<string, unknown>;

/** hast names of `data-*` and `aria-*` attributes (`dataFootnoteRef`, `ariaDescribedBy`). */
const ATTRIBUTE = /^(?:data|aria)[A-Z]/;

function attributeName(name: string): string {
  // `aria-describedby`: one word after the prefix; `data-footnote-ref`: a hyphen per capital.
  if (name.startsWith('aria')) return `aria-${name.slice(4).toLowerCase()}`;
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** A fragment of this page: no navigation, no scheme. */
const FOOTNOTE_HREF = /^#user-content-fn(?:ref)?-/;

/** A footnote reference or back reference as to-hast builds it. */
function isFootnoteLink(element: Element): boolean {
  const { href, dataFootnoteRef, dataFootnoteBackref } = element.properties;
  return (
    (dataFootnoteRef === true || dataFootnoteBackref === true || dataFootnoteBackref === '') &&
    typeof href === 'string' &&
    FOOTNOTE_HREF.test(href)
  );
}

/** The React element for one hast element (and what is in it), keyed `key`. */
export function renderElement(element: Element, key: string, options: RenderOptions): ReactNode {
  const { tagName } = element;
  const props: Props = { key };
  for (const [name, value] of Object.entries(element.properties)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') props.className = Array.isArray(value) ? value.join(' ') : String(value);
    else if (name === 'align' && (tagName === 'td' || tagName === 'th')) props.style = { textAlign: value };
    else if (ATTRIBUTE.test(name)) props[attributeName(name)] = Array.isArray(value) ? value.join(' ') : value;
    else props[name] = value;
  }
  // Own entries only: the partner's map is a plain object, and its prototype's members are no views.
  const { components } = options;
  const override =
    components && Object.hasOwn(components, tagName) ? components[tagName as keyof JSX.IntrinsicElements] : undefined;

  if (tagName === 'a' && isFootnoteLink(element)) {
    // A footnote's links stay on the page: to-hast builds them (markdown cannot write these
    // attributes), pointing at its own prefixed ids.
  } else if (tagName === 'a') {
    const href = typeof props.href === 'string' ? safeUrl(props.href) : undefined;
    if (href === undefined) delete props.href;
    else props.href = href;
    props.target = '_blank';
    props.rel = 'noopener noreferrer';
  } else if (tagName === 'img') {
    const src = typeof props.src === 'string' ? allowedImageUrl(props.src, options.allowedImageOrigins) : undefined;
    if (src === undefined) {
      delete props.src;
      if (!override) {
        // Not loaded: the alt text stands in, so the reader still learns what was there.
        const alt = typeof props.alt === 'string' && props.alt !== '' ? props.alt : options.imageLabel;
        return createElement(
          'span',
          { key, 'data-part': 'markdown-image', 'data-state': 'blocked', title: props.title as string | undefined },
          alt,
        );
      }
    } else {
      props.src = src;
    }
  } else if (tagName === 'input') {
    // Task list boxes show state; nobody can toggle an answer. A form field needs a name.
    props.readOnly = true;
    props['aria-label'] = options.taskLabel;
  }

  const children = renderChildren(element, options);
  if (override === undefined) return createElement(tagName, props, children);
  if (typeof override === 'string') return createElement(override, props, children);
  return createElement(override as ComponentType<Props>, { ...props, node: element }, children);
}
