import type { Definition, Nodes as MdastNodes } from 'mdast';
import { lineStart, parseExtending, startsWith, type Parsed } from './append';
import { scanLimits, type LimitBreach, type LimitScan, type MarkdownLimits, type PlainReason } from './limits';
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
  /**
   * What the last look at the whole tail found, when nothing in it settled and it is within the
   * limits: where the next split, of a longer text, goes on from.
   */
  tail?: TailState;
}

/**
 * The tail as last looked at, with what was found: the limit scan up to its last line, and what
 * settling it found. A tail that only grows (a long table, list or code block, which settles
 * nothing until it ends) is then looked at from its last line on, not from its start.
 */
export interface TailState {
  /** The tail looked at (the text from the cut, then). */
  source: string;
  /** The limits scan of `source` up to its last line; its `fence` is the fence left open there. */
  scan: LimitScan;
  /** What settling `source` found. */
  settle: SettleState;
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
  let base: readonly SettledBlock[] = NO_BLOCKS;
  let cut = 0;
  const extended = previous !== undefined && startsWith(text, previous.text);
  if (previous && (extended || startsWith(text, previous.text.slice(0, previous.cut)))) {
    base = previous.blocks;
    cut = previous.cut;
  }
  // Copied when a block settles: while none does, the list stays the same object, and so does
  // everything worked out from it.
  let blocks: SettledBlock[] | undefined;
  let window = FIRST_WINDOW;
  let openPlain = previous && cut === previous.cut ? previous.openPlain : undefined;
  let tailPlain: PlainReason | undefined;
  let tail: TailState | undefined;
  const settleAll = (settled: readonly Omit<SettledBlock, 'plain'>[]) => {
    blocks ??= base.slice();
    for (const block of settled) blocks.push({ ...block, start: cut + block.start });
    cut += settled.reduce((sum, block) => sum + block.source.length, 0);
    window = FIRST_WINDOW;
  };

  if (previous && extended && text.length - cut <= limits.maxBlockLength) {
    // Nothing can settle until a line completes or starts (or the tail outgrows a block).
    const added = text.slice(previous.text.length);
    const lineSoFar = previous.text.slice(previous.text.lastIndexOf('\n') + 1);
    if (!added.includes('\n') && lineSoFar.trim() !== '') return { ...previous, text };
    // The tail grew: look at it from its last line on.
    if (previous.tail) {
      const source = text.slice(cut);
      const { breach, scan } = scanLimits(source, limits, previous.tail.scan);
      if (!breach) {
        const settled = settle(source, previous.tail.settle);
        if (settled.blocks.length === 0) {
          return { text, blocks: base, cut, tail: { source, scan: scan!, settle: settled.state } };
        }
        settleAll(settled.blocks);
      }
    }
  }

  const push = (source: string, plain?: PlainReason) => {
    const tree = plain ? undefined : parseMarkdown(source);
    (blocks ??= base.slice()).push({
      start: cut,
      source,
      definitions: tree ? definitionsOf(tree) : '',
      footnotes: tree ? footnoteLabelsOf(tree) : NO_LABELS,
      ...(plain ? { plain } : {}),
    });
    cut += source.length;
    window = FIRST_WINDOW;
  };
  // The limits scan of the span from the cut: the same for every window tried there.
  let scanned: { cut: number; breach: LimitBreach | undefined; scan?: LimitScan } | undefined;
  while (cut < text.length) {
    const rest = text.length - cut;
    const span = text.slice(cut, cut + Math.min(rest, limits.maxBlockLength));

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
      } else if (rest > limits.maxBlockLength) {
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

    const size = Math.min(window, rest, limits.maxBlockLength);
    const source = span.slice(0, size);
    if (scanned?.cut !== cut) scanned = { cut, ...scanLimits(span, limits) };
    const { breach, scan } = scanned;
    if (breach) {
      // Never handed to the parser: what comes before the offending run is a block of its own,
      // the run plain text up to its end (in pieces of at most a block).
      if (breach.start > 0) {
        push(span.slice(0, breach.start));
      } else if (breach.end < span.length) {
        push(span.slice(0, breach.end), breach.reason);
      } else if (rest > limits.maxBlockLength) {
        push(span.slice(0, plainEnd(span, true)), breach.reason);
        openPlain = breach.reason;
      } else {
        tailPlain = breach.reason;
        break;
      }
      continue;
    }
    const settled = settle(source);
    if (settled.blocks.length > 0) {
      settleAll(settled.blocks);
      continue;
    }
    if (size < rest && size < limits.maxBlockLength) {
      window *= 2;
      continue;
    }
    if (rest > limits.maxBlockLength) {
      // One node longer than a block may be: shown as plain text, in pieces.
      push(source.slice(0, plainEnd(source, true)), 'length');
      openPlain = 'length';
      continue;
    }
    // All of the tail looked at, and nothing settled: the next split goes on from here.
    if (scan) tail = { source, scan, settle: settled.state };
    break;
  }
  if (cut === text.length && !openPlain) {
    // An empty tail: the next text starts a tail of its own from nothing.
    tail = { source: '', scan: EMPTY_SCAN, settle: EMPTY_SETTLE };
  }
  return {
    text,
    blocks: blocks ?? base,
    cut,
    ...(openPlain ? { openPlain } : {}),
    ...(tailPlain ? { tailPlain } : {}),
    ...(tail ? { tail } : {}),
  };
}

const NO_BLOCKS: readonly SettledBlock[] = [];

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

/**
 * What settling a tail found when nothing in it settled, for the next look at the same tail grown
 * longer: whether it holds a blank line or a line that may close a node, whether it is a fence
 * nothing closes yet, and its tree (when it was parsed), which a longer tail extends.
 */
