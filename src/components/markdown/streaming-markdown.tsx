import type { Nodes as HastNodes } from 'hast';
import type { FootnoteDefinition, FootnoteReference, Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import { defaultHandlers, toHast, type Handlers } from 'mdast-util-to-hast';
import { memo, useMemo, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { createPart } from '../part';
import { useLabels, useViewSettings } from '../view-settings';
import { definitionsOf, footnoteLabelsOf, splitBlocks, type SettledBlock, type Split } from './blocks';
import { healTail } from './heal';
import {
  DEFAULT_MARKDOWN_LIMITS,
  overLimit,
  scanLimits,
  type LimitScan,
  type MarkdownLimits,
  type PlainReason,
} from './limits';
import { depthOf, parseMarkdown } from './parse';
import { createExtendingParser } from './append';
import { renderHast, type MarkdownComponents, type RenderOptions } from './render';
import { createRenderCache, Group, GROUP_SIZE, groupsOf, renderTree, type RenderCache } from './render-tree';

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

/** Props of {@link StreamingMarkdown}; other props go to its root `<div>`. */
export interface StreamingMarkdownProps extends Omit<ComponentPropsWithoutRef<'div'>, 'children'> {
  /** The markdown, as much of it as has arrived. */
  text: string;
  /**
   * Whether more text is still arriving. While it is, unfinished syntax at the end is shown
   * finished (or hidden) instead of as raw characters. When it turns false the output is exactly
   * what the whole text renders to. Default `false`.
   */
  streaming?: boolean;
  /**
   * Origins images may load from, as `https://cdn.example.com`. An image from anywhere else is
   * not requested; its alt text shows instead. Default: an enclosing `AgentChat`'s
   * `allowedImageOrigins`, else none (no image ever loads), because an image is a request the
   * agent makes through the reader's browser.
   */
  allowedImageOrigins?: readonly string[];
  /**
   * Element renderers by tag name, as react-markdown's `components` (`{ a: MyLink, code: MyCode }`).
   * Pass a stable object (module constant or `useMemo`): a new object re-renders every block.
   */
  components?: MarkdownComponents;
  /** Replacements for the strings the component renders itself, over those of an enclosing `AgentChat`. */
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
 * whole-text render does. Ref, `className` and other props go to its root `<div>`
 * (`data-part="markdown"`, `data-state` `streaming` or `complete`).
 */
export const StreamingMarkdown = /*#__PURE__*/ createPart(
  'StreamingMarkdown',
  'div',
  'markdown',
  undefined,
  function StreamingMarkdown(props: StreamingMarkdownProps) {
    const {
      text,
      streaming = false,
      allowedImageOrigins: givenOrigins,
      components,
      labels: own,
      limits,
      ...rest
    } = props;
    const settings = useViewSettings();
    const allowedImageOrigins = givenOrigins ?? settings.allowedImageOrigins ?? NO_ORIGINS;
    const { maxLength, maxBlockLength, maxDepth, maxMarkers } = { ...DEFAULT_MARKDOWN_LIMITS, ...limits };
    const labels = useLabels(DEFAULT_MARKDOWN_LABELS, own);
    const imageLabel = labels.image;
    const truncatedLabel = labels.truncated;
    const taskLabel = labels.task;

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
    // The limits scan of the tail's complete lines knows the fence they leave open.
    const tailSource = streaming && !split.tailPlain ? healTail(tail, split.tail?.scan.fence) : tail;

    // Link reference definitions act at a distance: each block is parsed with those of the others
    // (earlier ones first, so the first definition of a label wins as in a whole-text render).
    const tailTree = !split.tailPlain && tailSource.includes(']:') ? parseMarkdown(tailSource) : undefined;
    const tailDefinitions = tailTree ? definitionsOf(tailTree) : '';
    // What depends only on the settled blocks is worked out once per settled block list, so a
    // delta that settles nothing costs nothing per settled block (the list is the same object).
    const settled = trees.blocks(split.blocks);
    const { definitions } = settled;
    const anyDefinitions = tailDefinitions !== '' || settled.anyDefinitions;
    // So do footnote definitions: a `[^1]` is a reference only where `[^1]:` is defined, anywhere,
    // so blocks that write one are parsed after stub definitions of every label. While streaming,
    // references whose definition has not arrived yet count as defined too, so they show as their
    // number from the start instead of as raw `[^1]`.
    const footnoteLabels = new Set(settled.footnotes);
    if (tailTree) for (const label of footnoteLabelsOf(tailTree)) footnoteLabels.add(label);
    if (streaming && visible.includes('[^'))
      for (const match of visible.matchAll(REFERENCE)) footnoteLabels.add(match[1]!);
    // Each stub on its own, then an HTML comment (never rendered) that ends the last one, so that
    // indented code after the stubs stays code instead of continuing a footnote.
    const stubs =
      footnoteLabels.size === 0
        ? ''
        : [...footnoteLabels].map((label) => `[^${label}]: x\n\n`).join('') + '<!---->\n\n';

    const settledViews = trees.views(split.blocks, stubs, anyDefinitions ? tailDefinitions : undefined, resolved);
    let tailView: BlockView | undefined;
    if (tailSource !== '') {
      const context =
        anyDefinitions && tailSource.includes('[') ? around(definitions, definitions.length, '') : NO_CONTEXT;
      tailView = trees.tail(
        split.cut,
        tailSource,
        split.tailPlain,
        split.tail?.scan,
        tailSource.includes('[^') ? stubs : '',
        context,
        resolved,
      );
    }
    const views = tailView ? [...settledViews, tailView] : settledViews;
    const numbering = stubs === '' ? undefined : numberFootnotes(views);
    const block = (view: BlockView, index: number) => (
      <Block
        key={index < split.blocks.length ? split.blocks[index]!.start : split.cut}
        view={view}
        footnotes={numbering?.blocks[index] ?? NO_FOOTNOTES}
        options={options}
        cache={trees.cache}
      />
    );
    // Without footnotes the settled blocks' elements are the same objects from delta to delta,
    // which React passes over without comparing their props, in groups that it passes over whole.
    const children: ReactNode[] = numbering
      ? views.map(block)
      : trees.children(settledViews, options, block, tailView && block(tailView, settledViews.length));

    return {
      rest,
      state: streaming ? 'streaming' : 'complete',
      props: { 'aria-busy': streaming || undefined },
      children: (
        <>
          {children}
          {numbering && numbering.occurrences.length > 0 ? (
            <Footnotes
              occurrences={numbering.occurrences.join('\n')}
              definitions={numbering.definitions}
              options={options}
            />
          ) : null}
          {truncated ? <p data-part="markdown-truncated">{truncatedLabel}</p> : null}
        </>
      ),
    };
  },
);

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

const REFERENCE = /\[\^([^\]\s]+)\](?!:)/g;

/**
 * A block ready to render: its tree (and where its own markdown is in it), or why it is plain.
 * `bare` when the tree is of the block's markdown alone and holds no definition, so that each of
 * its nodes renders on its own (see `renderTree`).
 */
type BlockView =
  | { source: string; plain: PlainReason }
  | { source: string; plain?: undefined; tree: MdastRoot; from: number; to: number; bare: boolean };

function createTrees() {
  const settled = new WeakMap<
    SettledBlock,
    { calls: boolean; stubs: string; before: string; after: string; limits: MarkdownLimits; view: BlockView }
  >();
  let open: { cut: number; parse: (markdown: string) => MdastRoot; depths: WeakMap<MdastNodes, number> } | undefined;
  let lastBlocks:
    | { blocks: readonly SettledBlock[]; definitions: string[]; anyDefinitions: boolean; footnotes: Set<string> }
    | undefined;
  let lastViews:
    | {
        blocks: readonly SettledBlock[];
        stubs: string;
        tail: string | undefined;
        limits: MarkdownLimits;
        views: BlockView[];
      }
    | undefined;
  let lastChildren:
    | {
        views: readonly BlockView[];
        options: RenderOptions;
        groups: ReactNode[];
        rest: ReactNode[];
        key: string;
      }
    | undefined;
  let elements = new WeakMap<BlockView, ReactNode>();
  return {
    /** What the blocks' renders keep from one render to the next. */
    cache: createRenderCache(),
    blocks(blocks: readonly SettledBlock[]) {
      if (lastBlocks?.blocks !== blocks) {
        const definitions = blocks.map((block) => block.definitions);
        const footnotes = new Set<string>();
        for (const block of blocks) for (const label of block.footnotes) footnotes.add(label);
        lastBlocks = { blocks, definitions, anyDefinitions: definitions.some(Boolean), footnotes };
      }
      return lastBlocks;
    },
    /** Views of the settled blocks; `tail` is the open block's link definitions when any block has some. */
    views(
      blocks: readonly SettledBlock[],
      stubs: string,
      tail: string | undefined,
      limits: MarkdownLimits,
    ): BlockView[] {
      if (
        lastViews?.blocks === blocks &&
        lastViews.stubs === stubs &&
        lastViews.tail === tail &&
        lastViews.limits === limits
      )
        return lastViews.views;
      const { definitions } = this.blocks(blocks);
      const views = blocks.map((block, index) =>
        this.settled(
          block,
          stubs,
          tail !== undefined && block.source.includes('[') ? around(definitions, index, tail) : NO_CONTEXT,
          limits,
        ),
      );
      lastViews = { blocks, stubs, tail, limits, views };
      return views;
    },
    /**
     * The settled blocks' elements in groups of `GROUP_SIZE`, the open block's (`tail`) in the
     * group after the last settled one, where it stays once it settles: React then updates its
     * DOM in place instead of making it again under another parent.
     */
    children(
      views: readonly BlockView[],
      options: RenderOptions,
      make: (view: BlockView, index: number) => ReactNode,
      tail: ReactNode | undefined,
    ): ReactNode[] {
      if (lastChildren?.views !== views || lastChildren.options !== options) {
        if (lastChildren?.options !== options) elements = new WeakMap();
        const element = (view: BlockView, index: number) => {
          let made = elements.get(view);
          if (made === undefined) elements.set(view, (made = make(view, index)));
          return made;
        };
        const full = views.length - (views.length % GROUP_SIZE);
        lastChildren = {
          views,
          options,
          groups: groupsOf(this.cache, views.slice(0, full), 0, options, (view, index, items) =>
            items.push(element(view, index)),
          ),
          rest: views.slice(full).map((view, offset) => element(view, full + offset)),
          key: `g${full}`,
        };
      }
      const { groups, rest, key } = lastChildren!;
      if (rest.length === 0 && tail === undefined) return groups;
      return [...groups, <Group key={key} items={tail === undefined ? rest : [...rest, tail]} />];
    },
    settled(block: SettledBlock, stubs: string, context: DefinitionContext, limits: MarkdownLimits): BlockView {
      let cached = settled.get(block);
      // Only blocks that write `[^` need the footnote stubs (and are parsed again when they change).
      const own = (cached?.calls ?? block.source.includes('[^')) ? stubs : '';
      if (
        cached?.limits === limits &&
        cached.stubs === own &&
        cached.before === context.before &&
        cached.after === context.after
      ) {
        return cached.view;
      }
      // The block that was the open one until now extends the open block's last tree: what it
      // shares with that tree (a table's rows) is not rendered again when it settles.
      const wasOpen = open?.cut === block.start ? open : undefined;
      cached = {
        calls: own !== '' || block.source.includes('[^'),
        stubs: own,
        before: context.before,
        after: context.after,
        limits,
        view: viewOf(
          block.source,
          block.plain ?? overLimit(block.source, limits)?.reason,
          own,
          context,
          limits,
          wasOpen?.parse,
          wasOpen?.depths,
        ),
      };
      settled.set(block, cached);
      return cached.view;
    },
    tail(
      cut: number,
      source: string,
      plain: PlainReason | undefined,
      scan: LimitScan | undefined,
      stubs: string,
      context: DefinitionContext,
      limits: MarkdownLimits,
    ): BlockView {
      // The open block grows a few words at a time: its tree is extended instead of parsed again
      // when that is exactly the same, and what was checked of it before is not checked again.
      // Settled blocks are parsed once, so this only pays off here.
      if (open?.cut !== cut) open = { cut, parse: createExtendingParser().parse, depths: new WeakMap() };
      // `scan` covers the tail's complete lines, which healing leaves as they are.
      const reason = plain ?? scanLimits(source, limits, scan).breach?.reason;
      return viewOf(source, reason, stubs, context, limits, open.parse, open.depths);
    },
  };
}

function viewOf(
  source: string,
  reason: PlainReason | undefined,
  stubs: string,
  context: DefinitionContext,
  limits: MarkdownLimits,
  parse: (markdown: string) => MdastRoot = parseMarkdown,
  depths?: WeakMap<MdastNodes, number>,
): BlockView {
  if (reason) return { source, plain: reason };
  const before = stubs + (context.before === '' ? '' : `${context.before}\n\n`);
  const after = context.after === '' ? '' : `\n\n${context.after}`;
  const tree = parse(before + source + after);
  // The pre-parse check bounds nesting by line prefixes; inline nesting is bounded here.
  const maxTreeDepth = limits.maxDepth * 4 + 16;
  if (depthOf(tree, maxTreeDepth, depths) > maxTreeDepth) return { source, plain: 'depth' };
  const bare = before === '' && after === '' && !source.includes(']:');
  return { source, tree, from: before.length, to: before.length + source.length, bare };
}

/**
 * The footnote references (ids, in the order to-hast numbers them) and definitions in the part of
 * `tree` from `from` to `to`. References inside a definition are numbered with the footnotes
 * section, as in to-hast.
 */
function footnotesIn(tree: MdastRoot, from: number, to: number): { ids: string[]; definitions: FootnoteDefinition[] } {
  const ids: string[] = [];
  const definitions: FootnoteDefinition[] = [];
  const stack: MdastNodes[] = [...tree.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    const start = node.position?.start.offset ?? from;
    if (start < from || start >= to) continue;
    if (node.type === 'footnoteDefinition') definitions.push(node);
    else if (node.type === 'footnoteReference') ids.push(node.identifier.toUpperCase());
    else if ('children' in node)
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return { ids, definitions };
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

function numberFootnotes(views: readonly BlockView[]) {
  const order: string[] = [];
  const counts = new Map<string, number>();
  const occurrences: string[] = [];
  const definitions: FootnoteDefinition[] = [];
  const defined = new Set<string>();
  const blocks = views.map((view): BlockFootnotes => {
    if (view.plain) return NO_FOOTNOTES;
    const found = footnotesIn(view.tree, view.from, view.to);
    for (const definition of found.definitions) {
      const id = definition.identifier.toUpperCase();
      if (!defined.has(id)) definitions.push(definition);
      defined.add(id);
    }
    if (found.ids.length === 0) return NO_FOOTNOTES;
    const before = { order: order.slice(), counts: new Map(counts) };
    const key: string[] = [];
    for (const id of found.ids) {
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
  /** Kept by the component for all its blocks (the same object every render). */
  cache: RenderCache;
}

/** One block, rendered again only when its tree, the numbers of its footnotes or the options change. */
const Block = /*#__PURE__*/ memo(
  function Block({ view, footnotes, options, cache }: BlockProps): ReactNode {
    if (view.plain) return <Plain source={view.source} reason={view.plain} />;
    // Node by node, so that a growing table, list or code block renders its new rows, items or
    // lines, not the ones already shown.
    if (view.bare && footnotes.key === '') return renderTree(view.tree, options, cache);
    const hast = toHast(view.tree, footnotes.key === '' ? undefined : { handlers: numberedAfter(footnotes) });
    // to-hast ends a tree with references with its footnotes section; the text's own comes last.
    if (footnotes.key !== '' && hast.type === 'root')
      hast.children = hast.children.filter((child) => !isFootnotesSection(child));
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
const Footnotes = /*#__PURE__*/ memo(
  function Footnotes({
    occurrences,
    definitions,
    options,
  }: {
    occurrences: string;
    definitions: readonly FootnoteDefinition[];
    options: RenderOptions;
  }): ReactNode {
    const references: FootnoteReference[] = occurrences
      .split('\n')
      .map((id) => ({ type: 'footnoteReference', identifier: id.toLowerCase() }));
    const hast = toHast({ type: 'root', children: [{ type: 'paragraph', children: references }, ...definitions] });
    const section = hast.type === 'root' ? hast.children.find(isFootnotesSection) : undefined;
    return section ? renderHast(section, options) : null;
  },
  (previous, next) =>
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
