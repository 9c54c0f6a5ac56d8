/**
 * Limits that keep an agent's chart spec from freezing or exhausting the page. A Vega-Lite spec
 * is a program: its transforms and expressions can generate millions of rows, its sizes can ask
 * for a canvas millions of pixels wide, its facets and repeats can multiply the views. Each limit
 * below is checked before anything is drawn (on the spec, on the rows) or while Vega runs (on
 * what expressions generate); a chart past one shows the chart's error card, and the table of the
 * same result stays usable.
 *
 * @module
 */

/** Limits of a chart (`ResultChart`'s `limits` prop); the defaults are {@link DEFAULT_CHART_LIMITS}. */
export interface ChartLimits {
  /** Characters of a spec given as JSON text. Default 1,000,000 (a chart spec is a few kilobytes). */
  maxSpecLength: number;
  /** Nesting of objects and arrays in a spec. Default 64 (real specs stay under 10). */
  maxSpecDepth: number;
  /**
   * Rows a chart draws. A result with more shows the error card (the table and its CSV still hold
   * every row): a chart of a part of the rows would misstate what they add up to. Default 10,000.
   */
  maxRows: number;
  /**
   * Values that the spec's expressions may generate within one task: the elements of every array
   * an expression returns (`sequence()`, `split()`, array literals, the keys of an `impute`), which
   * is also what `flatten` can turn into rows, and the dates of `timeSequence()`; and the rows an
   * `impute` (every key in every group), `fold` (every field of every row), `pivot` (every key in
   * every group), `density` or `quantile` (every sample in every group) would make, counted before
   * it makes them. Default 100,000.
   */
  maxGeneratedValues: number;
  /**
   * Characters of a string an expression may build (`pad()`, `join()`, `replace()`, `format()`
   * widths). Default 100,000.
   */
  maxStringLength: number;
  /**
   * Pixels of any width, height, padding, offset or font size in the spec (larger values are
   * lowered to this; a step, the size of one band, to a twentieth of it). Default 4,000.
   */
  maxSize: number;
  /**
   * Views of one chart: every unit of a layer, concat, repeat and facet counted (a facet or repeat
   * multiplies its inner views by its values). Default 100.
   */
  maxViews: number;
  /**
   * Bins of a `bin` (`maxbins`, and fixed steps over the data's extent), samples of a `density`,
   * and ticks and explicit `values` of an axis or legend. Default 200.
   */
  maxBins: number;
}

/** Longest `vegaSpec` text drawn by default (`DEFAULT_CHART_LIMITS.maxSpecLength`). */
export const MAX_SPEC_LENGTH = 1_000_000;
/** Deepest nesting of a spec drawn by default (`DEFAULT_CHART_LIMITS.maxSpecDepth`). */
export const MAX_SPEC_DEPTH = 64;

/** The defaults of {@link ChartLimits}. */
export const DEFAULT_CHART_LIMITS: Readonly<ChartLimits> = /*#__PURE__*/ Object.freeze({
  maxSpecLength: MAX_SPEC_LENGTH,
  maxSpecDepth: MAX_SPEC_DEPTH,
  maxRows: 10_000,
  maxGeneratedValues: 100_000,
  maxStringLength: 100_000,
  maxSize: 4_000,
  maxViews: 100,
  maxBins: 200,
});

/** `limits` over the defaults; a value that is not a positive number keeps the default. */
export function resolveChartLimits(limits: Partial<ChartLimits> | undefined): ChartLimits {
  if (!limits) return DEFAULT_CHART_LIMITS;
  const resolved = { ...DEFAULT_CHART_LIMITS };
  for (const key of Object.keys(DEFAULT_CHART_LIMITS) as (keyof ChartLimits)[]) {
    const value = limits[key];
    if (typeof value === 'number' && value > 0) resolved[key] = value;
  }
  return resolved;
}
