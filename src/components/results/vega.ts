/**
 * The chart machinery, a chunk of its own that `ResultChart` loads with `import()` when a chart
 * mounts (so no bundle carries it up front): an agent's Vega-Lite spec made safe to draw, and
 * vega-embed loaded on first use and called with options no spec can change.
 *
 * Safety, in layers (agent-supplied specs are untrusted input):
 * - `usermeta.embedOptions` is removed (vega-embed merges it over our options, so a spec could
 *   otherwise turn the expression interpreter off, swap the loader, set a `patch` or `config` URL,
 *   or turn the actions menu on);
 * - every data source (`data` with `url`, `values` or `name`, anywhere, `lookup` sources included)
 *   becomes the rows we inject, and `datasets` is dropped: a spec only ever sees our data;
 * - colours, cursors and URL-bearing keys pass an allow-list, and sizes, bins and views are
 *   capped (`chart-sanitize.ts`); the renderer checks colours again as it draws and expressions
 *   run with capped allocating functions (`chart-guards.ts`); see `ChartLimits`;
 * - the loader refuses every URL, so images, `href` links and anything we missed load nothing;
 * - expressions run through `vega-interpreter` (`ast: true`): no `eval`, no `new Function`, works
 *   under a CSP without `unsafe-eval`;
 * - tooltips render text only (no `image` field), with HTML escaped; the actions menu is off.
 *
 * `vega-embed` (which brings `vega-lite` and `vega`) and `vega-interpreter` are optional peers,
 * loaded with `import()` only when a chart appears, so they never weigh on the main bundle.
 *
 * @module
 */
import { defaultChartConfig } from '../../core/protocol/tools';
import { isRecord } from '../../core/protocol/shared';
import type { ChartValue } from '../../core/result-data';
import {
  createCollectingLogger,
  guardInterpreter,
  limitedViewClass,
  registerGuardedTransforms,
  registerSafeRenderer,
  SAFE_RENDERER,
  type ExpressionInterpreter,
  type VegaModule,
} from './chart-guards';
import { ChartLimitError } from './chart-limit-error';
import { DEFAULT_CHART_LIMITS, type ChartLimits } from './chart-limits';
import { RESULT_DATA_NAME, type Json, type JsonObject } from './spec';
import { loadRegExpEngine, mayRunRegExp } from './chart-regexp';
import { sanitizeSpec } from './chart-sanitize';
import {
  adjustSpec,
  brandConfig,
  compactNumber,
  COMPACT_FORMAT,
  darkConfig,
  themeConfig,
  type ChartTheme,
} from './chart-theme';

export { parseVegaLiteSpec, MAX_SPEC_LENGTH, MAX_SPEC_DEPTH, RESULT_DATA_NAME } from './spec';
export type { ChartProblem } from './spec';
/** Replaces every data definition below `node` with the injected source, in place. */
function injectData(node: Json, topLevel: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) injectData(item, false);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const key of Object.keys(node)) {
    // `usermeta` is the spec author's free-form space and `config` holds styles: neither defines data.
    if (key === 'usermeta' || key === 'config') continue;
    const child = node[key]!;
    if (key === 'data' && (child === null || (typeof child === 'object' && !Array.isArray(child)))) {
      // `data: null` means "inherit" in a layer: leave it. Generators (sequence, graticule,
      // sphere) make no request, but they are not our rows either: replace them too.
      if (child !== null || topLevel) node[key] = { name: RESULT_DATA_NAME };
      continue;
    }
    injectData(child, false);
  }
}

export type { ChartTheme } from './chart-theme';

/** Options of {@link prepareSpec}. */
export interface PrepareSpecOptions {
  /** The chart's accessible description, when the spec has none. */
  description: string;
  theme: ChartTheme;
  /** Default `DEFAULT_CHART_LIMITS`. */
  limits?: ChartLimits;
  /** The result's column names (facets may only split by them). Default: the keys of the first record. */
  columns?: readonly string[];
  /** The width the chart has, in pixels (for label angles and month ticks). Default 640. */
  width?: number;
  /** Draw the spec's `title`. Default true; false where a heading above already says it. */
  showTitle?: boolean;
}

/**
 * The spec to draw: a checked Vega-Lite spec with our data injected, `usermeta.embedOptions`
 * and `datasets` removed, `$schema` dropped (the installed Vega-Lite compiles it; a v5 URL would
 * only log a version warning), everything that could make a request removed and its sizes,
 * bins and views within the limits (`sanitizeSpec`), its encodings adjusted to the theme (one
 * colour for a single series, horizontal labels where they fit, month ticks: `adjustSpec`), a
 * `description` for assistive technology when it has none, and, in dark mode, text and rule
 * colours of the theme over the spec's own.
 *
 * @throws ChartLimitError when the spec is past a limit that capping cannot fix (too many views).
 */
