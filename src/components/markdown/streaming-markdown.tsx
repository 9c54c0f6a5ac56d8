import { toHast } from 'mdast-util-to-hast';
import { memo, useMemo, useState, type ReactNode } from 'react';
import { definitionsOf, splitBlocks, type Split } from './blocks';
import { healTail } from './heal';
import { DEFAULT_MARKDOWN_LIMITS, overLimit, type MarkdownLimits, type PlainReason } from './limits';
import { depthOf, parseMarkdown } from './parse';
import { createExtendingParser } from './append';
import { renderHast, type MarkdownComponents, type RenderOptions } from './render';

/** Every string `StreamingMarkdown` renders itself. */
export interface StreamingMarkdownLabels {
  /** Stands in for an image that is not loaded and has no alt text. Default "Image". */
  image: string;
  /** Ends text cut off at `limits.maxLength`. Default "The rest of this text is too long to show." */
  truncated: string;
  /** Accessible name of a task list checkbox, whose checked state tells the rest. Default "Done". */
  task: string;
}

/** The default {@link StreamingMarkdownLabels}. */
export const DEFAULT_MARKDOWN_LABELS: Readonly<StreamingMarkdownLabels> = /*#__PURE__*/ Object.freeze({
  image: 'Image',
  truncated: 'The rest of this text is too long to show.',
  task: 'Done',
});

/** Props of {@link StreamingMarkdown}. */
export interface StreamingMarkdownProps {
  /** The markdown, as much of it as has arrived. */
  text: string;
  /**
   * Whether more text is still arriving. While it is, unfinished syntax at the end is shown
   * finished (or hidden) instead of as raw characters. When it turns false the output is exactly
   * what the whole text renders to. Default `false`.
   */
  streaming?: boolean;
  /** Class of the root element (which also carries `data-part="markdown"`). */
  className?: string;
  /**
   * Origins images may load from, as `https://cdn.example.com`. An image from anywhere else is
   * not requested; its alt text shows instead. Default: none (no image ever loads), because an
   * image is a request the agent makes through the reader's browser.
   */
  allowedImageOrigins?: readonly string[];
  /**
   * Element renderers by tag name, as react-markdown's `components` (`{ a: MyLink, code: MyCode }`).
   * Pass a stable object (module constant or `useMemo`): a new object re-renders every block.
   */
  components?: MarkdownComponents;
  /** Replacements for the strings the component renders itself. */
  labels?: Partial<StreamingMarkdownLabels>;
  /** Limits against markdown bombs; see {@link MarkdownLimits} for the defaults. */
  limits?: Partial<MarkdownLimits>;
}

const NO_ORIGINS: readonly string[] = [];

/**
 * Safe GFM markdown for streamed answers. Each block (paragraph, list, table, code block) is
 * parsed and rendered once, when the first line after it completes; only the open block at the
 * end re-renders as text arrives, so a delta costs the size of the tail, not of the answer.
 *
 * Raw HTML is never rendered. Links and images keep only `http:`, `https:` and `mailto:` URLs;
 * links open in a new tab with `rel="noopener noreferrer"`; images load only from
 * `allowedImageOrigins`. Text past `limits` shows as plain text instead of freezing the page.
 * Footnotes are not supported (`[^1]` stays text).
 */
