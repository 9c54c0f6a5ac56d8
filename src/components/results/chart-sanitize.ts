/**
 * The structural half of a chart's safety: an allow-list walk over an agent's Vega-Lite spec
 * that keeps only what cannot make the page send a request or freeze it.
 *
 * Requests: the SVG renderer writes a colour as a presentation attribute, and a CSS `url(...)`
 * there (`fill="url(https://…/x.svg#a)"`, also written with CSS escapes such as `\75rl(`) makes
 * the browser fetch it with no click; a `cursor` can name an image the same way. So every value
 * where a colour goes must be a plain colour (`#rgb` forms, `rgb()`/`hsl()`-style functions of
 * numbers, or a bare keyword such as `steelblue`), a gradient of such colours, or nothing;
 * anything else (expressions, URLs, data-driven colours without a scale) is removed, and a
 * colour channel always goes through a scale whose range is plain colours. Keys that carry URLs
 * (`href`, `url`, `config.locale`) are removed, and a cursor must be a keyword; `usermeta` is
 * free-form and read by nothing once vega-embed's `embedOptions` is gone, so it stays as it is. The
 * renderer checks the colours again as it draws (see `chart-guards.ts`), for the ones an
 * expression computes.
 *
 * Freezes: sizes, bins, ticks and axis values are capped, and views (layers, concats, repeats,
 * facets over the result's columns) are counted before anything runs (see `chart-limits.ts`).
 *
 * @module
 */
import { ChartLimitError } from './chart-limit-error';
import type { ChartLimits } from './chart-limits';
import type { ChartValue } from '../../core/result-data';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** A bare CSS keyword (`red`, `transparent`, `currentColor`): an identifier alone requests nothing. */
const KEYWORD = /^[a-z]+$/i;
/** A colour function of numbers only: no identifier inside, so no `url(` in any spelling. */
const COLOR_FUNCTION = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\((?:[-+0-9.e%\s,/]|deg|g?rad|turn|none)*\)$/i;

/** True when `value` is a colour that cannot make a request: hex, a keyword, or a colour function of numbers. */
export function isPlainColor(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= 100 &&
    (HEX_COLOR.test(value) || KEYWORD.test(value) || COLOR_FUNCTION.test(value))
  );
}

const GRADIENT_NUMBERS = ['x1', 'y1', 'x2', 'y2', 'r1', 'r2'] as const;

/** A Vega gradient rebuilt from its numbers and plain-colour stops; `undefined` when it is not one. */
export function safeGradient(value: unknown): JsonObject | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const gradient = value as Record<string, unknown>;
  if (gradient['gradient'] !== 'linear' && gradient['gradient'] !== 'radial') return undefined;
  const stops = gradient['stops'];
  if (!Array.isArray(stops) || stops.length > 64) return undefined;
  const clean: JsonObject = { gradient: gradient['gradient'] };
  for (const key of GRADIENT_NUMBERS) {
    const number = gradient[key];
    if (typeof number === 'number' && Number.isFinite(number)) clean[key] = number;
  }
  const cleanStops: Json[] = [];
  for (const stop of stops as unknown[]) {
    const { offset, color } = (stop ?? {}) as Record<string, unknown>;
    if (typeof offset !== 'number' || !Number.isFinite(offset) || !isPlainColor(color)) return undefined;
    cleanStops.push({ offset, color });
  }
  clean['stops'] = cleanStops;
  return clean;
}

/** A value where a colour goes, made safe: a plain colour, a safe gradient, `null`, else `undefined` (drop it). */
function colorValue(value: Json): Json | undefined {
  if (value === null || isPlainColor(value)) return value;
  return safeGradient(value);
}

