import { CONTAINER_PREFIX } from './limits';

/**
 * Rewrites the open end of a streaming answer so that syntax whose other half has not arrived
 * yet never shows as raw characters: open emphasis, strikethrough and inline code are closed, a
 * link or image whose destination is still arriving shows as its text (never a live link to a cut
 * URL), a bare URL still being typed waits for its end, a half-typed fence or setext underline
 * waits for its line, and a table header gets a delimiter row until the real one arrives.
 *
 * Only the last line is rewritten (plus a synthetic delimiter row): everything before it is
 * complete lines, whose syntax no longer depends on what comes next. Used only while streaming;
 * the final render is of the text as it is. `fence` is the fence the complete lines leave open
 * (`''` for none), when the caller knows it already (`LimitScan.fence`): without it they are
 * read to find out, which for a long code block is most of the work.
 */
export function healTail(tail: string, fence?: string): string {
  const lineStart = tail.lastIndexOf('\n') + 1;
  const head = tail.slice(0, lineStart);
  const line = tail.slice(lineStart);
  const open = fence ?? openFence(head);
  const prefix = CONTAINER_PREFIX.exec(line)?.[0] ?? '';
  const content = line.slice(prefix.length);

  if (open) {
    // Inside code: only a closing fence being typed would flash.
    return PARTIAL_FENCE.test(content) && content[0] === open[0] ? head : tail;
  }
  if (PARTIAL_FENCE.test(content) || SETEXT_OR_BREAK.test(line)) return head;

  const table = healTable(head, line);
  if (table !== undefined) return table;
  return head + prefix + healInline(content);
}

const FENCE = /^(`{3,}|~{3,})([^`]*)$/;
/** One or two fence characters alone: the start of a fence (or of its end) still arriving. */
const PARTIAL_FENCE = /^(?:`{1,2}|~{1,2})$/;
/** A line of `-` or `=` still arriving: it would turn the paragraph above into a heading. */
const SETEXT_OR_BREAK = /^ {0,3}(?:-+|=+)[ \t]*$/;
const DELIMITER_ROW = /^\s*\|?\s*:?-*:?\s*(?:\|\s*:?-*:?\s*)*\|?\s*$/;
const COMPLETE_DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/** The fence (`` ``` `` or `~~~`, with its length) left open at the end of complete lines. */
function openFence(head: string): string {
  let fence = '';
  for (const line of head.split('\n')) {
    const content = line.slice(CONTAINER_PREFIX.exec(line)?.[0].length ?? 0).trimEnd();
    const match = FENCE.exec(content);
    if (!match) continue;
    if (!fence) fence = match[1]!;
    else if (match[1]!.startsWith(fence) && match[2]!.trim() === '') fence = '';
  }
  return fence;
}

function isTableRow(line: string): boolean {
  return line.trimStart().startsWith('|');
}

function cellCount(row: string): number {
  const cells = row
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return cells.split(/(?<!\\)\|/).length;
}

/**
 * A table header with no delimiter row yet gets one, so the table shows from its first cell
 * instead of as a line of pipes; a delimiter row still arriving is completed. `undefined` when
 * the end of the text is not such a header.
 */
function healTable(head: string, line: string): string | undefined {
  // The two lines before `line`, found from the end: the head may be a whole long table.
  const [previousStart, previous] = head === '' ? [0, undefined] : lineBefore(head, head.length);
  const beforePrevious = previousStart === 0 ? undefined : lineBefore(head, previousStart)[1];
  if (isTableRow(line) && !(previous !== undefined && (isTableRow(previous) || previous.trim() !== ''))) {
    // The header itself is arriving.
    return `${head}${healInline(line)}\n${delimiter(cellCount(line))}`;
  }
  if (
    previous !== undefined &&
    isTableRow(previous) &&
    (beforePrevious === undefined || beforePrevious.trim() === '') &&
    DELIMITER_ROW.test(line) &&
    !(COMPLETE_DELIMITER_ROW.test(line) && cellCount(line) === cellCount(previous))
  ) {
    // The header is complete and its delimiter row is arriving.
    return head + delimiter(cellCount(previous));
  }
  return undefined;
}

/** The line of `text` whose line end is at `end - 1`, and where it starts. */
function lineBefore(text: string, end: number): [start: number, line: string] {
  const start = end < 2 ? 0 : text.lastIndexOf('\n', end - 2) + 1;
  return [start, text.slice(start, end - 1)];
}

function delimiter(cells: number): string {
  return `|${' --- |'.repeat(cells)}`;
}

interface Opener {
  run: string;
  index: number;
}

/**
 * Closes what the last line leaves open. Runs of `*`, `_` and `~~` are paired like a reader
 * would (an opener has no space after it, a closer none before it, `_` inside a word is
 * literal); an opener with nothing after it yet is dropped rather than closed.
 */
export function healInline(input: string): string {
  let text = dropPartialUrl(input);
  for (let pass = 0; pass < 8; pass++) {
    const rewritten = healLinks(text);
    if (rewritten === text) break;
    text = rewritten;
  }

  const openers: Opener[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    const skipped = skipLiteral(text, index);
    if (skipped === -1) {
      // Unclosed code runs to the end: close it, or drop its opener if nothing follows yet.
      const run = runAt(text, index);
      const body = text.slice(index + run.length);
      text = body.trim() === '' ? text.slice(0, index) : text + run;
      break;
    }
    if (skipped !== index) {
      index = skipped;
      continue;
    }
    if (char === '*' || char === '_' || char === '~') {
      index = pairRun(text, index, runAt(text, index), openers);
      continue;
    }
    index++;
  }
  return close(text, openers);
}

