import type { Nodes as MdastNodes, Parents as MdastParents, Root as MdastRoot, Text as MdastText } from 'mdast';
import type { Point } from 'unist';
import { CONTAINER_PREFIX } from './limits';
import { parseMarkdown } from './parse';

/**
 * A parser that keeps its last tree, for markdown that grows: see {@link parseExtending}. The
 * tree is a pure function of the markdown, so a render that is thrown away (Strict Mode,
 * concurrent rendering) leaves nothing wrong behind.
 */
export function createExtendingParser(): { parse(source: string): MdastRoot } {
  let last: Parsed | undefined;
  return {
    parse(source) {
      const tree = parseExtending(last, source);
      last = { source, tree };
      return tree;
    },
  };
}

/** Markdown and the tree it parses to, kept so that the next, longer markdown can extend it. */
export interface Parsed {
  source: string;
  tree: MdastRoot;
}

/**
 * The tree of `source`, built from `previous.tree` where that is exactly the same: plain words
 * appended to the paragraph (or heading) `previous.source` ends in, or inside the emphasis it
 * ends in, or after its last emphasis, code span or link; lines appended to an open fence; else
 * the last list item or table row parsed again alone (with the rows after it), else a fresh parse.
 * While an answer streams, most deltas are such words, lines or rows; parsing the open block
 * again for each costs a fixed ~0.3 ms (the parser's set-up) plus its size, which is most of what
 * a delta costs, and for a long table or list, the size is the whole answer. The tree returned is
 * the one `parseMarkdown(source)` would build (positions aside from where a parent ends: the end
 * of its text, or after the spaces that follow, which nothing here reads). The nodes `previous`
 * and it share are the same objects, so what was worked out for them (their depth, their render)
 * holds for both.
 */
export function parseExtending(previous: Parsed | undefined, source: string): MdastRoot {
  if (previous?.source === source) return previous.tree;
  if (previous) {
    const code = appendCode(previous, source);
    if (code) return code;
  }
  if (previous && source.length > previous.source.length && startsWith(source, previous.source)) {
    const added = source.slice(previous.source.length);
    const tree = appendBlank(previous, source, added) ?? appendWords(previous, added);
    if (tree) return tree;
  }
  const inside = previous && appendInside(previous, source);
  if (inside) return inside;
  return (
    (previous &&
      (reparseLastItem(previous, source) ??
        reparseLastRows(previous, source) ??
        reparseAfterClosed(previous, source))) ??
    plainParagraph(source) ??
    parseMarkdown(source)
  );
}

/**
 * `previous.tree` with its last list item (and any after it) parsed again from `source`, or
 * `undefined` when `source` may change more than that. A streamed list grows at its last item,
 * and parsing only that item costs its size instead of the list's. Why it is the same tree:
 *
 * - Lines after an item's first line are read against that item and what it holds; earlier items
 *   only decide that the first line is an item of this list, which the previous tree already
 *   established (and the item parsed alone must still be one list starting there: a line that
 *   became a thematic break or a paragraph of its own is parsed again with the rest).
 * - Link reference and footnote definitions act at a distance, so markdown before the item with
 *   `]:` in it is parsed again whole.
 * - A list is loose when a blank line separates two of its items: the earlier ones did or did not
 *   before, and the part parsed alone says whether the later ones do.
 */
function reparseLastItem(previous: Parsed, source: string): MdastRoot | undefined {
  const list = previous.tree.children.at(-1);
  if (list?.type !== 'list' || list.children.length < 2) return undefined;
  const start = list.children.at(-1)!.position?.start;
  if (start?.offset === undefined || start.column !== 1) return undefined;
  const head = previous.source.slice(0, start.offset);
  if (head.includes(']:') || !startsWith(source, head)) return undefined;
  const alone = parseMarkdown(source.slice(start.offset));
  const items = alone.children[0];
  if (alone.children.length !== 1 || items?.type !== 'list' || items.ordered !== list.ordered) return undefined;
  if (items.children[0]?.position?.start.offset !== 0) return undefined;
  shift(items, start.line - 1, start.offset);
  const end = items.position!.end;
  const children = previous.tree.children.slice(0, -1);
  children.push({
    ...list,
    spread: Boolean(list.spread || items.spread),
    children: [...list.children.slice(0, -1), ...items.children],
    position: { start: list.position!.start, end },
  });
  return { ...previous.tree, children, position: { start: previous.tree.position!.start, end } };
}

