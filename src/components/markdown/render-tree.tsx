import type { Element, Nodes as HastNodes } from 'hast';
import type {
  Code,
  Heading,
  List,
  ListItem,
  Nodes as MdastNodes,
  Paragraph,
  Root as MdastRoot,
  Table,
  TableRow,
} from 'mdast';
import { toHast } from 'mdast-util-to-hast';
import { createElement, memo, type JSX, type ReactNode } from 'react';
import { renderElement, type RenderOptions } from './render';

/**
 * Rows, items, lines or blocks per group. A group none of whose nodes changed is the same React
 * element as before, which React passes over whole; a table of `n` rows costs React `n / 16`
 * groups and the rows of the last one per delta, not `n` rows.
 */
export const GROUP_SIZE = 16;

/** A run of rendered nodes, rendered again only when the run changes. */
export const Group = /*#__PURE__*/ memo(function Group({ items }: { items: readonly ReactNode[] }): ReactNode {
  return items;
});

interface GroupEntry {
  key: string;
  /** The nodes the group was made of. */
  nodes: readonly unknown[];
  /** Whatever else its elements depend on (a list's looseness). */
  variant: unknown;
  element: ReactNode;
}

interface NodeEntry {
  key: string;
  variant: unknown;
  element: ReactNode;
}

/**
 * What {@link renderTree} keeps between renders of one `StreamingMarkdown`: the React nodes made
 * for markdown nodes and groups of them, by the markdown node (the open block's tree shares the
 * nodes that did not change from one delta to the next), and the pieces of the code block last
 * rendered.
 */
export interface RenderCache {
  options: RenderOptions | undefined;
  nodes: WeakMap<object, NodeEntry>;
  groups: WeakMap<object, GroupEntry>;
  code: { text: string; pieces: string[]; end: number } | undefined;
}

/** A cache for {@link renderTree}. */
export function createRenderCache(): RenderCache {
  return { options: undefined, nodes: new WeakMap(), groups: new WeakMap(), code: undefined };
}

/**
 * React nodes for a markdown tree, as `renderHast(toHast(tree))` makes them (the same DOM), built
 * node by node so that the nodes a tree shares with one rendered before are not rendered again:
 * each top-level node is rendered on its own (to-hast reads nothing of its siblings), a table's
 * rows, a list's items and a code block's lines in groups. Only for trees without link reference
 * or footnote definitions, which to-hast resolves across the whole tree.
 */
export function renderTree(tree: MdastRoot, options: RenderOptions, cache: RenderCache): ReactNode[] {
  if (cache.options !== options) {
    cache.options = options;
    cache.nodes = new WeakMap();
    cache.groups = new WeakMap();
    cache.code = undefined;
  }
  const { components } = options;
  return tree.children.map((node, index) => {
    const key = String(index);
    if (node.type === 'table' && !overrides(components, TABLE_TAGS)) return renderTable(node, key, options, cache);
    if (node.type === 'list' && !overrides(components, LIST_TAGS)) return renderList(node, key, options, cache);
    if (node.type === 'code' && !overrides(components, CODE_TAGS)) return renderCode(node, key, cache);
    if (
      (node.type === 'paragraph' || node.type === 'heading') &&
      !overrides(components, [node.type === 'paragraph' ? 'p' : `h${node.depth}`]) &&
      !node.children.some((child) => child.type === 'break')
    )
      return renderInline(node, key, options, cache);
    return cached(cache, node, key, undefined, () => renderAlone(node, key, options));
  });
}

/** Tags whose renderers receive the whole container: a container of them is rendered whole. */
const TABLE_TAGS = ['table', 'thead', 'tbody'] as const;
const LIST_TAGS = ['ul', 'ol'] as const;
const CODE_TAGS = ['pre', 'code'] as const;

function overrides(components: RenderOptions['components'], tags: readonly (keyof JSX.IntrinsicElements)[]): boolean {
  return components !== undefined && tags.some((tag) => components[tag] !== undefined);
}

function cached(cache: RenderCache, node: object, key: string, variant: unknown, render: () => ReactNode): ReactNode {
  const entry = cache.nodes.get(node);
  if (entry?.key === key && entry.variant === variant) return entry.element;
  const element = render();
  cache.nodes.set(node, { key, variant, element });
  return element;
}

/** One node rendered as the only child of a root: what to-hast makes of it among its siblings. */
function renderAlone(node: MdastNodes, key: string, options: RenderOptions): ReactNode {
  const elements = elementsOf(toHast({ type: 'root', children: [node] } as MdastRoot));
  if (elements.length === 1) return renderElement(elements[0]!, key, options);
  return elements.map((element, index) => renderElement(element, `${key}.${index}`, options));
}

/**
 * A paragraph or heading, its text and inline elements one by one: while words are appended to
 * its last text, the emphasis, code and links before it are the elements made before. to-hast
 * converts each child on its own, but for trimming the start of what follows a hard break
 * (paragraphs with one are rendered whole).
 */
function renderInline(node: Paragraph | Heading, key: string, options: RenderOptions, cache: RenderCache): ReactNode {
  const children = node.children.map((child, index) =>
    cached(cache, child, String(index), undefined, () => {
      const converted = toHast(child);
      if (converted.type === 'text') return converted.value;
      return converted.type === 'element' ? renderElement(converted, String(index), options) : null;
    }),
  );
  return createElement(node.type === 'paragraph' ? 'p' : `h${node.depth}`, { key }, children);
}

