/**
 * Reading an agent's `vegaSpec` before anything loads: JSON text or an object, checked to be a
 * Vega-Lite spec within the length and depth limits. Small and synchronous, so a chart shows its
 * error card or its skeleton at once; everything that draws is in `vega.ts`, loaded on demand.
 *
 * @module
 */
import { isRecord } from '../../core/protocol/shared';
import { DEFAULT_CHART_LIMITS, type ChartLimits } from './chart-limits';

/** Why a spec cannot be drawn. */
export type ChartProblem =
  | { kind: 'json'; message: string }
  | { kind: 'spec'; message: string }
  | { kind: 'data'; message: string }
  | { kind: 'limit'; message: string }
  | { kind: 'unavailable'; message: string };

/** The name of the injected data source. */
export const RESULT_DATA_NAME = 'result';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Top-level keys of a Vega (not Vega-Lite) spec. */
const VEGA_ONLY_KEYS = ['marks', 'signals', 'scales', 'axes', 'legends', 'projections'] as const;
/** Keys of which a Vega-Lite spec needs at least one. */
const VEGA_LITE_KEYS = ['mark', 'layer', 'hconcat', 'vconcat', 'concat', 'facet', 'repeat', 'spec'] as const;

export { MAX_SPEC_LENGTH, MAX_SPEC_DEPTH } from './chart-limits';

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
  limits: Pick<ChartLimits, 'maxSpecLength' | 'maxSpecDepth'> = DEFAULT_CHART_LIMITS,
): { ok: true; spec: JsonObject } | { ok: false; problem: ChartProblem } {
  const { maxSpecLength, maxSpecDepth } = limits;
  let value: unknown = spec;
  if (typeof spec === 'string' && spec.length > maxSpecLength) {
    return { ok: false, problem: { kind: 'spec', message: `the spec is longer than ${maxSpecLength} characters` } };
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
  if (deeperThan(value, maxSpecDepth))
    return { ok: false, problem: { kind: 'spec', message: `the spec is nested deeper than ${maxSpecDepth} levels` } };
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
