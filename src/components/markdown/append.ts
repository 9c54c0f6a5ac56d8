import type { Nodes as MdastNodes, Parents as MdastParents, Root as MdastRoot, Text as MdastText } from 'mdast';
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
 * The tree of `source`: `previous.tree` extended when `source` only appends plain words to the
 * paragraph (or heading) `previous.source` ends in, else a fresh parse. While an answer streams,
 * most deltas are such words; parsing the open block again for each costs a fixed ~0.3 ms (the
 * parser's set-up), which is most of what a delta costs. The tree returned is exactly the one
 * `parseMarkdown(source)` would build (positions aside from the extended text's own).
 */
export function parseExtending(previous: Parsed | undefined, source: string): MdastRoot {
  if (previous?.source === source) return previous.tree;
  if (previous && source.length > previous.source.length && source.startsWith(previous.source)) {
    const added = source.slice(previous.source.length);
    const tree = appendCode(previous, added) ?? appendWords(previous, added);
    if (tree) return tree;
  }
  return parseMarkdown(source);
}

/** Characters that end no line and no fence: code text, verbatim. */
const CODE_TEXT = /^[^\n\r`~\0]+$/;
/** An opening fence at the start of a line (up to three spaces in). */
const OPENING_FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
/** A line that could close a fence, or is still blank: what follows it may change its role. */
const FENCE_OR_BLANK = /^[`~ \t]*$/;

/**
 * `previous.tree` with `added` appended to the open fenced code it ends in, or `undefined`. In
 * a fence nothing is syntax but a closing fence, which is a line of its own: text added to a
 * line that already has other characters than fence ones is the code's, verbatim.
 */
function appendCode(previous: Parsed, added: string): MdastRoot | undefined {
  const { source, tree } = previous;
  const code = tree.children.at(-1);
  if (code?.type !== 'code' || !CODE_TEXT.test(added)) return undefined;
  const start = code.position?.start.offset;
  const end = code.position?.end;
  const lineStart = source.lastIndexOf('\n') + 1;
  if (start === undefined || end?.offset !== source.length || lineStart <= start) return undefined;
  if (!OPENING_FENCE.test(source.slice(start, start + 40)) || FENCE_OR_BLANK.test(source.slice(lineStart))) return undefined;
  const position = { start: code.position!.start, end: { line: end.line, column: end.column + added.length, offset: end.offset + added.length } };
  const children = tree.children.slice(0, -1);
  children.push({ ...code, value: code.value + added, position });
  return { ...tree, children, ...(tree.position ? { position: { start: tree.position.start, end: position.end } } : {}) };
}

/** Letters, digits, spaces, `.` and `,`: characters that start, end or continue almost no syntax. */
const WORDS = /^[A-Za-z0-9 .,]+$/;
/** The end the words are appended to: never a delimiter run or half of some other syntax. */
const PLAIN_END = /[A-Za-z0-9 \t.,]$/;
/** What a `.` could make an autolink literal of (`www` + `.example`, `someone@example` + `.com`). */
const LINK_PART = /www|@|:/i;
const TRAILING_SPACE = /[ \t]+$/;
const SPACE_ONLY = /^[ \t]*$/;
const SPACE = /[ \t]/;
const DIGITS = /^\d+$/;

/**
 * `previous.tree` with `added` appended to its last text, or `undefined` when `added` might
 * change more than that text. Why each condition is enough:
 *
 * - A construct only changes with what follows it through the characters right after it. After
 *   a letter, digit, space, `.` or `,`, these characters start nothing: every block marker,
 *   emphasis or link needs other punctuation, and they end no run of `*` or `_` (the text never
 *   ends in one). A URL or address already at the end is hidden by healing, so it is not in the
 *   tree; an autolink literal that a `.` would complete needs `www`, `@` or `:` in the same word.
 * - A line's block role is fixed once its content has a space after its first word (`1.` then
 *   ` x` makes a list item of a paragraph line); before that, appended spaces parse again, and
 *   a line of markers alone (`1. `, which cannot interrupt a paragraph while empty) and a line
 *   starting with `[` (`- [x] ` is a task item once text follows) always do, as does a `.`
 *   after a line of digits (`1.` alone is an empty list item).
 * - Link reference definitions (`[a b]:` then ` url`) turn a paragraph into no paragraph at all,
 *   so markdown with `]:` in it is parsed again.
 * - The text must run to the end of the markdown but for spaces (which the paragraph drops at
 *   its end and keeps inside it); a heading's closing `#`s or any syntax after it fail this.
 */
function appendWords(previous: Parsed, added: string): MdastRoot | undefined {
  const { source, tree } = previous;
  if (!WORDS.test(added) || !PLAIN_END.test(source) || source.includes(']:')) return undefined;
  if (added.includes('.') && LINK_PART.test(source.slice(source.search(/\S*$/)) + added)) return undefined;
  const line = source.slice(source.lastIndexOf('\n') + 1);
  const content = line.slice(CONTAINER_PREFIX.exec(line)?.[0].length ?? 0);
  if (content === '' || content[0] === '[' || (added.includes(' ') && !SPACE.test(content))) return undefined;
  if (added.includes('.') && DIGITS.test(content)) return undefined;

  // The chain of last children down to the paragraph or heading the text ends in.
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
  const text = path.at(-1)!.children.at(-1);
  const end = text?.position?.end;
  if (text?.type !== 'text' || end?.offset === undefined) return undefined;
  const gap = source.slice(end.offset);
  if (!SPACE_ONLY.test(gap)) return undefined;

  // Spaces at the end of a paragraph are not its text; they are once words follow them.
  const grown = (gap + added).replace(TRAILING_SPACE, '');
  if (grown === '') return tree;
  const extended: MdastText = {
    ...text,
    value: text.value + grown,
    position: { start: text.position!.start, end: { line: end.line, column: end.column + grown.length, offset: end.offset + grown.length } },
  };
  // Copied along the path, never changed in place: the previous tree may still be rendered.
  let child: MdastNodes = extended;
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const parent = path[depth]!;
    const children = parent.children.slice(0, -1);
    children.push(child as never);
    const position = parent.position && { start: parent.position.start, end: extended.position!.end };
    child = { ...parent, children, ...(position ? { position } : {}) } as MdastNodes;
  }
  return child as MdastRoot;
}