const COLOR_KEYS = /*#__PURE__*/ new Set(['fill', 'stroke', 'color', 'background']);
const COLOR_CHANNELS = /*#__PURE__*/ new Set(['color', 'fill', 'stroke']);
const isColorKey = (key: string) => COLOR_KEYS.has(key) || /[a-z]Color$/.test(key);
/** Ranges of `config.range` that hold colours. */
const COLOR_RANGES = /*#__PURE__*/ new Set(['category', 'ordinal', 'ramp', 'heatmap', 'diverging']);
/** Keys that carry URLs or free-form data no chart needs. */
const DROPPED_KEYS = /*#__PURE__*/ new Set(['href', 'url', 'locale']);
/** Formatting hooks that would call expression functions by name; the chart's theme sets its own. */
const FORMAT_TYPE_KEYS = /*#__PURE__*/ new Set([
  'formatType',
  'customFormatTypes',
  'numberFormatType',
  'normalizedNumberFormatType',
  'timeFormatType',
]);
const FORMAT_KEYS = /*#__PURE__*/ new Set(['format', 'numberFormat', 'normalizedNumberFormat', 'timeFormat']);
/** Signals every Vega view has: a parameter of the same name would take them over (`cursor`: an image URL). */
const RESERVED_PARAMS = /*#__PURE__*/ new Set(['cursor', 'background', 'width', 'height', 'padding', 'autosize']);
/** Keys whose numbers are pixels: capped at `maxSize`. */
const SIZE_KEY = /(?:^|[a-z])(?:width|height|padding|offset|step|radius|fontsize|limit)$/i;
/** Objects whose `step` is in data units, not pixels. */
const DATA_STEP_PARENTS = /*#__PURE__*/ new Set(['bin', 'keyvals', 'sequence', 'timeUnit']);
const DENSITY_STEP_KEYS = /*#__PURE__*/ new Set(['steps', 'minsteps', 'maxsteps']);
const MAX_FORMAT_WIDTH = /\d{4,}/;

/** What the walk knows about the rows: per column, the numbers' extent, for bins with fixed steps. */
interface Walk {
  limits: ChartLimits;
  extent(field: unknown): [number, number] | undefined;
}

/** A colour channel (`encoding.color`, `fill`, `stroke`): values and ranges plain colours, always through a scale. */
function colorChannel(definition: Json, walk: Walk): Json | undefined {
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return undefined;
  const clean: JsonObject = {};
  for (const [key, child] of Object.entries(definition)) {
    if (key === 'value') {
      const value = colorValue(child);
      if (value !== undefined) clean[key] = value;
    } else if (key === 'condition') {
      const conditions = (Array.isArray(child) ? child : [child])
        .map((condition) => colorChannel(condition, walk))
        // A condition left without its value would not compile: it goes too.
        .filter(
          (condition): condition is JsonObject =>
            typeof condition === 'object' &&
            condition !== null &&
            !Array.isArray(condition) &&
            ('value' in condition || 'field' in condition || 'datum' in condition),
        );
      if (conditions.length > 0) clean[key] = Array.isArray(child) ? conditions : conditions[0]!;
    } else if (key === 'scale') {
      // `scale: null` would draw the data values themselves as colours.
      if (typeof child === 'object' && child !== null && !Array.isArray(child)) clean[key] = colorScale(child, walk);
    } else clean[key] = sanitizeNode(child, key, walk);
  }
  return clean;
}

/** The scale of a colour channel: its `range` plain colours or a named range, never data or an expression. */
function colorScale(scale: JsonObject, walk: Walk): JsonObject {
  const clean: JsonObject = {};
  for (const [key, child] of Object.entries(scale)) {
    if (key === 'range') {
      if (Array.isArray(child) ? child.every(isPlainColor) : KEYWORD.test(String(child))) clean[key] = child;
    } else if (key === 'type') {
      if (child !== 'identity') clean[key] = child;
    } else clean[key] = sanitizeNode(child, key, walk);
  }
  return clean;
}

