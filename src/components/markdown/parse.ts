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
const extensions = [
  /*#__PURE__*/ gfmAutolinkLiteral(),
  /*#__PURE__*/ gfmFootnote(),
  /*#__PURE__*/ gfmStrikethrough(),
  /*#__PURE__*/ gfmTable(),
  /*#__PURE__*/ gfmTaskListItem(),
];
const mdastExtensions = [
  /*#__PURE__*/ gfmAutolinkLiteralFromMarkdown(),
  /*#__PURE__*/ gfmFootnoteFromMarkdown(),
  /*#__PURE__*/ gfmStrikethroughFromMarkdown(),
  /*#__PURE__*/ gfmTableFromMarkdown(),
  /*#__PURE__*/ gfmTaskListItemFromMarkdown(),
];

/** Parses markdown (CommonMark + GFM tables, strikethrough, task lists, autolink literals, footnotes). */
export function parseMarkdown(text: string): MdastRoot {
  return fromMarkdown(text, { extensions, mdastExtensions });
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