export function prepareSpec(
  spec: JsonObject,
  records: readonly Record<string, ChartValue>[],
  options: PrepareSpecOptions,
): Record<string, unknown> {
  const limits = options.limits ?? DEFAULT_CHART_LIMITS;
  if (records.length > limits.maxRows)
    throw new ChartLimitError('maxRows', `the result has ${records.length} rows, more than ${limits.maxRows}`);
  let prepared: JsonObject = { ...spec };
  delete prepared['$schema'];
  delete prepared['datasets'];
  const usermeta = prepared['usermeta'];
  if (isRecord(usermeta)) {
    const { embedOptions: _dropped, ...rest } = usermeta;
    prepared['usermeta'] = rest as JsonObject;
  } else if (usermeta !== undefined) delete prepared['usermeta'];
  injectData(prepared, true);
  prepared['data'] = { name: RESULT_DATA_NAME };
  const columns = options.columns ?? (records[0] ? Object.keys(records[0]) : []);
  prepared = sanitizeSpec(prepared, { columns, records }, limits);
  adjustSpec(prepared, { records, width: options.width ?? 640, theme: options.theme });
  if (options.showTitle === false) delete prepared['title'];
  if (typeof prepared['description'] !== 'string' || prepared['description'].trim() === '')
    prepared['description'] = options.description;
  if (options.theme.dark)
    prepared['config'] = darkConfig(
      isRecord(prepared['config']) ? (prepared['config'] as JsonObject) : {},
      options.theme,
    );
  if (options.theme.brandFont || options.theme.accent)
    prepared['config'] = brandConfig(
      isRecord(prepared['config']) ? (prepared['config'] as JsonObject) : {},
      options.theme,
    );
  // Dates are not JSON: the records go in as they are.
  return { ...prepared, datasets: { [RESULT_DATA_NAME]: records } };
}

/**
 * The base `config` of every chart: the theme built from the page's `--service-*` tokens
 * (`themeConfig`; without a theme, the service's official default style: font, label colour,
 * category palette) on a transparent background. A spec's own `config` wins over it.
 */
export function baseConfig(theme?: ChartTheme): Record<string, unknown> {
  return theme ? themeConfig(theme) : { ...themeConfig(), ...defaultChartConfig(), background: 'transparent' };
}

// ---------------------------------------------------------------------------------------------
// Loading and embedding

/** What a refused load rejects with. */
export class ChartResourceRefused extends Error {
  constructor(uri: unknown) {
    super(`Charts load nothing: refused ${String(uri).slice(0, 200)}`);
    this.name = 'ChartResourceRefused';
  }
}

/**
 * A Vega loader that refuses every URL, for data, images and links alike: the data of a chart is
 * what we inject, and nothing in a spec may make the page send a request or open a link.
 */