/** `config.range`: colour ranges are plain colours or a named scheme. */
function rangeConfig(ranges: Json, walk: Walk): Json {
  if (typeof ranges !== 'object' || ranges === null || Array.isArray(ranges)) return {};
  const clean: JsonObject = {};
  for (const [key, child] of Object.entries(ranges)) {
    if (!COLOR_RANGES.has(key)) clean[key] = sanitizeNode(child, key, walk);
    else if (Array.isArray(child)) {
      if (child.every(isPlainColor)) clean[key] = child;
    } else if (typeof child === 'object' && child !== null && typeof child['scheme'] === 'string') {
      clean[key] = sanitizeNode(child, key, walk);
    }
  }
  return clean;
}

/** A `bin` definition: `maxbins` capped; a fixed step kept only when it makes at most `maxBins` bins. */
function binDefinition(bin: JsonObject, field: unknown, walk: Walk): JsonObject {
  const { maxBins } = walk.limits;
  const clean = sanitizeObject(bin, 'bin', walk);
  if (typeof clean['maxbins'] === 'number') clean['maxbins'] = Math.min(clean['maxbins'], maxBins);
  const given = clean['extent'];
  const extent =
    Array.isArray(given) && typeof given[0] === 'number' && typeof given[1] === 'number'
      ? ([given[0], given[1]] as [number, number])
      : walk.extent(field);
  for (const key of ['step', 'minstep'] as const) {
    const step = clean[key];
    if (step === undefined) continue;
    if (typeof step !== 'number' || !(step > 0) || !extent || (extent[1] - extent[0]) / step > maxBins)
      delete clean[key];
  }
  if (Array.isArray(clean['steps'])) {
    clean['steps'] = clean['steps'].filter(
      (step) =>
        typeof step === 'number' && step > 0 && extent !== undefined && (extent[1] - extent[0]) / step <= maxBins,
    );
    if ((clean['steps'] as Json[]).length === 0) delete clean['steps'];
  }
  return clean;
}

function sanitizeObject(node: JsonObject, parentKey: string, walk: Walk): JsonObject {
  const { maxSize, maxBins } = walk.limits;
  const clean: JsonObject = {};
  for (const [key, child] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key) || FORMAT_TYPE_KEYS.has(key)) continue;
    if (key === 'usermeta') {
      clean[key] = child;
      continue;
    }
    if (key === 'cursor') {
      if (typeof child === 'string' && /^[a-z-]+$/i.test(child)) clean[key] = child;
      continue;
    }
    if (parentKey === 'encoding' && COLOR_CHANNELS.has(key)) {
      const channel = colorChannel(child, walk);
      if (channel !== undefined) clean[key] = channel;
      continue;
    }
    if (isColorKey(key)) {
      const value = colorValue(child);
      if (value !== undefined) clean[key] = value;
      continue;
    }
    if (key === 'range' && parentKey === 'config') {
      clean[key] = rangeConfig(child, walk);
      continue;
    }
    if (FORMAT_KEYS.has(key) && typeof child === 'string') {
      // d3-format pads to any width it is given: `01000000000d` is a gigabyte per label.
      if (!MAX_FORMAT_WIDTH.test(child)) clean[key] = child;
      continue;
    }
    if (key === 'params' && Array.isArray(child)) {
      clean[key] = child
        .filter(
          (param) =>
            !(
              typeof param === 'object' &&
              param !== null &&
              RESERVED_PARAMS.has(String((param as JsonObject)['name']))
            ),
        )
        .map((param) => sanitizeNode(param, key, walk));
      continue;
    }
    if (key === 'bin' && typeof child === 'object' && child !== null && !Array.isArray(child)) {
      clean[key] = binDefinition(child, node['field'], walk);
      continue;
    }
    if (key === 'maxbins' && typeof child === 'number') {
      clean[key] = Math.min(child, maxBins);
      continue;
    }
    if (DENSITY_STEP_KEYS.has(key) && typeof child === 'number') {
      clean[key] = Math.min(child, maxBins);
      continue;
    }
    if (key === 'tickCount') {
      // A count, capped; a time interval (`millisecond` over years) or an expression is left to Vega's own choice.
      if (typeof child === 'number') clean[key] = Math.min(child, maxBins);
      continue;
    }
    if (key === 'values' && Array.isArray(child) && child.length > maxBins && parentKey !== 'keyvals') {
      throw new ChartLimitError('maxBins', `an axis or legend lists more than ${maxBins} values`);
    }
    if (
      typeof child === 'number' &&
      (SIZE_KEY.test(key) || parentKey === 'padding') &&
      !DATA_STEP_PARENTS.has(parentKey)
    ) {
      // A step is the size of one band, multiplied by the number of bands: a twentieth of the size.
      const max = /step$/i.test(key) ? maxSize / 20 : maxSize;
      clean[key] = Math.max(-max, Math.min(child, max));
      continue;
    }
    if (key === 'size' && typeof child === 'number') {
      clean[key] = Math.min(child, maxSize * maxSize);
      continue;
    }
    clean[key] = sanitizeNode(child, key, walk);
  }
  // A quantile's `step` is a probability: 1e-9 would ask for a billion quantiles.
  if (typeof node['quantile'] === 'string' && typeof node['step'] === 'number')
    clean['step'] = Math.max(node['step'], 1 / maxBins);
  return clean;
}

