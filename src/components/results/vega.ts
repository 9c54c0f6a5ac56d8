/**
 * The chart machinery: an agent's Vega-Lite spec made safe to draw, and vega-embed loaded on
 * first use and called with options no spec can change.
 *
 * Safety, in layers (agent-supplied specs are untrusted input):
 * - `usermeta.embedOptions` is removed (vega-embed merges it over our options, so a spec could
 *   otherwise turn the expression interpreter off, swap the loader, set a `patch` or `config` URL,
 *   or turn the actions menu on);
 * - every data source (`data` with `url`, `values` or `name`, anywhere, `lookup` sources included)
 *   becomes the rows we inject, and `datasets` is dropped: a spec only ever sees our data;
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

/** Why a spec cannot be drawn. */
export type ChartProblem =
  | { kind: 'json'; message: string }
  | { kind: 'spec'; message: string }
  | { kind: 'data'; message: string }
  | { kind: 'unavailable'; message: string };

/** The name of the injected data source. */
export const RESULT_DATA_NAME = 'result';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Top-level keys of a Vega (not Vega-Lite) spec. */
const VEGA_ONLY_KEYS = ['marks', 'signals', 'scales', 'axes', 'legends', 'projections'] as const;
/** Keys of which a Vega-Lite spec needs at least one. */
const VEGA_LITE_KEYS = ['mark', 'layer', 'hconcat', 'vconcat', 'concat', 'facet', 'repeat', 'spec'] as const;

/** Longest `vegaSpec` text drawn (1,000,000 characters): a chart spec is a few kilobytes. */
export const MAX_SPEC_LENGTH = 1_000_000;
/** Deepest nesting of objects and arrays in a spec drawn (64 levels): real specs stay under 10. */
export const MAX_SPEC_DEPTH = 64;

/** True when `value` nests objects or arrays more than `limit` levels deep (checked without recursion). */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Reads an agent's `vegaSpec` (JSON text or an object) and checks that it is a Vega-Lite spec;
 * a Vega spec is refused (it can do far more than draw our rows).
 */
export function parseVegaLiteSpec(
  spec: unknown,
): { ok: true; spec: JsonObject } | { ok: false; problem: ChartProblem } {
  let value: unknown = spec;
  if (typeof spec === 'string' && spec.length > MAX_SPEC_LENGTH) {
    return { ok: false, problem: { kind: 'spec', message: `the spec is longer than ${MAX_SPEC_LENGTH} characters` } };
  }
  if (typeof spec === 'string') {
    try {
      value = JSON.parse(spec) as unknown;
    } catch (error) {
      return { ok: false, problem: { kind: 'json', message: error instanceof Error ? error.message : String(error) } };
    }
  }
  if (!isRecord(value)) return { ok: false, problem: { kind: 'spec', message: 'the spec is not an object' } };
  // Copying and compiling recurse: a spec nested deeper than any real chart is refused first.
  if (deeperThan(value, MAX_SPEC_DEPTH))
    return { ok: false, problem: { kind: 'spec', message: `the spec is nested deeper than ${MAX_SPEC_DEPTH} levels` } };
  const schema = value['$schema'];
  if (typeof schema === 'string' && /\/schema\/vega\/v/.test(schema)) {
    return { ok: false, problem: { kind: 'spec', message: 'a Vega spec, not Vega-Lite' } };
  }
  if (VEGA_ONLY_KEYS.some((key) => Array.isArray(value[key]))) {
    return { ok: false, problem: { kind: 'spec', message: 'a Vega spec, not Vega-Lite' } };
  }
  if (!VEGA_LITE_KEYS.some((key) => key in value)) {
    return { ok: false, problem: { kind: 'spec', message: 'it has no mark, layer, concat, facet or repeat' } };
  }
  // A deep copy we may change: JSON text in, JSON out, so no prototype tricks survive.
  return { ok: true, spec: JSON.parse(JSON.stringify(value)) as JsonObject };
}

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

/** Theme colours read from the page, for dark mode, and a brand's font and colour. */
export interface ChartTheme {
  dark: boolean;
  /** `--service-color-text`. */
  text: string;
  /** `--service-color-text-muted`. */
  muted: string;
  /** `--service-color-border`. */
  border: string;
  /** `--service-chart-font`: the brand's font (a theme's `font`); empty or absent when none is set. */
  font?: string;
  /** `--service-chart-accent`: the brand's colour (a theme's `primaryColor`); empty or absent when none is set. */
  accent?: string;
}

/**
 * The spec to draw: a checked Vega-Lite spec with our data injected, `usermeta.embedOptions`
 * and `datasets` removed, `$schema` dropped (the installed Vega-Lite compiles it; a v5 URL would
 * only log a version warning), a `description` for assistive technology when it has none, and, in
 * dark mode, text and rule colours of the theme over the spec's own.
 */