/**
 * `previous.tree` with the rows of the table it ends in parsed again from its last row on (from
 * the line after it when that row's line is complete in `previous.source`), after the table's
 * head alone, or `undefined` when `source` may change more than that. A streamed table grows at
 * its last row, and parsing only that row (with the head and delimiter row, two lines) costs a
 * row instead of the table; the rows before it stay the same objects. Why it is the same tree:
 *
 * - A line after a table's delimiter row is a row of it when the line before was (a head or a
 *   row), unless the line is blank or starts another block; nothing else of the rows before is
 *   read. The cells of a row are split and parsed on their own, and a complete line is a row
 *   whatever follows it.
 * - The head decides the columns and their alignment; it is parsed again with the rows.
 * - Only blank text after the rows ends the table and adds nothing (the table as a settled block).
 * - Link reference and footnote definitions act at a distance, so markdown before the rows with
 *   `]:` in it is parsed again whole.
 */
function reparseLastRows(previous: Parsed, source: string): MdastRoot | undefined {
  const table = previous.tree.children.at(-1);
  if (table?.type !== 'table' || table.children.length < 2) return undefined;
  const tableStart = table.position?.start.offset;
  const bodyStart = table.children[1]!.position?.start.offset;
  const last = table.children.at(-1)!.position;
  if (tableStart === undefined || bodyStart === undefined || last?.start.offset === undefined) return undefined;
  const lineEnd = previous.source.indexOf('\n', last.end.offset);
  const complete = lineEnd !== -1;
  const from = complete ? lineEnd + 1 : lineStart(previous.source, last.start.offset);
  const fromLine = complete ? last.end.line + 1 : last.start.line;
  const before = previous.source.slice(0, from);
  if (before.includes(']:') || !startsWith(source, before)) return undefined;
  const head = previous.source.slice(lineStart(previous.source, tableStart), lineStart(previous.source, bodyStart));
  let headLines = 0;
  for (let index = head.indexOf('\n'); index !== -1; index = head.indexOf('\n', index + 1)) headLines++;
  const rest = source.slice(from);
  const alone = parseMarkdown(head + rest);
  const rows = alone.children[0];
  if (alone.children.length !== 1 || rows?.type !== 'table') return undefined;
  const kept = complete ? table.children : table.children.slice(0, -1);
  if (rows.children.length === 1) {
    if (!complete || rest.trim() !== '') return undefined;
    let lines = 0;
    for (let index = rest.indexOf('\n'); index !== -1; index = rest.indexOf('\n', index + 1)) lines++;
    const end = { line: fromLine + lines, column: source.length - source.lastIndexOf('\n'), offset: source.length };
    return { ...previous.tree, position: { start: previous.tree.position!.start, end } };
  }
  if (rows.children[1]!.position?.start.line !== headLines + 1) return undefined;
  const added = rows.children.slice(1);
  for (const row of added) shift(row, fromLine - 1 - headLines, from - head.length);
  const end = added.at(-1)!.position!.end;
  const children = previous.tree.children.slice(0, -1);
  children.push({ ...table, children: [...kept, ...added], position: { start: table.position!.start, end } });
  return { ...previous.tree, children, position: { start: previous.tree.position!.start, end } };
}

/** Offset of the start of the line `offset` is on. */
export function lineStart(source: string, offset: number): number {
  return source.lastIndexOf('\n', offset - 1) + 1;
}

/** Moves the positions of `node` and everything in it down `lines` lines and on `offset` characters. */
function shift(node: MdastNodes, lines: number, offset: number): void {
  const stack: MdastNodes[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const position = current.position;
    if (position) {
      current.position = {
        start: {
          line: position.start.line + lines,
          column: position.start.column,
          offset: (position.start.offset ?? 0) + offset,
        },
        end: {
          line: position.end.line + lines,
          column: position.end.column,
          offset: (position.end.offset ?? 0) + offset,
        },
      };
    }
    if ('children' in current) stack.push(...current.children);
  }
}