function sanitizeNode(node: Json, key: string, walk: Walk): Json {
  if (Array.isArray(node)) return node.map((item) => sanitizeNode(item, key, walk));
  if (node === null || typeof node !== 'object') return node;
  return sanitizeObject(node, key, walk);
}

// ---------------------------------------------------------------------------------------------
// Views: layers, concats, repeats and facets, counted before anything runs

const TIME_PARTS: [string, (date: Date, utc: boolean) => number][] = [
  ['year', (date, utc) => (utc ? date.getUTCFullYear() : date.getFullYear())],
  ['quarter', (date, utc) => Math.floor((utc ? date.getUTCMonth() : date.getMonth()) / 3)],
  ['month', (date, utc) => (utc ? date.getUTCMonth() : date.getMonth())],
  ['week', (date) => Math.floor(date.getTime() / 604_800_000)],
  ['date', (date, utc) => (utc ? date.getUTCDate() : date.getDate())],
  ['hours', (date, utc) => (utc ? date.getUTCHours() : date.getHours())],
  ['minutes', (date, utc) => (utc ? date.getUTCMinutes() : date.getMinutes())],
  ['seconds', (date, utc) => (utc ? date.getUTCSeconds() : date.getSeconds())],
  ['milliseconds', (date) => date.getMilliseconds()],
];

/** The key a `timeUnit` sorts a value into (an over-count is fine: the count is a bound). */
function timeKey(value: ChartValue, unit: string): unknown {
  if (!(value instanceof Date)) return value;
  const utc = unit.startsWith('utc');
  const parts = TIME_PARTS.filter(([name]) => unit.includes(name)).map(([, get]) => get(value, utc));
  if (/day(?!ofyear)/.test(unit.replace('date', ''))) parts.push(utc ? value.getUTCDay() : value.getDay());
  return parts.join('-');
}

/** The rows a chart draws, for counting. */
export interface ChartRows {
  columns: readonly string[];
  records: readonly Record<string, ChartValue>[];
}

/** Distinct values of a facet field definition, at most `stop` counted; `undefined` when it is not a column of the rows. */
function distinctValues(definition: Json, rows: ChartRows, limits: ChartLimits, stop: number): number | undefined {
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return undefined;
  const field = definition['field'];
  if (typeof field !== 'string' || !rows.columns.includes(field)) return undefined;
  const timeUnit = definition['timeUnit'];
  const unit =
    typeof timeUnit === 'string'
      ? timeUnit
      : typeof timeUnit === 'object' && timeUnit !== null && !Array.isArray(timeUnit)
        ? String(timeUnit['unit'] ?? '')
        : '';
  const seen = new Set<unknown>();
  for (const record of rows.records) {
    const value = record[field] ?? null;
    seen.add(unit ? timeKey(value, unit) : value instanceof Date ? value.getTime() : value);
    if (seen.size > stop) break;
  }
  return definition['bin'] ? Math.min(seen.size, limits.maxBins) : seen.size;
}

