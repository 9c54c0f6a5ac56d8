/**
 * Limits that keep hostile or runaway markdown from freezing the page. Markdown parsing is not
 * linear in the worst case (thousands of `*` in one paragraph, containers nested hundreds deep),
 * so text past a limit is shown as plain text instead of being parsed.
 */
export interface MarkdownLimits {
  /**
   * Characters rendered at all; the rest is cut off with a notice. Default 1,048,576 (1 MiB of
   * text, far above any answer a person reads).
   */
  maxLength: number;
  /**
   * Characters in one block (a paragraph, list, table or code block). A longer block is shown as
   * plain text, in pieces of at most this size. Default 32,768.
   */
  maxBlockLength: number;
  /**
   * Nesting of quotes and lists. Deeper parts are shown as plain text. Default 32.
   */
  maxDepth: number;
  /**
   * Emphasis, code and link punctuation (`*`, `_`, `~`, `` ` ``, `[`, `]`) in one run of lines
   * without a blank line between them. A run with more is shown as plain text. Default 2,000.
   */
  maxMarkers: number;
}

/** The defaults of {@link MarkdownLimits}. */
export const DEFAULT_MARKDOWN_LIMITS: Readonly<MarkdownLimits> = /*#__PURE__*/ Object.freeze({
  maxLength: 1_048_576,
  maxBlockLength: 32_768,
  maxDepth: 32,
  maxMarkers: 2_000,
});

/** Why a part is shown as plain text. */
export type PlainReason = 'length' | 'depth' | 'markers';

/** Leading container syntax of a line: blockquote markers, list markers and indentation. */
export const CONTAINER_PREFIX = /^(?:[ \t]|>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))*/;
const FENCE = /^(`{3,}|~{3,})([^`]*)$/;
const MARKER = /[*_~`[\]]/g;

/** Where text breaks a limit: the run of lines (between blank lines) that does. */
export interface LimitBreach {
  reason: PlainReason;
  /** Offset of the run's first line. */
  start: number;
  /** Offset just past the run (its last line end), or the text's length. */
  end: number;
}

/**
 * Checks text against the depth and marker limits without parsing it (the parser is what a bomb
 * would stall). `undefined` when the text is within them. Fenced code is skipped for markers:
 * the parser does not look for emphasis there.
 */
export function overLimit(text: string, limits: MarkdownLimits): LimitBreach | undefined {
  return scanLimits(text, limits).breach;
}

/**
 * Where {@link scanLimits} stopped in a text: at the start of its last line (which may still
 * grow), with what it had counted up to there.
 */
export interface LimitScan {
  /** Offset of the text's last line. */
  line: number;
  /** Markers counted in the run of lines the last line belongs to, before it. */
  markers: number;
  /** Offset of the first line of that run. */
  runStart: number;
  /** The fence (`` ``` `` or `~~~`, with its length) open before the last line, or ''. */
  fence: string;
  breach: PlainReason | undefined;
}

/**
 * {@link overLimit}, going on from `from`: the scan of a text `text` starts with, up to the start
 * of that text's last line (the lines before it are not read again), with the same `limits`. A
 * tail that grows a line at a time is then checked at the cost of its new lines. Also returns
 * where this scan stopped (unless a breach ended it early), for the next one to go on from.
 */
export function scanLimits(
  text: string,
  limits: MarkdownLimits,
  from?: LimitScan,
): { breach: LimitBreach | undefined; scan?: LimitScan } {
  let markers = from?.markers ?? 0;
  let runStart = from?.runStart ?? 0;
  let fence = from?.fence ?? '';
  let breach = from?.breach;
  let start = from?.line ?? 0;
  let scan: LimitScan | undefined;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) {
      end = text.length;
      scan = { line: start, markers, runStart, fence, breach };
    }
    const line = text.slice(start, end);
    if (line.trim() === '') {
      if (breach) return { breach: { reason: breach, start: runStart, end: start } };
      markers = 0;
      runStart = end + 1;
    } else if (!breach) {
      const prefix = CONTAINER_PREFIX.exec(line)?.[0] ?? '';
      const content = line.slice(prefix.length);
      const open = FENCE.exec(content.trimEnd());
      if (prefix.length > 4 && nesting(prefix) > limits.maxDepth) breach = 'depth';
      else if (fence) {
        if (open && open[1]!.startsWith(fence) && open[2]!.trim() === '') fence = '';
      } else if (open) {
        fence = open[1]!;
      } else {
        markers += line.match(MARKER)?.length ?? 0;
        if (markers > limits.maxMarkers) breach = 'markers';
      }
    }
    start = end + 1;
  }
  return { breach: breach ? { reason: breach, start: runStart, end: text.length } : undefined, scan };
}

/**
 * Containers a line prefix opens: each `>` and list marker, and one per two columns of
 * indentation (a nested list item carries only its own marker). The space after a marker
 * belongs to the marker.
 */
function nesting(prefix: string): number {
  let containers = 0;
  let columns = 0;
  let afterMarker = false;
  for (const char of prefix) {
    if (char === ' ' || char === '\t') {
      if (!afterMarker) columns += char === '\t' ? 4 : 1;
      afterMarker = false;
    } else if (char < '0' || char > '9') {
      containers += 1;
      afterMarker = true;
    }
  }
  return containers + Math.floor(columns / 2);
}