export function StreamingMarkdown(props: StreamingMarkdownProps): ReactNode {
  const { text, streaming = false, className, allowedImageOrigins = NO_ORIGINS, components, labels, limits } = props;
  const { maxLength, maxBlockLength, maxDepth, maxMarkers } = { ...DEFAULT_MARKDOWN_LIMITS, ...limits };
  const imageLabel = labels?.image ?? DEFAULT_MARKDOWN_LABELS.image;
  const truncatedLabel = labels?.truncated ?? DEFAULT_MARKDOWN_LABELS.truncated;
  const taskLabel = labels?.task ?? DEFAULT_MARKDOWN_LABELS.task;

  const resolved = useMemo<MarkdownLimits>(
    () => ({ maxLength, maxBlockLength, maxDepth, maxMarkers }),
    [maxLength, maxBlockLength, maxDepth, maxMarkers],
  );
  const options = useMemo<RenderOptions>(
    () => ({ components, allowedImageOrigins, imageLabel, taskLabel }),
    [components, allowedImageOrigins, imageLabel, taskLabel],
  );
  // The splitter keeps the last split so an appended delta only looks at the tail. Its result
  // is a pure function of the text, so rendering twice (Strict Mode, concurrent renders) is safe.
  const [splitter] = useState(createSplitter);

  const truncated = text.length > maxLength;
  const visible = truncated ? text.slice(0, safeCut(text, maxLength)) : text;
  const split = splitter.split(visible, resolved);
  const tail = visible.slice(split.cut);
  const tailSource = streaming && !split.tailPlain ? healTail(tail) : tail;

  // Link reference definitions act at a distance: each block is parsed with those of the others
  // (earlier ones first, so the first definition of a label wins as in a whole-text render).
  const tailDefinitions = !split.tailPlain && tailSource.includes(']:') ? definitionsOf(parseMarkdown(tailSource)) : '';
  const definitions = split.blocks.map((block) => block.definitions);
  const anyDefinitions = tailDefinitions !== '' || definitions.some(Boolean);

  const children: ReactNode[] = split.blocks.map((block, index) => {
    const context = anyDefinitions && block.source.includes('[') ? around(definitions, index, tailDefinitions) : NO_CONTEXT;
    return <Block key={block.start} source={block.source} plain={block.plain} context={context} options={options} limits={resolved} />;
  });
  if (tailSource !== '') {
    const context = anyDefinitions && tailSource.includes('[') ? around(definitions, definitions.length, '') : NO_CONTEXT;
    children.push(
      <Block key={split.cut} source={tailSource} plain={split.tailPlain} context={context} options={options} limits={resolved} />,
    );
  }

  return (
    <div className={className} data-part="markdown" data-state={streaming ? 'streaming' : 'complete'} aria-busy={streaming || undefined}>
      {children}
      {truncated ? <p data-part="markdown-truncated">{truncatedLabel}</p> : null}
    </div>
  );
}

interface DefinitionContext {
  before: string;
  after: string;
}

const NO_CONTEXT: DefinitionContext = { before: '', after: '' };

function around(definitions: readonly string[], index: number, tail: string): DefinitionContext {
  const before = definitions.slice(0, index).filter(Boolean).join('\n');
  const after = [...definitions.slice(index + 1), tail].filter(Boolean).join('\n');
  return before === '' && after === '' ? NO_CONTEXT : { before, after };
}

function createSplitter() {
  let last: Split | undefined;
  let lastLimits: MarkdownLimits | undefined;
  return {
    split(text: string, limits: MarkdownLimits): Split {
      if (last?.text === text && lastLimits === limits) return last;
      last = splitBlocks(lastLimits === limits ? last : undefined, text, limits);
      lastLimits = limits;
      return last;
    },
  };
}

/** `limit`, or one less when that would split a surrogate pair. */
function safeCut(text: string, limit: number): number {
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

interface BlockProps {
  source: string;
  plain?: PlainReason | undefined;
  context: DefinitionContext;
  options: RenderOptions;
  limits: MarkdownLimits;
}

/** One block, rendered again only when its source, its definitions or the options change. */
const Block = /*#__PURE__*/ memo(
  function Block({ source, plain, context, options, limits }: BlockProps): ReactNode {
    const [parser] = useState(createExtendingParser);
    const reason = plain ?? overLimit(source, limits)?.reason;
    if (reason) return <Plain source={source} reason={reason} />;
    const before = context.before === '' ? '' : `${context.before}\n\n`;
    const after = context.after === '' ? '' : `\n\n${context.after}`;
    const markdown = before + source + after;
    // The open block grows a few words at a time: its tree is extended instead of parsed again
    // when that is exactly the same. Settled blocks render once, so this only pays off for it.
    const tree = parser.parse(markdown);
    // The pre-parse check bounds nesting by line prefixes; inline nesting is bounded here.
    if (depthOf(tree, limits.maxDepth * 4 + 16) > limits.maxDepth * 4 + 16) return <Plain source={source} reason="depth" />;
    return renderHast(toHast(tree), options);
  },
  (previous, next) =>
    previous.source === next.source &&
    previous.plain === next.plain &&
    previous.context.before === next.context.before &&
    previous.context.after === next.context.after &&
    previous.options === next.options &&
    previous.limits === next.limits,
);

function Plain({ source, reason }: { source: string; reason: PlainReason }): ReactNode {
  return (
    <p data-part="markdown-plain" data-reason={reason}>
      {source}
    </p>
  );
}