const FACET_CHANNELS = ['row', 'column', 'facet'] as const;

/** Views a spec draws: units, layers and concats add up; repeats and facets multiply. */
function countViews(node: Json, rows: ChartRows, limits: ChartLimits): number {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return 0;
  const sum = (children: Json) =>
    Array.isArray(children) ? children.reduce<number>((total, child) => total + countViews(child, rows, limits), 0) : 0;
  const facetCount = (definition: Json) => {
    const count = distinctValues(definition, rows, limits, limits.maxViews);
    if (count === undefined)
      throw new ChartLimitError(
        'maxViews',
        `a facet over ${JSON.stringify((definition as JsonObject | null)?.['field'] ?? null)?.slice(0, 80)}, which is not a column of the result`,
      );
    return Math.max(count, 1);
  };
  let views = 0;
  if (Array.isArray(node['layer'])) views += sum(node['layer']);
  for (const key of ['concat', 'hconcat', 'vconcat'] as const) views += sum(node[key]!);
  if (node['mark'] !== undefined) {
    views += 1;
    const encoding = node['encoding'];
    if (typeof encoding === 'object' && encoding !== null && !Array.isArray(encoding))
      for (const channel of FACET_CHANNELS) if (encoding[channel] !== undefined) views *= facetCount(encoding[channel]);
  }
  const repeat = node['repeat'];
  if (repeat !== undefined) {
    const count = Array.isArray(repeat)
      ? repeat.length
      : typeof repeat === 'object' && repeat !== null
        ? ['row', 'column', 'layer'].reduce((product, key) => {
            const list = (repeat as JsonObject)[key];
            return product * (Array.isArray(list) ? Math.max(list.length, 1) : 1);
          }, 1)
        : 1;
    views += count * countViews(node['spec'] ?? null, rows, limits);
  }
  const facet = node['facet'];
  if (facet !== undefined && node['spec'] !== undefined) {
    const definitions =
      typeof facet === 'object' && facet !== null && !Array.isArray(facet) && ('row' in facet || 'column' in facet)
        ? [facet['row'], facet['column']].filter((definition) => definition !== undefined)
        : [facet];
    views +=
      definitions.reduce<number>((product, definition) => product * facetCount(definition!), 1) *
      countViews(node['spec'], rows, limits);
  }
  return views;
}

/**
 * The spec with everything removed that could make a request, and its sizes, bins, ticks and
 * views within `limits`.
 *
 * @throws ChartLimitError when the spec draws more views than `maxViews`, facets over a field
 *   that is not a column of the rows, or lists more axis values than `maxBins`.
 */
export function sanitizeSpec(spec: JsonObject, rows: ChartRows, limits: ChartLimits): JsonObject {
  const extents = new Map<string, [number, number] | undefined>();
  const walk: Walk = {
    limits,
    extent(field) {
      if (typeof field !== 'string' || !rows.columns.includes(field)) return undefined;
      if (!extents.has(field)) {
        let low = Infinity;
        let high = -Infinity;
        for (const record of rows.records) {
          const value = record[field];
          if (typeof value === 'number' && Number.isFinite(value)) {
            low = Math.min(low, value);
            high = Math.max(high, value);
          }
        }
        extents.set(field, low <= high ? [low, high] : undefined);
      }
      return extents.get(field);
    },
  };
  // Counted before the walk: a spec of thousands of views is refused without copying them.
  const views = countViews(spec, rows, limits);
  if (views > limits.maxViews)
    throw new ChartLimitError('maxViews', `the chart draws more than ${limits.maxViews} views`);
  return sanitizeObject(spec, '', walk);
}
