import type { Nodes as HastNodes } from 'hast';
import type { FootnoteDefinition, FootnoteReference, Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import { defaultHandlers, toHast, type Handlers } from 'mdast-util-to-hast';
import { memo, useMemo, useState, type ReactNode } from 'react';
import { definitionsOf, footnoteLabelsOf, splitBlocks, type SettledBlock, type Split } from './blocks';
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
 * GFM footnotes are numbered across the whole text and gathered in a section at the end, as a
 * whole-text render does.
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
  // The splitter keeps the last split so an appended delta only looks at the tail, and the trees
  // of the blocks so each is parsed once. All of it is a pure function of the text, so rendering
  // twice (Strict Mode, concurrent renders) is safe.
  const [splitter] = useState(createSplitter);
  const [trees] = useState(createTrees);

  const truncated = text.length > maxLength;
  const visible = truncated ? text.slice(0, safeCut(text, maxLength)) : text;
  const split = splitter.split(visible, resolved);
  const tail = visible.slice(split.cut);
  const tailSource = streaming && !split.tailPlain ? healTail(tail) : tail;

  // Link reference definitions act at a distance: each block is parsed with those of the others
  // (earlier ones first, so the first definition of a label wins as in a whole-text render).
  const tailTree = !split.tailPlain && tailSource.includes(']:') ? parseMarkdown(tailSource) : undefined;
  const tailDefinitions = tailTree ? definitionsOf(tailTree) : '';
  const definitions = split.blocks.map((block) => block.definitions);
  const anyDefinitions = tailDefinitions !== '' || definitions.some(Boolean);
  // So do footnote definitions: a `[^1]` is a reference only where `[^1]:` is defined, anywhere.
  // While streaming, references whose definition has not arrived yet count as defined too, so
  // they show as their number from the start instead of as raw `[^1]`.
  const footnotes = footnoteContext(split, tailTree, streaming ? tailSource : undefined, trees);

  const views: BlockView[] = split.blocks.map((block, index) => {
    const context = anyDefinitions && block.source.includes('[') ? around(definitions, index, tailDefinitions) : NO_CONTEXT;
    const stubs = trees.referenced(block).length > 0 ? footnotes.stubs : '';
    return trees.settled(block, withFootnotes(context, stubs), resolved);
  });
  if (tailSource !== '') {
    const context = anyDefinitions && tailSource.includes('[') ? around(definitions, definitions.length, '') : NO_CONTEXT;
    const stubs = tailSource.includes('[^') ? footnotes.stubs : '';
    views.push(trees.tail(split.cut, tailSource, split.tailPlain, withFootnotes(context, stubs), resolved));
  }
  const numbering = footnotes.stubs === '' ? undefined : numberFootnotes(views, trees);

  const children: ReactNode[] = views.map((view, index) => (
    <Block
      key={index < split.blocks.length ? split.blocks[index]!.start : split.cut}
      view={view}
      footnotes={numbering?.blocks[index] ?? NO_FOOTNOTES}
      options={options}
    />
  ));

  return (
    <div className={className} data-part="markdown" data-state={streaming ? 'streaming' : 'complete'} aria-busy={streaming || undefined}>
      {children}
      {numbering && numbering.occurrences.length > 0 ? (
        <Footnotes occurrences={numbering.occurrences.join('\n')} definitions={numbering.definitions} options={options} />
      ) : null}
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

/**
 * Footnote definitions as markdown that only defines their labels: each stub on its own, then an
 * HTML comment (never rendered) that ends the last one, so that an indented block after the stubs
 * stays code instead of continuing a footnote.
 */
function withFootnotes(context: DefinitionContext, stubs: string): DefinitionContext {
  return stubs === '' ? context : { before: context.before === '' ? stubs : `${stubs}\n\n${context.before}`, after: context.after };
}

interface FootnoteContext {
  /** Markdown defining every footnote label (empty when there are none). */
  stubs: string;
}

const REFERENCE = /\[\^([^\]\s]+)\](?!:)/g;

function footnoteContext(split: Split, tailTree: MdastRoot | undefined, streamingTail: string | undefined, trees: Trees): FootnoteContext {
  const labels = new Set<string>();
  for (const block of split.blocks) for (const label of block.footnotes) labels.add(label);
  if (tailTree) for (const label of footnoteLabelsOf(tailTree)) labels.add(label);
  if (streamingTail !== undefined) {
    for (const block of split.blocks) for (const label of trees.referenced(block)) labels.add(label);
    if (streamingTail.includes('[^')) for (const match of streamingTail.matchAll(REFERENCE)) labels.add(match[1]!);
  }
  if (labels.size === 0) return { stubs: '' };
  return { stubs: [...labels].map((label) => `[^${label}]: x\n\n`).join('') + '<!---->' };
}

/** A block ready to render: its tree (and where its own markdown is in it), or why it is plain. */
type BlockView = { source: string; plain: PlainReason } | { source: string; plain?: undefined; tree: MdastRoot; from: number; to: number };

interface Trees {
  settled(block: SettledBlock, context: DefinitionContext, limits: MarkdownLimits): BlockView;
  tail(cut: number, source: string, plain: PlainReason | undefined, context: DefinitionContext, limits: MarkdownLimits): BlockView;
  /** Labels a settled block writes as `[^label]` (streaming only: a cheap look, not a parse). */
  referenced(block: SettledBlock): readonly string[];
  /** Identifiers of the footnote references in a view's own markdown, in order. */
  references(view: BlockView): readonly string[];
}

function createTrees(): Trees {
  const settled = new WeakMap<SettledBlock, { context: DefinitionContext; limits: MarkdownLimits; view: BlockView }>();
  const referenced = new WeakMap<SettledBlock, readonly string[]>();
  const references = new WeakMap<MdastRoot, readonly string[]>();
  let open: { cut: number; parser: ReturnType<typeof createExtendingParser> } | undefined;
  return {
    settled(block, context, limits) {
      const cached = settled.get(block);
      if (cached && cached.limits === limits && cached.context.before === context.before && cached.context.after === context.after) {
        return cached.view;
      }
      const view = viewOf(block.source, block.plain, context, limits, parseMarkdown);
      settled.set(block, { context, limits, view });
      return view;
    },
    tail(cut, source, plain, context, limits) {
      // The open block grows a few words at a time: its tree is extended instead of parsed again
      // when that is exactly the same. Settled blocks are parsed once, so this only pays off here.
      if (open?.cut !== cut) open = { cut, parser: createExtendingParser() };
      return viewOf(source, plain, context, limits, open.parser.parse);
    },
    referenced(block) {
      let labels = referenced.get(block);
      if (!labels) {
        labels = block.source.includes('[^') ? [...block.source.matchAll(REFERENCE)].map((match) => match[1]!) : [];
        referenced.set(block, labels);
      }
      return labels;
    },
    references(view) {
      if (view.plain) return [];
      let ids = references.get(view.tree);
      if (!ids) {
        ids = footnoteReferencesOf(view.tree, view.from, view.to);
        references.set(view.tree, ids);
      }
      return ids;
    },
  };
}

function viewOf(
  source: string,
  plain: PlainReason | undefined,
  context: DefinitionContext,
  limits: MarkdownLimits,
  parse: (markdown: string) => MdastRoot,
): BlockView {
  const reason = plain ?? overLimit(source, limits)?.reason;
  if (reason) return { source, plain: reason };
  const before = context.before === '' ? '' : `${context.before}\n\n`;
  const after = context.after === '' ? '' : `\n\n${context.after}`;
  const tree = parse(before + source + after);
  // The pre-parse check bounds nesting by line prefixes; inline nesting is bounded here.
  if (depthOf(tree, limits.maxDepth * 4 + 16) > limits.maxDepth * 4 + 16) return { source, plain: 'depth' };
  return { source, tree, from: before.length, to: before.length + source.length };
}

/** Footnote reference identifiers in the part of `tree` from `from` to `to`, in document order (as to-hast numbers them). */
function footnoteReferencesOf(tree: MdastRoot, from: number, to: number): readonly string[] {
  const ids: string[] = [];
  const stack: MdastNodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const start = node.position?.start.offset ?? from;
    if (node.type !== 'root' && (start < from || start >= to)) continue;
    // References inside a definition are numbered when the footnotes section is, as in to-hast.
    if (node.type === 'footnoteDefinition') continue;
    if (node.type === 'footnoteReference') ids.push(node.identifier.toUpperCase());
    else if ('children' in node) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return ids;
}

/** Footnote definitions in the part of `tree` from `from` to `to`. */
function footnoteDefinitionsOf(tree: MdastRoot, from: number, to: number): FootnoteDefinition[] {
  const found: FootnoteDefinition[] = [];
  const stack: MdastNodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const start = node.position?.start.offset ?? from;
    if (node.type !== 'root' && (start < from || start >= to)) continue;
    if (node.type === 'footnoteDefinition') found.push(node);
    else if ('children' in node) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return found;
}

/** How the references of one block are numbered: what comes before it, as to-hast would have counted. */
interface BlockFootnotes {
  /** Ids in order of first reference in the blocks before. */
  order: readonly string[];
  /** References per id in the blocks before. */
  counts: ReadonlyMap<string, number>;
  /** What this block's references render as (number and reuse count each), to compare renders by. */
  key: string;
}

const NO_FOOTNOTES: BlockFootnotes = { order: [], counts: new Map(), key: '' };

function numberFootnotes(views: readonly BlockView[], trees: Trees) {
  const order: string[] = [];
  const counts = new Map<string, number>();
  const occurrences: string[] = [];
  const definitions: FootnoteDefinition[] = [];
  const seen = new Set<string>();
  const blocks = views.map((view): BlockFootnotes => {
    if (!view.plain) {
      for (const definition of footnoteDefinitionsOf(view.tree, view.from, view.to)) {
        const id = definition.identifier.toUpperCase();
        if (!seen.has(id)) {
          seen.add(id);
          definitions.push(definition);
        }
      }
    }
    const ids = trees.references(view);
    if (ids.length === 0) return NO_FOOTNOTES;
    const before = { order: order.slice(), counts: new Map(counts) };
    const key: string[] = [];
    for (const id of ids) {
      if (!counts.has(id)) order.push(id);
      const count = (counts.get(id) ?? 0) + 1;
      counts.set(id, count);
      occurrences.push(id);
      key.push(`${order.indexOf(id)}:${count}`);
    }
    return { ...before, key: key.join(' ') };
  });
  return { blocks, occurrences, definitions };
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
  view: BlockView;
  footnotes: BlockFootnotes;
  options: RenderOptions;
}

/** One block, rendered again only when its tree, the numbers of its footnotes or the options change. */
const Block = /*#__PURE__*/ memo(
  function Block({ view, footnotes, options }: BlockProps): ReactNode {
    if (view.plain) return <Plain source={view.source} reason={view.plain} />;
    const hast = toHast(view.tree, footnotes.key === '' ? undefined : { handlers: numberedAfter(footnotes) });
    // to-hast ends a tree with references with its footnotes section; the text's own comes last.
    if (footnotes.key !== '' && hast.type === 'root') hast.children = hast.children.filter((child) => !isFootnotesSection(child));
    return renderHast(hast, options);
  },
  (previous, next) =>
    previous.view.source === next.view.source &&
    previous.view.plain === next.view.plain &&
    (previous.view.plain !== undefined || next.view.plain !== undefined || previous.view.tree === next.view.tree) &&
    previous.footnotes.key === next.footnotes.key &&
    previous.options === next.options,
);

function isFootnotesSection(node: HastNodes): boolean {
  return node.type === 'element' && node.tagName === 'section' && node.properties.dataFootnotes !== undefined;
}

/**
 * A footnote reference handler that numbers on from the blocks before this one, as one to-hast
 * pass over the whole text would have (the order and counts are to-hast's own state).
 */
function numberedAfter(footnotes: BlockFootnotes): Handlers {
  let started = false;
  return {
    footnoteReference(state, node) {
      if (!started) {
        started = true;
        state.footnoteOrder.push(...footnotes.order);
        for (const [id, count] of footnotes.counts) state.footnoteCounts.set(id, count);
      }
      return defaultHandlers.footnoteReference(state, node);
    },
  };
}

/**
 * The footnotes section, as a whole-text render ends with: to-hast given the references in
 * order and the definitions, of which only the section is kept.
 */
const Footnotes = /*#__PURE__*/ memo(function Footnotes({
  occurrences,
  definitions,
  options,
}: {
  occurrences: string;
  definitions: readonly FootnoteDefinition[];
  options: RenderOptions;
}): ReactNode {
  const references: FootnoteReference[] = occurrences.split('\n').map((id) => ({ type: 'footnoteReference', identifier: id.toLowerCase() }));
  const hast = toHast({ type: 'root', children: [{ type: 'paragraph', children: references }, ...definitions] });
  const section = hast.type === 'root' ? hast.children.find(isFootnotesSection) : undefined;
  return section ? renderHast(section, options) : null;
}, (previous, next) =>
  previous.occurrences === next.occurrences &&
  previous.options === next.options &&
  previous.definitions.length === next.definitions.length &&
  previous.definitions.every((definition, index) => definition === next.definitions[index]),
);

function Plain({ source, reason }: { source: string; reason: PlainReason }): ReactNode {
  return (
    <p data-part="markdown-plain" data-reason={reason}>
      {source}
    </p>
  );
}