/** An opening fence at the start of a line, not indented. */
const OPENING_FENCE = /^(?:`{3,}|~{3,})/;
/** An opening fence at the start of a line, up to three spaces in. */
const INDENTED_FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
/** A line that closes a fence made of its character, if at least as long. */
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
/** What the parser does not keep verbatim in code: carriage returns (line endings) and NUL. */
const NOT_VERBATIM = /[\r\0]/;

/**
 * `previous.tree` with the open fenced code it ends in grown to the end of `source` (or to the
 * line that closes it, with what follows parsed on its own), or `undefined`. In a fence, nothing
 * is syntax but a closing fence, a line of its own: when the fence is not indented (so nothing is
 * stripped from its lines) and is not in a container (it starts in the first column), the code is
 * every line after the opening one up to the closing one, verbatim, but for the last line ending
 * (which belongs to the closing fence). The lines before `previous.source`'s last one are not read
 * again.
 */
function appendCode(previous: Parsed, source: string): MdastRoot | undefined {
  const { tree } = previous;
  const code = tree.children.at(-1);
  const start = code?.position?.start;
  const end = code?.position?.end;
  if (code?.type !== 'code' || start?.column !== 1 || start.offset === undefined) return undefined;
  if (end?.offset !== previous.source.length || source.length < previous.source.length) return undefined;
  const fence = OPENING_FENCE.exec(previous.source.slice(start.offset, start.offset + 64))?.[0];
  const contentStart = previous.source.indexOf('\n', start.offset) + 1;
  // The last line of `previous.source` may have grown or been healed otherwise: read it again.
  const from = previous.source.lastIndexOf('\n') + 1;
  if (fence === undefined || contentStart === 0 || from < contentStart) return undefined;
  if (!startsWith(source, from === previous.source.length ? previous.source : previous.source.slice(0, from)))
    return undefined;
  let line = end.line;
  let lineStart = from;
  for (;;) {
    const lineEnd = source.indexOf('\n', lineStart);
    const text = source.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
    if (NOT_VERBATIM.test(text)) return undefined;
    const closing = CLOSING_FENCE.exec(text)?.[1];
    if (closing && closing[0] === fence[0] && closing.length >= fence.length) {
      // Closed here: the code ends with this line, and what follows starts afresh.
      const value = lineStart > contentStart ? source.slice(contentStart, lineStart - 1) : '';
      const closed = {
        ...code,
        value,
        position: { start, end: { line, column: text.length + 1, offset: lineStart + text.length } },
      };
      return withRestParsed(tree, tree.children.length - 1, closed, source, lineEnd, line);
    }
    if (lineEnd === -1) break;
    line++;
    lineStart = lineEnd + 1;
  }
  const lastLine = source.lastIndexOf('\n') + 1;
  const position = {
    start,
    end: { line, column: source.length - lastLine + 1, offset: source.length },
  };
  const value = source.slice(contentStart, lastLine === source.length ? -1 : undefined);
  const children = tree.children.slice(0, -1);
  children.push({ ...code, value, position });
  return {
    ...tree,
    children,
    ...(tree.position ? { position: { start: tree.position.start, end: position.end } } : {}),
  };
}

/**
 * `previous.tree` up to its last top-level node that nothing after it can change (a closed fence,
 * a heading, a thematic break: nothing continues them; a paragraph or table a blank line ended),
 * with `source` after that node's line parsed on its own, or `undefined` when `source` may change
 * more than that (it changed the part before, or holds link reference or footnote definitions,
 * which act at a distance). What follows a code block that just closed is then parsed, not the
 * code block again, and what follows a long table, not the table.
 */
function reparseAfterClosed(previous: Parsed, source: string): MdastRoot | undefined {
  const { tree } = previous;
  for (let index = tree.children.length - 1; index >= 0; index--) {
    const node = tree.children[index]!;
    const end = node.position?.end;
    if (end?.offset === undefined) return undefined;
    const lineEnd = previous.source.indexOf('\n', end.offset);
    if (lineEnd === -1) continue;
    // The line that ends the node: its own for these; for a paragraph or table, the blank line
    // after it (without one, the next line may still be more of its text or another row).
    let kept = lineEnd + 1;
    if (node.type === 'paragraph' || node.type === 'table') {
      const blankEnd = previous.source.indexOf('\n', kept);
      if (blankEnd === -1 || !SPACE_ONLY.test(previous.source.slice(kept, blankEnd))) continue;
      kept = blankEnd + 1;
    } else if (node.type !== 'heading' && node.type !== 'thematicBreak' && node.type !== 'code') {
      continue;
    }
    // Only a fenced code block is closed by a line; indented code goes on with indented lines.
    const start = lineStart(previous.source, node.position!.start.offset!);
    if (node.type === 'code' && !INDENTED_FENCE.test(previous.source.slice(start, start + 64))) continue;
    if (!startsWith(source, previous.source.slice(0, kept))) return undefined;
    return withRestParsed(tree, index, node, source, lineEnd, end.line);
  }
  return undefined;
}

/**
 * `tree`'s first `count` top-level nodes, then `node`, then what `source` holds after the line
 * end at `lineEnd` (on line `line`), parsed on its own: what follows a node that nothing can
 * continue starts a block of its own at the document's top level.
 */
function withRestParsed(
  tree: MdastRoot,
  count: number,
  node: MdastRoot['children'][number],
  source: string,
  lineEnd: number,
  line: number,
): MdastRoot | undefined {
  const children = tree.children.slice(0, count);
  children.push(node);
  let end = node.position!.end;
  if (lineEnd !== -1) {
    const rest = source.slice(lineEnd + 1);
    if (source.includes(']:')) return undefined;
    const alone = parseMarkdown(rest);
    for (const child of alone.children) shift(child, line, lineEnd + 1);
    children.push(...alone.children);
    end = {
      line: line + alone.position!.end.line,
      column: alone.position!.end.column,
      offset: lineEnd + 1 + alone.position!.end.offset!,
    };
  }
  return { ...tree, children, ...(tree.position ? { position: { start: tree.position.start, end } } : {}) };
}

/** Spaces and line ends, at least one line end. */
const BLANK_LINES = /^[ \t]*\n[ \t\n]*$/;
/** Blocks that blank lines after them end, and that nothing in them reads those lines into. */
const ENDED_BY_BLANK = new Set(['paragraph', 'heading', 'thematicBreak', 'table']);

/**
 * `previous.tree` as it is when `added` is blank lines after a paragraph, heading, break or
 * table: they end it and add nothing (a paragraph drops the spaces at its end, a table ends at a
 * blank line). A block settles with the blank lines after it, so the settled block then shares
 * the open block's nodes, and nothing of it renders again. Not after a list or a quote, which a
 * fence in them may run on into, nor after code, whose last line end they would become.
 */
function appendBlank(previous: Parsed, source: string, added: string): MdastRoot | undefined {
  const { tree } = previous;
  const last = tree.children.at(-1);
  const lastEnd = last?.position?.end;
  if (!BLANK_LINES.test(added) || !last || !ENDED_BY_BLANK.has(last.type) || lastEnd?.offset === undefined)
    return undefined;
  // A block ends after the spaces that follow it on its line: a break (a leaf, whose end is read)
  // would end elsewhere, so it is parsed again. A parent keeps its node; its end is not read.
  if (last.type === 'thematicBreak' && STARTS_WITH_SPACE.test(added)) return undefined;
  const after = source.slice(lastEnd.offset);
  let lines = 0;
  for (let index = after.indexOf('\n'); index !== -1; index = after.indexOf('\n', index + 1)) lines++;
  const end = { line: lastEnd.line + lines, column: source.length - source.lastIndexOf('\n'), offset: source.length };
  return { ...tree, position: { start: tree.position?.start ?? { line: 1, column: 1, offset: 0 }, end } };
}

/** A line of words starting with a letter, which no text after it on the line can make more than a paragraph yet. */
const PLAIN_LINE = /^[A-Za-z][A-Za-z0-9 .,]*$/;
const WWW = /www\./i;

/**
 * The tree of `source` when it is one line of words that starts with a letter and has no `www.`
 * (an autolink literal): a paragraph of one text, without the parser (whose set-up alone costs
 * more than the rest of such a delta). A new paragraph's first delta is often just that.
 */
function plainParagraph(source: string): MdastRoot | undefined {
  if (!PLAIN_LINE.test(source) || WWW.test(source)) return undefined;
  const value = source.replace(TRAILING_SPACE, '');
  const point = (offset: number): Point => ({ line: 1, column: offset + 1, offset });
  const position = { start: point(0), end: point(source.length) };
  return {
    type: 'root',
    children: [
      {
        type: 'paragraph',
        children: [{ type: 'text', value, position: { start: point(0), end: point(value.length) } }],
        position,
      },
    ],
    position,
  };
}

/** Letters, digits, spaces, `.` and `,`: characters that start, end or continue almost no syntax. */
const WORDS = /^[A-Za-z0-9 .,]+$/;
/** The end the words are appended to: never a delimiter run or half of some other syntax. */
const PLAIN_END = /[A-Za-z0-9 \t.,]$/;
/** What makes an autolink literal of a word with a `.` (`www` + `.example`, `someone@example` + `.com`, `a@.` + `b`). */
const LINK_PART = /www|@|:/i;
const TRAILING_SPACE = /[ \t]+$/;
const SPACE_ONLY = /^[ \t]*$/;
const SPACE = /[ \t]/;
const DIGITS = /^\d+$/;

/** `previous.tree` with `added` appended to its last text: see {@link extendText}. */
function appendWords(previous: Parsed, added: string): MdastRoot | undefined {
  return extendText(previous.tree, previous.source, added, '');
}

/** The closers healing adds at the end of open emphasis and strikethrough. */
const CLOSERS = /[*_~]+$/;
const ALPHANUMERIC_END = /[A-Za-z0-9]$/;

/**
 * `previous.tree` with words appended inside the open emphasis (or strong, or strikethrough) its
 * source ends in, or `undefined`. While such a run streams, healing closes it, so each source is
 * the last one with the words inserted before the same closers: `**b**`, `**b c**`. Between a
 * letter or digit and the closers, the closers read the same whatever the letters are (flanking
 * depends only on the character class on either side), so the tree only grows by the words.
 */
function appendInside(previous: Parsed, source: string): MdastRoot | undefined {
  const closers = CLOSERS.exec(previous.source)?.[0];
  if (closers === undefined || source.length <= previous.source.length || !source.endsWith(closers)) return undefined;
  const head = previous.source.slice(0, -closers.length);
  const inner = source.slice(0, -closers.length);
  if (!startsWith(inner, head)) return undefined;
  const added = inner.slice(head.length);
  if (!ALPHANUMERIC_END.test(head) || !ALPHANUMERIC_END.test(added)) return undefined;
  return extendText(previous.tree, head, added, closers);
}

/** Inline nodes after which a space reads as the end of the text did. */
const CLOSED_INLINE = new Set(['strong', 'emphasis', 'delete', 'inlineCode', 'link']);
const STARTS_WITH_SPACE = /^[ \t]/;

/**
 * `tree` (of `source`, then `closers`) with `added` appended to its last text (inside the emphasis
 * the closers close, if any), or `undefined` when `added` might change more than that text. Why
 * each condition is enough:
 *
 * - A construct only changes with what follows it through the characters right after it. After
 *   a letter, digit, space, `.` or `,`, these characters start nothing: every block marker,
 *   emphasis or link needs other punctuation, and they end no run of `*` or `_` (the text never
 *   ends in one). A URL or address already at the end is hidden by healing, so it is not in the
 *   tree; an autolink literal needs a `.` and `www`, `@` or `:` in the word the text ends in.
 * - After a closed emphasis, code span or link, a space reads as the end of the text did (both
 *   count as whitespace for the delimiters before it), so words after a space are a text of
 *   their own.
 * - A line's block role is fixed once its content has a space after its first word (`1.` then
 *   ` x` makes a list item of a paragraph line); before that, appended spaces parse again, and
 *   a line of markers alone (`1. `, which cannot interrupt a paragraph while empty), a line
 *   starting with `[` (`- [x] ` is a task item once text follows) and one starting with `<`
 *   (`<di` then `v` starts an HTML block, even inside a paragraph) always do, as does a `.`
 *   after a line of digits (`1.` alone is an empty list item). Healing hides a tag still
 *   arriving, but the splitter parses the text as it is.
 * - Link reference definitions (`[a b]:` then ` url`) turn a paragraph into no paragraph at all,
 *   so markdown with `]:` in it is parsed again.
 * - The text must run to the end of the markdown but for spaces (which the paragraph drops at
 *   its end and keeps inside it); a heading's closing `#`s or any syntax after it fail this.
 */
function extendText(tree: MdastRoot, source: string, added: string, closers: string): MdastRoot | undefined {
  if (!WORDS.test(added) || source.includes(']:')) return undefined;
  const word = source.slice(lastWordStart(source)) + added;
  if (word.includes('.') && LINK_PART.test(word)) return undefined;
  const line = source.slice(source.lastIndexOf('\n') + 1);
  const content = line.slice(CONTAINER_PREFIX.exec(line)?.[0].length ?? 0);
  if (content === '' || content[0] === '[' || content[0] === '<' || (added.includes(' ') && !SPACE.test(content)))
    return undefined;
  if (added.includes('.') && DIGITS.test(content)) return undefined;

  // The chain of last children down to the paragraph or heading the text ends in, and inside
  // it down to the emphasis the closers close.
  const path: MdastParents[] = [tree];
  for (;;) {
    const last: MdastNodes | undefined = path.at(-1)!.children.at(-1);
    if (last === undefined) return undefined;
    if (last.type === 'list' || last.type === 'listItem' || last.type === 'blockquote') {
      path.push(last);
      continue;
    }
    if (last.type !== 'paragraph' && last.type !== 'heading') return undefined;
    path.push(last);
    break;
  }
  if (closers !== '') {
    for (
      let last = path.at(-1)!.children.at(-1);
      last && (last.type === 'strong' || last.type === 'emphasis' || last.type === 'delete');
      last = last.children.at(-1)
    ) {
      path.push(last);
    }
    const outer = path.find((node) => node.type === 'strong' || node.type === 'emphasis' || node.type === 'delete');
    if (outer?.position?.end.offset !== source.length + closers.length) return undefined;
  }
  const last = path.at(-1)!.children.at(-1);
  const end = last?.position?.end;
  if (last === undefined || end?.offset === undefined) return undefined;
  const gap = source.slice(end.offset);
  if (!SPACE_ONLY.test(gap) || (closers !== '' && (end.offset !== source.length || last.type !== 'text')))
    return undefined;

  // Spaces at the end of a paragraph are not its text; they are once words follow them.
  const grown = (gap + added).replace(TRAILING_SPACE, '');
  let text: MdastText;
  if (last.type === 'text') {
    if (!PLAIN_END.test(source)) return undefined;
    if (grown === '') return tree;
    text = {
      ...last,
      value: last.value + grown,
      position: { start: last.position!.start, end: moved(end, grown.length) },
    };
  } else {
    if (!CLOSED_INLINE.has(last.type) || !STARTS_WITH_SPACE.test(gap + added)) return undefined;
    if (grown === '') return tree;
    text = { type: 'text', value: grown, position: { start: end, end: moved(end, grown.length) } };
  }
  // Copied along the path, never changed in place: the previous tree may still be rendered. The
  // nodes the closers close end the words further on; the others end where the words do.
  let child: MdastNodes = text;
  let replace = last.type === 'text';
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const parent = path[depth]!;
    const children = parent.children.slice(0, replace ? -1 : undefined);
    children.push(child as never);
    replace = true;
    const position = parent.position && {
      start: parent.position.start,
      end:
        closers !== '' && parent.position.end.offset !== undefined
          ? moved(parent.position.end, grown.length)
          : text.position!.end,
    };
    child = { ...parent, children, ...(position ? { position } : {}) } as MdastNodes;
  }
  return child as MdastRoot;
}

const WHITESPACE = /\s/;

/**
 * Where the run of non-space characters `source` ends in starts. A search for `/\S*$/` tries
 * every offset of the text: on a 20 KB answer it cost more than the rest of a delta.
 */
function lastWordStart(source: string): number {
  let start = source.length;
  while (start > 0 && !WHITESPACE.test(source[start - 1]!)) start--;
  return start;
}

function moved(point: Point, columns: number): Point {
  return { line: point.line, column: point.column + columns, offset: (point.offset ?? 0) + columns };
}
/**
 * Whether `text` starts with `prefix`. `String.prototype.startsWith` compares a character at a
 * time (about 80 µs for 20 kB in V8); comparing a slice for equality is a block compare, some 30
 * times faster. It runs on every delta over the whole answer, so it sets the cost of late deltas.
 */
export function startsWith(text: string, prefix: string): boolean {
  return text.length >= prefix.length && text.slice(0, prefix.length) === prefix;
}