/**
 * Past an escape or a closed code span starting at `index` (whose content is literal), `index`
 * itself when neither starts there, or -1 for a code span that is not closed.
 */
function skipLiteral(text: string, index: number): number {
  if (text[index] === '\\') return index + 2;
  if (text[index] !== '`') return index;
  const run = runAt(text, index);
  const close = findCodeClose(text, index + run.length, run.length);
  return close === -1 ? -1 : close + run.length;
}

function runAt(text: string, index: number): string {
  let end = index;
  while (text[end] === text[index]) end++;
  return text.slice(index, end);
}

/** Index of a closing backtick run of exactly `length` from `from`, or -1. */
function findCodeClose(text: string, from: number, length: number): number {
  let index = text.indexOf('`', from);
  while (index !== -1) {
    const run = runAt(text, index);
    if (run.length === length) return index;
    index = text.indexOf('`', index + run.length);
  }
  return -1;
}

const WHITESPACE = /\s/;
const WORD = /[\p{L}\p{N}]/u;

function pairRun(text: string, index: number, run: string, openers: Opener[]): number {
  const next = index + run.length;
  const before = text[index - 1];
  const after = text[next];
  if (run[0] === '~' && run.length !== 2) return next; // Only `~~` is treated as strikethrough here.
  const wordBefore = before !== undefined && WORD.test(before);
  const wordAfter = after !== undefined && WORD.test(after);
  if (wordBefore && wordAfter && run[0] !== '~') {
    // Inside a word: `_` is literal there, `*` is too rare to guess about.
    return next;
  }
  const canClose = before !== undefined && !WHITESPACE.test(before);
  const canOpen = after === undefined || !WHITESPACE.test(after);
  const top = openers.at(-1);
  if (canClose && top && top.run[0] === run[0]) {
    if (top.run.length > run.length) top.run = top.run.slice(run.length);
    else openers.pop();
    return next;
  }
  if (canOpen && !(before !== undefined && wordBefore && run[0] === '_')) openers.push({ run, index });
  return next;
}

function close(text: string, openers: readonly Opener[]): string {
  let result = text;
  let closers = '';
  for (let position = openers.length - 1; position >= 0; position--) {
    const opener = openers[position]!;
    const after = result.slice(opener.index + opener.run.length);
    if (closers === '' && after.trim() === '') {
      // Nothing to emphasise yet: drop the opener instead of closing it.
      result = result.slice(0, opener.index);
      continue;
    }
    closers += opener.run.split('').reverse().join('');
  }
  return closers ? result.trimEnd() + closers : result;
}

/** A URL at the very end (bare or in `<...>`) is still arriving: hide it until it ends. */
function dropPartialUrl(text: string): string {
  const bracket = /<(?:[a-z][a-z0-9+.-]{1,31}:|[\w.+-]+@)[^<>\s]*$/i.exec(text);
  if (bracket) return text.slice(0, bracket.index);
  // GFM links `http(s)://` after any non-letter, `www.` and addresses after most punctuation.
  const bare = /(?<![a-z0-9])(?:(?:https?:\/\/|mailto:|www\.)[^\s<]*|[\w.+-]+@[\w-]+\.[\w.-]*)$/i.exec(text);
  if (bare) return text.slice(0, bare.index);
  const entity = /&#?[a-z0-9]{0,31}$/i.exec(text);
  if (entity) return text.slice(0, entity.index);
  const tag = /<\/?[a-z][^<>]*$/i.exec(text);
  if (tag) return text.slice(0, tag.index);
  return text;
}

/**
 * One rewrite of the first unfinished link or image: `[label](cut-url` and `[label` show as
 * `label`, `![alt](...` not at all, and `[label]` at the very end (the start of a link or a
 * reference) as `label`. Returns the text unchanged when nothing is unfinished.
 */
function healLinks(text: string): string {
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    const skipped = skipLiteral(text, index);
    if (skipped === -1) return text;
    if (skipped !== index) {
      index = skipped;
      continue;
    }
    if (char !== '[') {
      index++;
      continue;
    }
    const image = text[index - 1] === '!';
    const start = image ? index - 1 : index;
    const labelEnd = matching(text, index, '[', ']');
    if (text[index + 1] === '^' && !image) {
      // A footnote reference shows as its number once whole; until then, or while it may still
      // turn into the definition a line starting with it is, it is hidden.
      if (labelEnd === -1 || (labelEnd === text.length - 1 && text.slice(0, start).trim() === ''))
        return text.slice(0, start);
      index = labelEnd + 1;
      continue;
    }
    if (labelEnd === -1) {
      return image ? text.slice(0, start) : text.slice(0, start) + text.slice(index + 1);
    }
    const label = text.slice(index + 1, labelEnd);
    const next = text[labelEnd + 1];
    if (next === undefined) return image ? text.slice(0, start) : text.slice(0, start) + label;
    if (next === '(' || next === '[') {
      const end = matching(text, labelEnd + 1, next, next === '(' ? ')' : ']');
      if (end === -1) return image ? text.slice(0, start) : text.slice(0, start) + label;
      index = end + 1;
      continue;
    }
    index++;
  }
  return text;
}

/** Index of the bracket closing the one at `open` (nesting and escapes counted), or -1. */
function matching(text: string, open: number, opening: string, closing: string): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === opening) depth++;
    else if (char === closing && --depth === 0) return index;
  }
  return -1;
}
