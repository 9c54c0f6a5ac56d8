import type { Definition, Nodes as MdastNodes } from 'mdast';
import { overLimit, type MarkdownLimits, type PlainReason } from './limits';
import { parseMarkdown } from './parse';

/**
 * A settled block: the source of one top-level markdown node (with the blank lines after it),
 * which no later text can change, so it is parsed and rendered once.
 */
export interface SettledBlock {
  /** Offset of the block in the text (stable, so a React key). */
  start: number;
  /** The block's markdown. */
  source: string;
  /** Link reference definitions inside it, as markdown lines (empty for most blocks). */
  definitions: string;
  /** Labels of the footnote definitions inside it (empty for most blocks). */
  footnotes: readonly string[];
  /** Set when the block is shown as plain text instead of parsed. */
  plain?: PlainReason;
}

/** Blocks settled so far, and where the open tail starts. */
export interface Split {
  /** The text this split is of. */
  text: string;
  blocks: readonly SettledBlock[];
  /** Offset where the tail (the part later text may still change) starts. */
  cut: number;
  /** Set when the last block is plain text cut off before its run of lines ended. */
  openPlain?: PlainReason;
  /** Set when the tail is (the rest of) a run over the limits: shown as plain text. */
  tailPlain?: PlainReason;
}

/** Size of the first window parsed when looking for settled blocks; doubled when too small. */
const FIRST_WINDOW = 2_048;

/**
 * Settles what it can of `text`, reusing `previous` when `text` extends it.
 *
 * A top-level node is settled once the first line of the node after it is complete: from then on
 * no later text can change it (CommonMark decides block structure line by line; only link
 * reference definitions act at a distance, and they are carried separately). Text is parsed in
 * windows from the cut, so a long answer given at once costs about the same per block as one
 * streamed in: the parser is not linear in the number of blocks it sees at once.
 */
export function splitBlocks(previous: Split | undefined, text: string, limits: MarkdownLimits): Split {
  let blocks: SettledBlock[];
  let cut: number;
  const extended = previous !== undefined && startsWith(text, previous.text);
  if (previous && (extended || startsWith(text, previous.text.slice(0, previous.cut)))) {
    if (extended) {
      // Nothing can settle until a line completes or starts (or the tail outgrows a block).
      const added = text.slice(previous.text.length);
      const lineSoFar = previous.text.slice(previous.text.lastIndexOf('\n') + 1);
      if (!added.includes('\n') && lineSoFar.trim() !== '' && text.length - previous.cut <= limits.maxBlockLength) {
        return { ...previous, text };
      }
    }
    blocks = previous.blocks.slice();
    cut = previous.cut;
  } else {
    blocks = [];
    cut = 0;
  }

  let window = FIRST_WINDOW;
  let openPlain = previous && cut === previous.cut ? previous.openPlain : undefined;
  let tailPlain: PlainReason | undefined;
  const push = (source: string, plain?: PlainReason) => {
    const tree = plain ? undefined : parseMarkdown(source);
    blocks.push({
      start: cut,
      source,
      definitions: tree ? definitionsOf(tree) : '',
      footnotes: tree ? footnoteLabelsOf(tree) : NO_LABELS,
      ...(plain ? { plain } : {}),
    });
    cut += source.length;
    window = FIRST_WINDOW;
  };
  while (cut < text.length) {
    const tail = text.length - cut;
    const span = text.slice(cut, cut + Math.min(tail, limits.maxBlockLength));

    if (openPlain) {
      // The rest of a run cut off as plain text stays plain up to its end (a blank line).
      if (/^[ \t]*\n/.test(span)) {
        openPlain = undefined;
        continue;
      }
      const end = runEnd(span);
      if (end !== -1) {
        push(span.slice(0, end), openPlain);
        openPlain = undefined;
      } else if (tail > limits.maxBlockLength) {
        push(span.slice(0, plainEnd(span, true)), openPlain);
      } else {
        tailPlain = openPlain;
        break;
      }
      continue;
    }

    const firstLineEnd = text.indexOf('\n', cut);
    if ((firstLineEnd === -1 ? text.length : firstLineEnd) - cut > limits.maxBlockLength) {
      // A line longer than a block may be: no window can settle it, so skip the parser.
      push(span.slice(0, plainEnd(span, true)), 'length');
      openPlain = 'length';
      continue;
    }

    const size = Math.min(window, tail, limits.maxBlockLength);
    const source = span.slice(0, size);
    const breach = overLimit(size < span.length ? span : source, limits);
    if (breach) {
      // Never handed to the parser: what comes before the offending run is a block of its own,
      // the run plain text up to its end (in pieces of at most a block).
      if (breach.start > 0) {
        push(span.slice(0, breach.start));
      } else if (breach.end < span.length) {
        push(span.slice(0, breach.end), breach.reason);
      } else if (tail > limits.maxBlockLength) {
        push(span.slice(0, plainEnd(span, true)), breach.reason);
        openPlain = breach.reason;
      } else {
        tailPlain = breach.reason;
        break;
      }
      continue;
    }
    const settled = settle(source);
    if (settled.length > 0) {
      for (const block of settled) blocks.push({ ...block, start: cut + block.start });
      cut += settled.reduce((sum, block) => sum + block.source.length, 0);
      window = FIRST_WINDOW;
      continue;
    }
    if (size < tail && size < limits.maxBlockLength) {
      window *= 2;
      continue;
    }
    if (tail > limits.maxBlockLength) {
      // One node longer than a block may be: shown as plain text, in pieces.
      push(source.slice(0, plainEnd(source, true)), 'length');
      openPlain = 'length';
      continue;
    }
    break;
  }
  return { text, blocks, cut, ...(openPlain ? { openPlain } : {}), ...(tailPlain ? { tailPlain } : {}) };
}