function elementsOf(node: HastNodes | undefined): Element[] {
  if (node === undefined || !('children' in node)) return [];
  return (node.children as HastNodes[]).filter((child): child is Element => child.type === 'element');
}

/**
 * The groups of `nodes[from..to)`, `GROUP_SIZE` at a time: a group whose nodes are the same
 * objects as when it was made (and whose `variant` is the same) is the element made then.
 */
export function groupsOf<Node extends object>(
  cache: RenderCache,
  nodes: readonly Node[],
  from: number,
  variant: unknown,
  item: (node: Node, index: number, items: ReactNode[]) => void,
): ReactNode[] {
  const groups: ReactNode[] = [];
  for (let start = from; start < nodes.length; start += GROUP_SIZE) {
    const end = Math.min(start + GROUP_SIZE, nodes.length);
    const key = `g${start}`;
    const entry = cache.groups.get(nodes[start]!);
    if (entry?.key === key && entry.variant === variant && sameNodes(entry.nodes, nodes, start, end)) {
      groups.push(entry.element);
      continue;
    }
    const items: ReactNode[] = [];
    for (let index = start; index < end; index++) item(nodes[index]!, index, items);
    const element = createElement(Group, { key, items });
    cache.groups.set(nodes[start]!, { key, nodes: nodes.slice(start, end), variant, element });
    groups.push(element);
  }
  return groups;
}

function sameNodes(before: readonly unknown[], nodes: readonly unknown[], start: number, end: number): boolean {
  if (before.length !== end - start) return false;
  for (let index = start; index < end; index++) if (before[index - start] !== nodes[index]) return false;
  return true;
}

/** A row with no cells: the head a body row is converted under (to-hast makes it a `th` row). */
const NO_CELLS: TableRow = { type: 'tableRow', children: [] };

function renderTable(table: Table, key: string, options: RenderOptions, cache: RenderCache): ReactNode {
  const { align } = table;
  // A row's cells depend on the table's alignment (which every row of one parse shares) and on
  // whether it is the head row; the rows before it do not matter.
  const row = (node: TableRow, index: number): ReactNode =>
    cached(cache, node, String(index), align, () => {
      const converted = toHast({
        type: 'root',
        children: [{ type: 'table', align, children: index === 0 ? [node] : [NO_CELLS, node] }],
      });
      const [head, body] = elementsOf(elementsOf(converted)[0]);
      return renderElement(elementsOf(index === 0 ? head : body)[0]!, String(index), options);
    });
  const rows = table.children;
  const head = createElement('thead', { key: 'head' }, row(rows[0]!, 0));
  if (rows.length === 1) return createElement('table', { key }, head);
  const body = groupsOf(cache, rows, 1, align, (node, index, items) => items.push(row(node, index)));
  return createElement('table', { key }, head, createElement('tbody', { key: 'body' }, body));
}

function renderList(list: List, key: string, options: RenderOptions, cache: RenderCache): ReactNode {
  const items = list.children;
  // An item renders its paragraphs bare or in `<p>` by whether the whole list is loose.
  let loose = Boolean(list.spread);
  let task = false;
  for (const item of items) {
    if (!loose && (item.spread ?? item.children.length > 1)) loose = true;
    if (!task && typeof item.checked === 'boolean') task = true;
  }
  const rendered = (node: ListItem, index: number): ReactNode =>
    cached(cache, node, String(index), loose, () => {
      const converted = toHast({
        type: 'root',
        children: [{ type: 'list', ordered: list.ordered, start: list.start, spread: loose, children: [node] }],
      });
      return renderElement(elementsOf(elementsOf(converted)[0])[0]!, String(index), options);
    });
  const props: Record<string, unknown> = { key };
  if (typeof list.start === 'number' && list.start !== 1) props.start = list.start;
  if (task) props.className = 'contains-task-list';
  // to-hast puts a line end before, between and after the items.
  const groups = groupsOf(cache, items, 0, loose, (node, index, into) => into.push(rendered(node, index), '\n'));
  return createElement(list.ordered ? 'ol' : 'ul', props, '\n', groups);
}

/**
 * A code block, its text in pieces of `GROUP_SIZE` lines: the pieces before the last line of the
 * block last rendered are the same strings while the block grows, which React leaves alone, so a
 * new line costs its own text node, not the block's.
 */
function renderCode(code: Code, key: string, cache: RenderCache): ReactNode {
  const text = code.value ? `${code.value}\n` : '';
  const lastLine = text.lastIndexOf('\n', text.length - 2) + 1;
  let memo = cache.code;
  if (!memo || memo.end > lastLine || text.slice(0, memo.end) !== memo.text.slice(0, memo.end))
    memo = { text, pieces: [], end: 0 };
  const pieces = memo.pieces.slice();
  let { end } = memo;
  for (;;) {
    let next = end;
    for (let lines = 0; lines < GROUP_SIZE && next !== -1; lines++) {
      const lineEnd = text.indexOf('\n', next);
      next = lineEnd === -1 ? -1 : lineEnd + 1;
    }
    if (next === -1 || next > lastLine) break;
    pieces.push(text.slice(end, next));
    end = next;
  }
  cache.code = { text, pieces, end };
  const language = code.lang?.split(/\s+/)[0];
  return createElement(
    'pre',
    { key },
    createElement(
      'code',
      { key: '0', ...(language ? { className: `language-${language}` } : {}) },
      ...pieces,
      text.slice(end),
    ),
  );
}