export function prepareSpec(
  spec: JsonObject,
  records: readonly Record<string, ChartValue>[],
  options: { description: string; theme: ChartTheme },
): Record<string, unknown> {
  const prepared: JsonObject = { ...spec };
  delete prepared['$schema'];
  delete prepared['datasets'];
  const usermeta = prepared['usermeta'];
  if (isRecord(usermeta)) {
    const { embedOptions: _dropped, ...rest } = usermeta;
    prepared['usermeta'] = rest as JsonObject;
  } else if (usermeta !== undefined) delete prepared['usermeta'];
  injectData(prepared, true);
  prepared['data'] = { name: RESULT_DATA_NAME };
  if (typeof prepared['description'] !== 'string' || prepared['description'].trim() === '')
    prepared['description'] = options.description;
  if (options.theme.dark)
    prepared['config'] = darkConfig(
      isRecord(prepared['config']) ? (prepared['config'] as JsonObject) : {},
      options.theme,
    );
  if (options.theme.font || options.theme.accent)
    prepared['config'] = brandConfig(
      isRecord(prepared['config']) ? (prepared['config'] as JsonObject) : {},
      options.theme,
    );
  // Dates are not JSON: the records go in as they are.
  return { ...prepared, datasets: { [RESULT_DATA_NAME]: records } };
}

/**
 * `config` with a brand's font on every text and its colour as the single series' colour and the
 * first of the category palette, over the spec's own (the agent writes the service's default style
 * into every spec): one theme brands the charts too.
 */
function brandConfig(config: JsonObject, theme: ChartTheme): JsonObject {
  const next: JsonObject = { ...config };
  const merge = (key: string, values: JsonObject) => {
    next[key] = { ...(isRecord(config[key]) ? (config[key] as JsonObject) : {}), ...values };
  };
  if (theme.font) {
    next['font'] = theme.font;
    for (const key of ['axis', 'legend', 'header']) merge(key, { labelFont: theme.font, titleFont: theme.font });
    merge('title', { font: theme.font, subtitleFont: theme.font });
  }
  if (theme.accent) {
    merge('mark', { color: theme.accent });
    const range = isRecord(config['range']) ? (config['range'] as JsonObject) : {};
    const category = Array.isArray(range['category']) ? range['category'].slice(1) : [];
    merge('range', { category: [theme.accent, ...category] });
  }
  return next;
}

/** `config` with the theme's text and rule colours over the spec's own (dark mode). */
function darkConfig(config: JsonObject, theme: ChartTheme): JsonObject {
  const merge = (key: string, values: JsonObject): JsonObject => ({
    ...(isRecord(config[key]) ? (config[key] as JsonObject) : {}),
    ...values,
  });
  return {
    ...config,
    background: 'transparent',
    axis: merge('axis', {
      labelColor: theme.text,
      titleColor: theme.text,
      gridColor: theme.border,
      domainColor: theme.muted,
      tickColor: theme.muted,
    }),
    legend: merge('legend', { labelColor: theme.text, titleColor: theme.text }),
    header: merge('header', { labelColor: theme.text, titleColor: theme.text }),
    title: merge('title', { color: theme.text, subtitleColor: theme.muted }),
    view: merge('view', { stroke: theme.border }),
  };
}

/**
 * The base `config` of every chart: the service's official default style (font, label colour,
 * category palette) on a transparent background. A spec's own `config` wins over it.
 */
export function baseConfig(): Record<string, unknown> {
  return { background: 'transparent', ...defaultChartConfig() };
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
  expressionInterpreter: unknown;
}

let loading: Promise<LoadedVega> | undefined;

/**
 * Loads vega-embed (with vega-lite and vega) and vega-interpreter, once per page. A failed load
 * (the optional peers are not installed) is not cached, so a later chart tries again.
 */
export function loadVega(): Promise<LoadedVega> {
  loading ??= Promise.all([import('vega-embed'), import('vega-interpreter')]).then(
    ([embedModule, interpreterModule]) => ({
      embed: embedModule.default as unknown as EmbedFunction,
      expressionInterpreter: interpreterModule.expressionInterpreter,
    }),
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
 * with {@link ChartLibrariesUnavailable} when the libraries cannot be loaded, with Vega's own error
 * when the spec cannot be compiled or run.
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
  if (options.signal?.aborted) return () => {};
  const { embed, expressionInterpreter } = loaded;
  const result = await embed(element, spec, {
    mode: 'vega-lite',
    renderer: 'svg',
    actions: false,
    ast: true,
    expr: expressionInterpreter,
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
    config: baseConfig(),
    hover: false,
    // Silent: specs written for Vega-Lite 5 log harmless warnings in 6.
    logLevel: 0,
  });
  return () => result.finalize();
}