/**
 * Whether `text` starts with `prefix`. `String.prototype.startsWith` compares a character at a
 * time (about 80 µs for 20 kB in V8); comparing a slice for equality is a block compare, some 30
 * times faster. It runs on every delta over the whole answer, so it sets the cost of late deltas.
 */
export function startsWith(text: string, prefix: string): boolean {
  return text.length >= prefix.length && text.slice(0, prefix.length) === prefix;
}

/** Offset just past the last line of the first run of lines in `span`, or -1 if it does not end there. */
function runEnd(span: string): number {
  const blank = /\n[ \t]*\n/.exec(span);
  return blank ? blank.index + 1 : -1;
}

/**
 * Where a plain piece of `source` ends: after its last line end, or all of it when there is none
 * (or when the text ends there). Never between the halves of a surrogate pair.
 */
function plainEnd(source: string, more: boolean): number {
  if (!more) return source.length;
  const newline = source.lastIndexOf('\n');
  if (newline > 0) return newline + 1;
  const last = source.charCodeAt(source.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? source.length - 1 : source.length;
}

/** The settled top-level nodes of `source` (offsets relative to it). */
function settle(source: string): Omit<SettledBlock, 'plain'>[] {
  // A node settles only after a blank line or after a heading, break or code (see below): a
  // run of lines that can hold none of those settles nothing, so it is not parsed to find out.
  if (!BLANK_LINE.test(source) && !MAY_CLOSE_AT_LINE_END.test(source)) return [];
  // Nor does a fence that nothing closes yet: it runs to the end, whatever the lines hold.
  if (openFenceRunsToEnd(source)) return [];
  const children = parseMarkdown(source).children;
  // The last node whose first line is complete closes every node before it. So does one whose
  // line is still arriving when a blank line comes first and it starts with a letter in the
  // first column: nothing such a line grows into (unlike `2` becoming `2.`) continues a block.
  let closing = -1;
  for (let index = children.length - 1; index > 0; index--) {
    const offset = children[index]!.position?.start.offset ?? source.length;
    const fresh =
      LETTER.test(source[offset] ?? '') &&
      lineStart(source, offset) === offset &&
      BLANK_LINE.test(source.slice(children[index - 1]!.position?.end.offset ?? 0, offset));
    if (fresh || source.indexOf('\n', offset) !== -1) {
      closing = index;
      break;
    }
  }
  const result: Omit<SettledBlock, 'plain'>[] = [];
  let start = 0;
  let first = 0;
  for (let index = 1; index <= closing; index++) {
    const end = lineStart(source, children[index]!.position?.start.offset ?? 0);
    const previous = children[index - 1]!;
    // Without a blank line between them, a node that interrupts a paragraph (or the paragraph
    // content of a definition) parses differently than it would alone (`- - ` is a nested list
    // alone, a list of `-` under a paragraph), so the two settle together. Headings, breaks and
    // code leave nothing open to interrupt.
    if (
      !CLOSED_AT_LINE_END.has(previous.type) &&
      !BLANK_LINE.test(source.slice(previous.position?.end.offset ?? 0, end))
    ) {
      continue;
    }
    // What follows indented code parses differently than it does alone, even after a blank line
    // (`    a` then `- ` is a paragraph `-` whole, an empty list alone): the two settle together.
    if (
      previous.type === 'code' &&
      !FENCE_START.test(source.slice(lineStart(source, previous.position?.start.offset ?? 0)))
    ) {
      continue;
    }
    const nodes = children.slice(first, index);
    result.push({
      start,
      source: source.slice(start, end),
      definitions: nodes
        .map((node) => definitionsOf(node))
        .filter(Boolean)
        .join('\n'),
      footnotes: nodes.flatMap((node) => footnoteLabelsOf(node)),
    });
    start = end;
    first = index;
  }
  return result;
}

const LETTER = /\p{L}/u;
const CLOSED_AT_LINE_END = new Set(['heading', 'thematicBreak', 'code']);
/** A fenced code block's opening line (any other code node is indented code). */
const FENCE_START = /^ {0,3}(?:`{3,}|~{3,})/;
const BLANK_LINE = /\n[ \t]*\n/;
/**
 * Lines that may be (or underline) a heading, a break or code: `#` headings, lines of only `-`,
 * `=`, `*`, `_` and spaces (setext underlines, breaks, or their start), fences, indented code.
 * A list item (`- item`) or emphasis (`*word*`) line is none of these.
 */
const MAY_CLOSE_AT_LINE_END = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|[-=*_][-=*_ \t]*$|`{3}|~{3}|\t| )/m;

/**
 * Whether `source` starts with a fence that no line after it closes or might close once complete.
 * Every line of a streamed code block would otherwise parse the block again to find that out.
 */
function openFenceRunsToEnd(source: string): boolean {
  const fence = /^ {0,3}(`{3,}|~{3,})([^\n]*)/.exec(source);
  if (!fence || (fence[1]![0] === '`' && fence[2]!.includes('`'))) return false;
  const closing = new RegExp(`\\n {0,3}${fence[1]![0] === '`' ? '`' : '~'}{${fence[1]!.length},}[ \\t]*(?:\\n|$)`);
  return !closing.test(source);
}

