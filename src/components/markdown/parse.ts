import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';

/*
 * GFM, parsing half only: what remark-gfm does minus its to-markdown serializers (rendering never
 * writes markdown). Footnotes are document-global (numbered by first reference, gathered into one
 * section at the end): StreamingMarkdown numbers them across blocks itself. Tag filter is moot:
 * raw HTML is never rendered.
 */
// Pure: an app that never renders markdown drops the parser with it.
const GFM = [
  // Autolink literals: `www.`, `http://` and `https://` links and addresses (`@`, which `mailto:`
  // and `xmpp:` links have too). Its email construct is tried at every letter and digit. Part of
  // it runs on the decoded text, where a character reference (`&#64;`) may have made any of them.
  {
    needed: /[@&]|www\.|https?:\/\//i,
    syntax: /*#__PURE__*/ gfmAutolinkLiteral(),
    mdast: /*#__PURE__*/ gfmAutolinkLiteralFromMarkdown(),
  },
  // Footnote calls and definitions (`[^1]`, `![^1]`, `[^1]:`).
  { needed: /\[\^/, syntax: /*#__PURE__*/ gfmFootnote(), mdast: /*#__PURE__*/ gfmFootnoteFromMarkdown() },
  { needed: /~/, syntax: /*#__PURE__*/ gfmStrikethrough(), mdast: /*#__PURE__*/ gfmStrikethroughFromMarkdown() },
  // A table's head row has a pipe.
  { needed: /\|/, syntax: /*#__PURE__*/ gfmTable(), mdast: /*#__PURE__*/ gfmTableFromMarkdown() },
  // `[ ]`, `[x]` or `[X]`; a line ending counts as the space, and what prefixes the next line (the
  // item's indent, a quote's `>`) is not in between.
  {
    needed: /\[(?:[\t xX]\]|[\n\r])/,
    syntax: /*#__PURE__*/ gfmTaskListItem(),
    mdast: /*#__PURE__*/ gfmTaskListItemFromMarkdown(),
  },
];

/** The extensions for each set of GFM constructs a text may hold, by bit mask over `GFM`. */
const configurations = new Map<number, NonNullable<Parameters<typeof fromMarkdown>[1]>>();

/**
 * Parses markdown (CommonMark + GFM tables, strikethrough, task lists, autolink literals, footnotes).
 *
 * Each GFM extension is handed to the parser only when the text has the characters its syntax
 * needs: the parser tries every construct it has wherever one may start, and combines the
 * extensions it gets anew for each text, so that text without a pipe, tilde, `[^`, link or
 * address parses in less than half the time, to the same tree.
 */
export function parseMarkdown(text: string): MdastRoot {
  let mask = 0;
  for (let index = 0; index < GFM.length; index++) if (GFM[index]!.needed.test(text)) mask |= 1 << index;
  let options = configurations.get(mask);
  if (!options) {
    const used = GFM.filter((_, index) => mask & (1 << index));
    options = { extensions: used.map((gfm) => gfm.syntax), mdastExtensions: used.map((gfm) => gfm.mdast) };
    configurations.set(mask, options);
  }
  return fromMarkdown(text, options);
}

/**
 * Nesting depth of a tree, counted without recursion (a markdown bomb is exactly a tree deep
 * enough to overflow a recursive walk). Stops counting once past `limit`. `known` holds the depth
 * under nodes counted before: a tree that shares most of its nodes with one counted before (the
 * open block, from one delta to the next) costs its new nodes.
 */
export function depthOf(tree: MdastNodes, limit: number, known?: WeakMap<MdastNodes, number>): number {
  // A frame per node on the path down: the node, its next child, the deepest below it so far.
  const path: { node: MdastNodes; next: number; below: number }[] = [{ node: tree, next: 0, below: 0 }];
  for (;;) {
    const frame = path.at(-1)!;
    const children = 'children' in frame.node ? (frame.node.children as MdastNodes[]) : NO_CHILDREN;
    if (frame.next < children.length) {
      const child = children[frame.next++]!;
      const below = known?.get(child);
      if (below !== undefined) frame.below = Math.max(frame.below, below + 1);
      else if (path.length > limit) return path.length;
      else path.push({ node: child, next: 0, below: 0 });
      continue;
    }
    path.pop();
    known?.set(frame.node, frame.below);
    const parent = path.at(-1);
    if (!parent) return frame.below;
    parent.below = Math.max(parent.below, frame.below + 1);
  }
}

const NO_CHILDREN: readonly MdastNodes[] = [];