export interface SettleState {
  /** The tail looked at. */
  source: string;
  /** `BLANK_LINE` matches in `source`. */
  blank: boolean;
  /** `MAY_CLOSE_AT_LINE_END` matches in `source`. */
  mayClose: boolean;
  /** `source` starts with a fence (this one) that no line of it closes yet; '' when not. */
  openFence: string;
  /** `source` parsed, when it was. */
  parsed?: Parsed;
}

const EMPTY_SCAN: LimitScan = { line: 0, markers: 0, runStart: 0, fence: '', breach: undefined };
const EMPTY_SETTLE: SettleState = { source: '', blank: false, mayClose: false, openFence: '' };

/**
 * The settled top-level nodes of `source` (offsets relative to it). With `previous`, the state of
 * a shorter `source` that this one extends and that settled nothing, only what follows its last
 * line start is read again, and the parse extends its tree.
 */
function settle(source: string, previous?: SettleState): { blocks: Omit<SettledBlock, 'plain'>[]; state: SettleState } {
  // The patterns below start at a line end: read again from the one before `previous`'s last line.
  const from = previous ? Math.max(0, previous.source.lastIndexOf('\n')) : 0;
  const added = from === 0 ? source : source.slice(from);
  const state: SettleState = {
    source,
    blank: (previous?.blank ?? false) || BLANK_LINE.test(added),
    mayClose: (previous?.mayClose ?? false) || MAY_CLOSE_AT_LINE_END.test(added),
    openFence: '',
    ...(previous?.parsed ? { parsed: previous.parsed } : {}),
  };
  // A node settles only after a blank line or after a heading, break or code (see below): a
  // run of lines that can hold none of those settles nothing, so it is not parsed to find out.
  if (!state.blank && !state.mayClose) return { blocks: [], state };
  // A run of such lines (a paragraph, a list or table without indented lines) that a blank line
  // ends, and a line starting with a letter follows: all of it settles (the rule for a line
  // starting with a letter, below), which is what a parse would find. Not when it may hold an
  // HTML block (which a blank line does not always end) or a definition (which the block's
  // `definitions` would need its tree for).
  if (previous && !previous.blank && !previous.mayClose) {
    const blank = source.slice(from).search(BLANK_LINE);
    const run = source.slice(0, from + blank + 1);
    const fresh = FRESH_LINE.exec(source.slice(from + blank));
    if (
      blank !== -1 &&
      fresh &&
      !MAY_CLOSE_AT_LINE_END.test(source.slice(from, from + blank)) &&
      !HTML_START.test(run) &&
      !run.includes(']:')
    ) {
      const end = from + blank + fresh[0].length;
      return {
        blocks: [{ start: 0, source: source.slice(0, end), definitions: '', footnotes: NO_LABELS }],
        state,
      };
    }
  }
  // Nor does a fence that nothing closes yet: it runs to the end, whatever the lines hold.
  state.openFence =
    previous?.openFence && previous.source.includes('\n')
      ? fenceRunsOn(previous.openFence, added)
      : openFenceRunsToEnd(source);
  if (state.openFence) {
    // An unindented fence's tree is kept up to date while it streams (new lines extend it
    // without a parse), so that the line closing it costs what follows it, not a parse of the
    // whole block. The first time, the tree of its opening line is extended to the rest.
    if (previous && (source[0] === '`' || source[0] === '~')) {
      const opening = source.slice(0, source.indexOf('\n') + 1);
      const base = previous.parsed ?? (opening === '' ? undefined : { source: opening, tree: parseMarkdown(opening) });
      state.parsed = { source, tree: parseExtending(base, source) };
    }
    return { blocks: [], state };
  }
  const parsed = { source, tree: parseExtending(previous?.parsed, source) };
  const children = parsed.tree.children;
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
    const previousNode = children[index - 1]!;
    // Without a blank line between them, a node that interrupts a paragraph (or the paragraph
    // content of a definition) parses differently than it would alone (`- - ` is a nested list
    // alone, a list of `-` under a paragraph), so the two settle together. Headings, breaks and
    // code leave nothing open to interrupt.
    if (
      !CLOSED_AT_LINE_END.has(previousNode.type) &&
      !BLANK_LINE.test(source.slice(previousNode.position?.end.offset ?? 0, end))
    ) {
      continue;
    }
    // What follows indented code parses differently than it does alone, even after a blank line
    // (`    a` then `- ` is a paragraph `-` whole, an empty list alone): the two settle together.
    if (
      previousNode.type === 'code' &&
      !FENCE_START.test(source.slice(lineStart(source, previousNode.position?.start.offset ?? 0)))
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
  return { blocks: result, state: { ...state, parsed } };
}

const LETTER = /\p{L}/u;
/** Blank lines, then a line that starts with a letter in the first column (the match ends before it). */
const FRESH_LINE = /^\n(?:[ \t]*\n)+(?=\p{L})/u;
/** A line that starts with `<`: an HTML block, maybe. */
const HTML_START = /(?:^|\n)</;
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
 * The fence `source` starts with when no line after it closes it or might close it once
 * complete, else ''. Every line of a streamed code block would otherwise parse the block again to
 * find that out.
 */
function openFenceRunsToEnd(source: string): string {
  const fence = /^ {0,3}(`{3,}|~{3,})([^\n]*)/.exec(source);
  if (!fence || (fence[1]![0] === '`' && fence[2]!.includes('`'))) return '';
  return fenceRunsOn(fence[1]!, source);
}

/** `fence` when no line of `lines` after its first line end closes it (or might, once complete), else ''. */
function fenceRunsOn(fence: string, lines: string): string {
  const closing = new RegExp(`\\n {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*(?:\\n|$)`);
  return closing.test(lines) ? '' : fence;
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