function lineStart(source: string, offset: number): number {
  return source.lastIndexOf('\n', offset - 1) + 1;
}

const NO_LABELS: readonly string[] = [];

/** Labels of the footnote definitions anywhere in a node, as written. */
export function footnoteLabelsOf(node: MdastNodes): readonly string[] {
  let labels: string[] | undefined;
  const stack: MdastNodes[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === 'footnoteDefinition') (labels ??= []).push(current.label ?? current.identifier);
    if ('children' in current) for (const child of current.children) stack.push(child);
  }
  return labels ?? NO_LABELS;
}

/** Link reference definitions anywhere in a node (a quote or list item can hold them too). */
export function definitionsOf(node: MdastNodes, from = 0): string {
  const lines: string[] = [];
  const stack: MdastNodes[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.type === 'definition') {
      if ((current.position?.start.offset ?? 0) >= from) lines.push(writeDefinition(current));
    } else if ('children' in current) {
      for (let index = current.children.length - 1; index >= 0; index--) stack.push(current.children[index]!);
    }
  }
  return lines.join('\n');
}

/**
 * A definition as one line of markdown that parses back to the same label, URL and title: every
 * character that could mean something is written as a character reference.
 */
function writeDefinition(definition: Definition): string {
  const label = definition.label ?? definition.identifier;
  const title = definition.title == null ? '' : ` "${escape(definition.title)}"`;
  return `[${label.replace(/\s+/g, ' ')}]: <${escape(definition.url)}>${title}`;
}

function escape(value: string): string {
  return value.replace(/[^\p{L}\p{N}]/gu, (char) => `&#${char.codePointAt(0)};`);
}