export function createRefusingLoader(): {
  load: (uri: string) => Promise<never>;
  sanitize: (uri: string) => Promise<never>;
  http: (uri: string) => Promise<never>;
  file: (path: string) => Promise<never>;
} {
  const refuse = (uri: string) => Promise.reject(new ChartResourceRefused(uri));
  return { load: refuse, sanitize: refuse, http: refuse, file: refuse };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text. */
export function escapeHtml(value: unknown): string {
  const text =
    typeof value === 'string'
      ? value
      : value === undefined
        ? ''
        : typeof value === 'object' && value !== null
          ? JSON.stringify(value)
          : String(value);
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

/**
 * The tooltip's HTML, text only: a title and a table of fields, every piece escaped. Vega
 * Tooltip's own formatter turns an `image` field into an `<img src>` (a request to any URL); this
 * one drops it.
 */
export function formatTooltip(value: unknown): string {
  if (!isRecord(value)) return escapeHtml(value);
  const { title, image: _image, ...fields } = value;
  let html = title === undefined ? '' : `<h2>${escapeHtml(title)}</h2>`;
  const rows = Object.entries(fields)
    .filter(([, field]) => field !== undefined)
    .map(
      ([key, field]) => `<tr><td class="key">${escapeHtml(key)}</td><td class="value">${escapeHtml(field)}</td></tr>`,
    );
  if (rows.length > 0) html += `<table>${rows.join('')}</table>`;
  return html;
}

/** The chart libraries (optional peers) could not be loaded: not installed, or the network failed. */
export class ChartLibrariesUnavailable extends Error {
  constructor(cause: unknown) {
    super(
      `vega-embed and vega-interpreter could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'ChartLibrariesUnavailable';
  }
}

/** The embed function, once loaded. */
export type EmbedFunction = (
  element: HTMLElement,
  spec: Record<string, unknown>,
  options: Record<string, unknown>,
) => Promise<{ finalize(): void; view: unknown }>;

interface LoadedVega {
  embed: EmbedFunction;
  expressionInterpreter: ExpressionInterpreter;
  vega: VegaModule;
}

let loading: Promise<LoadedVega> | undefined;

/**
 * Loads vega-embed (with vega-lite and vega) and vega-interpreter, once per page. A failed load
 * (the optional peers are not installed) is not cached, so a later chart tries again.
 */
export function loadVega(): Promise<LoadedVega> {
  loading ??= Promise.all([import('vega-embed'), import('vega-interpreter')]).then(
    ([embedModule, interpreterModule]) => {
      const vega = embedModule.vega as unknown as VegaModule;
      registerSafeRenderer(vega);
      registerGuardedTransforms(vega);
      // The theme's number format type (`numberFormatType`): compact numbers, never `1e+6`.
      vega.expressionFunction(COMPACT_FORMAT, (value: unknown, specifier: unknown) => compactNumber(value, specifier));
      return {
        embed: embedModule.default as unknown as EmbedFunction,
        expressionInterpreter: interpreterModule.expressionInterpreter as unknown as ExpressionInterpreter,
        vega,
      };
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Options of {@link embedChart}. */
export interface EmbedChartOptions {
  theme: ChartTheme;
  /** Default `DEFAULT_CHART_LIMITS`. */
  limits?: ChartLimits;
  /**
   * Aborted when the chart is gone (unmounted or redrawn). Default: none. Checked once vega has
   * loaded, so a chart that went away during the first load builds no view it would only finalize.
   */
  signal?: AbortSignal;
}

/**
 * Draws a prepared spec into `element` as SVG with the safe options; nothing in the spec can
 * change them (its `usermeta.embedOptions` is gone by now). Resolves with the finalizer (a no-op
 * when `signal` was aborted before vega loaded: nothing was drawn); rejects
 * with {@link ChartLibrariesUnavailable} when the libraries cannot be loaded, with a
 * `ChartLimitError` when the chart passes a limit while it runs, with Vega's own error when the
 * spec cannot be compiled or run (including errors Vega only logs).
 */
export async function embedChart(
  element: HTMLElement,
  spec: Record<string, unknown>,
  options: EmbedChartOptions,
): Promise<() => void> {
  let loaded: LoadedVega;
  try {
    loaded = await loadVega();
  } catch (error) {
    throw new ChartLibrariesUnavailable(error);
  }
  // re2js only for a spec that can run a regular expression; without it any such call fails
  // the chart instead of running on JavaScript's backtracking engine.
  const regExpEngine = mayRunRegExp(spec) ? await loadRegExpEngine().catch(() => undefined) : undefined;
  if (options.signal?.aborted) return () => {};
  const { embed, expressionInterpreter, vega } = loaded;
  const limits = options.limits ?? DEFAULT_CHART_LIMITS;
  const { logger, errors } = createCollectingLogger();
  const result = await embed(element, spec, {
    mode: 'vega-lite',
    // Vega's SVG renderer, drawing only plain colours and keyword cursors (chart-guards.ts).
    renderer: SAFE_RENDERER,
    actions: false,
    ast: true,
    expr: guardInterpreter(expressionInterpreter, limits, regExpEngine),
    // Its views carry the limits, which the transforms that make rows check (chart-guards.ts).
    viewClass: limitedViewClass(vega, limits),
    loader: createRefusingLoader(),
    // disableDefaultStyle: vega-tooltip's stylesheet is an inline <style> (refused by a strict CSP);
    // styles.css styles #vg-tooltip-element instead.
    tooltip: {
      theme: options.theme.dark ? 'dark' : 'light',
      formatTooltip,
      sanitize: escapeHtml,
      disableDefaultStyle: true,
    },
    // Our stylesheet styles the container; vega-embed's own style is an inline <style> a strict CSP may refuse.
    defaultStyle: false,
    config: baseConfig(options.theme),
    hover: false,
    // Silent: specs written for Vega-Lite 5 log harmless warnings in 6. Errors are kept: Vega
    // logs a failed pulse (a transform past a limit) and resolves as if the chart were drawn.
    logger,
    logLevel: 0,
  });
  if (errors.length > 0) {
    result.finalize();
    const [error] = errors;
    throw error instanceof Error ? error : new Error(String(error));
  }
  return () => result.finalize();
}
