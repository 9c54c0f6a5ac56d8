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
 * enough to overflow a recursive walk). Stops counting once past `limit`.
 */
export function depthOf(tree: MdastNodes, limit: number): number {
  let deepest = 0;
  const stack: [MdastNodes, number][] = [[tree, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    if ('children' in node) for (const child of node.children) stack.push([child, depth + 1]);
  }
  return deepest;
}
