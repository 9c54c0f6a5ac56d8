/**
 * The runtime half of a chart's safety, for what only exists once Vega runs (see
 * `chart-sanitize.ts` for the structural half):
 *
 * - a renderer (`service-svg`, Vega's SVG renderer underneath) that draws a fill, stroke or
 *   background only when it is a plain colour or a gradient of plain colours, and a cursor only
 *   when it is a keyword: colours an expression or a data field computed cannot carry a `url(...)`
 *   into the page either;
 * - an expression interpreter (around `vega-interpreter`) whose allocating functions are capped
 *   (`sequence`, `timeSequence`, `utcSequence`, `pad`, `join`, `replace`, `format` widths),
 *   which counts every array an expression returns against `maxGeneratedValues` per task, so a
 *   `flatten` of generated arrays cannot make millions of rows, and whose regular expressions run
 *   in linear time (`chart-regexp.ts`);
 * - transforms that make rows from other rows (`impute`, `fold`, `pivot`, `kde`, `quantile`) that
 *   first count what they would make against `maxGeneratedValues`: an impute over 10,000 distinct
 *   keys and 10,000 groups would make a hundred million rows, which no expression budget sees;
 * - a logger that keeps the errors Vega logs instead of throwing (a failed transform ends its
 *   pulse silently otherwise), so a chart past a limit shows its error card.
 *
 * Nothing here imports vega: it receives the loaded module, so it costs the main bundle only its
 * own few hundred bytes.
 *
 * @module
 */
import { ChartLimitError } from './chart-limit-error';
import type { ChartLimits } from './chart-limits';
import { chartRegExps, type ChartRegExps, type REGEXP_FUNCTIONS, type RegExpEngine } from './chart-regexp';
import { isPlainColor, safeGradient } from './chart-sanitize';

/** The renderer type every chart is drawn with. */
export const SAFE_RENDERER = 'service-svg';

type Item = Record<string, unknown>;
type Renderer = { style(element: Element, item: Item): void; background(...args: unknown[]): unknown };
type RendererClass = new (...args: never[]) => Renderer;

/** The parts of the `vega` module the guards use. */
export interface VegaModule {
  SVGRenderer: unknown;
  SVGHandler: unknown;
  SVGStringRenderer: unknown;
  renderModule(name: string, module?: { renderer: unknown; headless: unknown; handler: unknown }): unknown;
  expressionFunction(name: string, fn: (...args: never[]) => unknown): unknown;
  /** Vega's registry of dataflow transforms, by lower-case type. */
  transforms: Record<string, unknown>;
  View: unknown;
}

const CURSOR = /^[a-z-]+$/i;
const safeColors = /*#__PURE__*/ new Set<string>();

/** True when a colour the renderer is about to write cannot make a request. */
function safeColor(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') {
    if (safeColors.has(value)) return true;
    if (!isPlainColor(value)) return false;
    if (safeColors.size < 1000) safeColors.add(value);
    return true;
  }
  return safeGradient(value) !== undefined;
}

/** Removes from `item` every fill, stroke and cursor that could make a request. */
function cleanItem(item: Item | null | undefined): void {
  if (!item) return;
  if (!safeColor(item['fill'])) item['fill'] = null;
  if (!safeColor(item['stroke'])) item['stroke'] = null;
  const cursor = item['cursor'];
  if (cursor !== undefined && cursor !== null && !(typeof cursor === 'string' && CURSOR.test(cursor)))
    item['cursor'] = null;
}

/** Registers the `service-svg` renderer with `vega` (once per module; a second call does nothing). */
export function registerSafeRenderer(vega: VegaModule): void {
  if (vega.renderModule(SAFE_RENDERER)) return;
  const Base = vega.SVGRenderer as RendererClass;
  class SafeSvgRenderer extends Base {
    override style(element: Element, item: Item): void {
      cleanItem(item);
      super.style(element, item);
    }

    override background(...args: unknown[]): unknown {
      if (args.length > 0 && !(typeof args[0] === 'string' && isPlainColor(args[0]))) args[0] = null;
      return super.background(...args);
    }
  }
  vega.renderModule(SAFE_RENDERER, {
    renderer: SafeSvgRenderer,
    headless: vega.SVGStringRenderer,
    handler: vega.SVGHandler,
  });
}

// ---------------------------------------------------------------------------------------------
// The expression interpreter

type Evaluator = (...args: unknown[]) => unknown;
type Context = { functions: Record<string, unknown> };

/** The shape of `vega-interpreter`'s `expressionInterpreter`. */
export interface ExpressionInterpreter {
  operator(context: Context, expression: unknown): Evaluator;
  parameter(context: Context, expression: unknown): Evaluator;
  event(context: Context, expression: unknown): Evaluator;
  handler(context: Context, expression: unknown): Evaluator;
  encode(context: Context, encode: unknown): Evaluator;
}

/** Values generated within one task, against `maxGeneratedValues`. */
interface Budget {
  /** Throws when `count` more values would pass the limit. */
  ensure(count: number): void;
  /** Counts `count` values made. */
  charge(count: number): void;
}

function createBudget(max: number): Budget {
  let used = 0;
  let resetting = false;
  const over = (count: number) =>
    new ChartLimitError(
      'maxGeneratedValues',
      `the chart's expressions generate ${used + count > max * 10 ? 'far ' : ''}more than ${max} values`,
    );
  return {
    ensure(count) {
      if (used + count > max) throw over(count);
    },
    charge(count) {
      // A freeze is one long task: the count starts again with the next one.
      if (!resetting) {
        resetting = true;
        setTimeout(() => {
          used = 0;
          resetting = false;
        }, 0);
      }
      if (used + count > max) throw over(count);
      used += count;
    },
  };
}

const UNIT_MS: Record<string, number> = {
  year: 31_536_000_000,
  quarter: 7_776_000_000,
  month: 2_419_200_000,
  week: 604_800_000,
  date: 86_400_000,
  day: 86_400_000,
  dayofyear: 86_400_000,
  hours: 3_600_000,
  minutes: 60_000,
  seconds: 1_000,
  milliseconds: 1,
};

/** The number of elements `sequence(start?, stop, step?)` makes. */
function sequenceLength(args: unknown[]): number {
  const [start, stop, step = 1] = args.length < 2 ? [0, args[0], 1] : args;
  const count = Math.ceil((Number(stop) - Number(start)) / Number(step));
  return Number.isFinite(count) ? Math.max(0, count) : 0;
}

/** d3-format's specifier grammar; group 6 is the width it pads to. */
const FORMAT_SPECIFIER = /^(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(\.\d+)?(~)?([a-z%])?$/i;

function capFunctions(
  functions: Record<string, unknown>,
  budget: Budget,
  limits: ChartLimits,
  regexps: ChartRegExps,
): object {
  const { maxStringLength } = limits;
  const original = (name: string) => functions[name] as Evaluator;
  const tooLong = (length: number, what: string) => {
    if (length > maxStringLength)
      throw new ChartLimitError('maxStringLength', `${what} would build a string longer than ${maxStringLength}`);
  };
  const capped: Record<string, Evaluator> = {
    sequence(...args) {
      budget.ensure(sequenceLength(args));
      return original('sequence').apply(this, args);
    },
    timeSequence(...args) {
      const [unit, start, stop, step = 1] = args;
      budget.ensure(Math.ceil((Number(stop) - Number(start)) / ((UNIT_MS[String(unit)] ?? 1) * Number(step))) || 0);
      return original('timeSequence').apply(this, args);
    },
    utcSequence(...args) {
      const [unit, start, stop, step = 1] = args;
      budget.ensure(Math.ceil((Number(stop) - Number(start)) / ((UNIT_MS[String(unit)] ?? 1) * Number(step))) || 0);
      return original('utcSequence').apply(this, args);
    },
    pad(...args) {
      tooLong(Number(args[1]) || 0, 'pad()');
      return original('pad').apply(this, args);
    },
    join(...args) {
      const [array, separator = ','] = args;
      if (Array.isArray(array)) {
        let length = Math.max(0, array.length - 1) * String(separator).length;
        for (const item of array) length += item === null || item === undefined ? 0 : String(item).length;
        tooLong(length, 'join()');
      }
      return original('join').apply(this, args);
    },
    replace(...args) {
      const [text, pattern, replacement] = args;
      if (!(pattern instanceof RegExp)) return original('replace').apply(this, args);
      const length = String(text).length;
      if (pattern.global) tooLong((length + 1) * String(replacement).length + length, 'replace()');
      return regexps.replace(String(text), pattern, String(replacement));
    },
    format(...args) {
      const width = FORMAT_SPECIFIER.exec(String(args[1] ?? ''))?.[6];
      if (width) tooLong(Number(width), 'format()');
      return original('format').apply(this, args);
    },
  };
  // Not in Vega's function table but in vega-interpreter's own, which it falls back to: these
  // are always replaced, so no chart pattern ever runs on JavaScript's backtracking engine.
  const runningRegExps: Record<(typeof REGEXP_FUNCTIONS)[number], Evaluator> = {
    regexp: (pattern, flags) => regexps.regexp(pattern, flags),
    test: (pattern, text) => regexps.test(pattern, text),
    replace: capped['replace']!,
    split(text, separator, limit) {
      const count = limit === undefined ? undefined : Number(limit);
      return separator instanceof RegExp
        ? regexps.split(String(text), separator, count)
        : String(text).split(separator as string, count);
    },
  };
  const result = Object.create(functions) as Record<string, unknown>;
  for (const [name, capped_] of Object.entries(capped))
    if (typeof functions[name] === 'function') result[name] = capped_;
  Object.assign(result, runningRegExps);
  return result;
}

/**
 * `interpreter` with its allocating functions capped, every array an expression returns counted
 * against `limits.maxGeneratedValues`, and its regular expressions run on `regExpEngine` (all
 * refused without it; `chart-regexp.ts`). One per chart: the count is the chart's own.
 */
export function guardInterpreter(
  interpreter: ExpressionInterpreter,
  limits: ChartLimits,
  regExpEngine?: RegExpEngine,
): ExpressionInterpreter {
  const budget = createBudget(limits.maxGeneratedValues);
  const regexps = chartRegExps(regExpEngine);
  const cache = new WeakMap<object, object>();
  const guarded = (context: Context): Context => {
    let functions = cache.get(context.functions);
    if (!functions) {
      functions = capFunctions(context.functions, budget, limits, regexps);
      cache.set(context.functions, functions);
    }
    return Object.create(context, { functions: { value: functions } }) as Context;
  };
  const checked =
    (evaluate: Evaluator): Evaluator =>
    (...args) => {
      const value = evaluate(...args);
      if (Array.isArray(value)) budget.charge(value.length);
      else if (typeof value === 'string' && value.length > limits.maxStringLength)
        throw new ChartLimitError(
          'maxStringLength',
          `an expression built a string longer than ${limits.maxStringLength}`,
        );
      return value;
    };
  return {
    operator: (context, expression) => checked(interpreter.operator(guarded(context), expression)),
    parameter: (context, expression) => checked(interpreter.parameter(guarded(context), expression)),
    event: (context, expression) => checked(interpreter.event(guarded(context), expression)),
    handler: (context, expression) => checked(interpreter.handler(guarded(context), expression)),
    encode: (context, encode) => interpreter.encode(guarded(context), encode),
  };
}

// ---------------------------------------------------------------------------------------------
// Transforms that make rows

/** Where a chart's view keeps its limits, for the guarded transforms (views of other charts on the page have none). */
const VIEW_LIMITS = Symbol('service chart limits');

type Accessor = (row: unknown) => unknown;
type Pulse = { source?: readonly unknown[]; dataflow?: Partial<Record<typeof VIEW_LIMITS, ChartLimits>> };
type TransformClass = new (...args: never[]) => { transform(params: Record<string, unknown>, pulse: Pulse): unknown };

/**
 * Distinct values of `key` over `rows` and `initial`, compared as strings as Vega's transforms
 * compare them; counting stops past `stop`.
 */
function distinct(rows: readonly unknown[], key: Accessor, stop: number, initial: readonly unknown[] = []): number {
  if (initial.length > stop) return initial.length;
  const seen = new Set<string>(initial.map(String));
  for (const row of rows) {
    if (seen.size > stop) break;
    seen.add(String(key(row)));
  }
  return seen.size;
}

/** A group's key, as Vega's impute and aggregate make it: the groupby values, joined. */
const groupKey = (groupby: unknown): Accessor => {
  const accessors = (Array.isArray(groupby) ? groupby : []) as Accessor[];
  return (row) => accessors.map((accessor) => accessor(row)).join();
};

/** How many values each guarded transform would make of `rows`, counted up to about `stop`. */
const ROWS_MADE: Record<string, (params: Record<string, unknown>, rows: readonly unknown[], stop: number) => number> = {
  // A row for every key (`keyvals` too) in every group.
  impute: (params, rows, stop) =>
    distinct(rows, params['key'] as Accessor, stop, Array.isArray(params['keyvals']) ? params['keyvals'] : []) *
    distinct(rows, groupKey(params['groupby']), stop),
  // A row for every field of every row.
  fold: (params, rows) => rows.length * (Array.isArray(params['fields']) ? params['fields'].length : 0),
  // A value for every pivot key in every group.
  pivot: (params, rows, stop) =>
    distinct(rows, params['field'] as Accessor, stop) * distinct(rows, groupKey(params['groupby']), stop),
  // A curve of `steps` samples (at most `maxsteps`, default 200) for every group (Vega-Lite's `density`).
  kde: (params, rows, stop) =>
    distinct(rows, groupKey(params['groupby']), stop) * (Number(params['steps']) || Number(params['maxsteps']) || 200),
  // A row for every probability (`probs`, or one each `step`, default 0.01) in every group.
  quantile: (params, rows, stop) =>
    distinct(rows, groupKey(params['groupby']), stop) *
    (Array.isArray(params['probs']) ? params['probs'].length : Math.ceil(1 / (Number(params['step']) || 0.01))),
};

/** What the error says each transform is, in Vega-Lite's words. */
const TRANSFORM_NAMES: Record<string, string> = {
  impute: 'an impute',
  fold: 'a fold',
  pivot: 'a pivot',
  kde: 'a density',
  quantile: 'a quantile',
};

/**
 * Registers with `vega` the transforms that make rows, guarded (once per module). A view made with
 * {@link limitedViewClass} has them count first what they would make and throw a
 * `ChartLimitError` past `maxGeneratedValues`; views without limits run them as Vega does.
 */
export function registerGuardedTransforms(vega: VegaModule): void {
  for (const [type, rowsMade] of Object.entries(ROWS_MADE)) {
    const Base = vega.transforms[type] as (TransformClass & { [VIEW_LIMITS]?: true }) | undefined;
    if (!Base || Base[VIEW_LIMITS]) continue;
    class Guarded extends Base {
      static override readonly [VIEW_LIMITS] = true;

      override transform(params: Record<string, unknown>, pulse: Pulse): unknown {
        const limits = pulse.dataflow?.[VIEW_LIMITS];
        if (limits) {
          const max = limits.maxGeneratedValues;
          const made = rowsMade(params, pulse.source ?? [], max);
          if (made > max)
            throw new ChartLimitError(
              'maxGeneratedValues',
              `${TRANSFORM_NAMES[type] ?? type} would make more than ${max} values`,
            );
        }
        return super.transform(params, pulse);
      }
    }
    vega.transforms[type] = Guarded;
  }
}

/** A `View` class (vega-embed's `viewClass`) whose views carry `limits` for the guarded transforms. */
export function limitedViewClass(vega: VegaModule, limits: ChartLimits): unknown {
  const Base = vega.View as new (...args: never[]) => object;
  return class LimitedView extends Base {
    readonly [VIEW_LIMITS] = limits;
  };
}

// ---------------------------------------------------------------------------------------------
// The logger

/** A Vega logger that keeps errors (Vega logs a failed pulse and carries on) and prints nothing. */
export interface CollectingLogger {
  /** Pass as vega-embed's `logger`. */
  logger: {
    level(level?: number): unknown;
    error(...args: unknown[]): unknown;
    warn(...args: unknown[]): unknown;
    info(...args: unknown[]): unknown;
    debug(...args: unknown[]): unknown;
  };
  /** The errors logged so far. */
  errors: unknown[];
}

/** A logger that collects the errors Vega reports. */
export function createCollectingLogger(): CollectingLogger {
  const errors: unknown[] = [];
  let currentLevel = 0;
  const logger: CollectingLogger['logger'] = {
    level(level) {
      if (level === undefined) return currentLevel;
      currentLevel = level;
      return logger;
    },
    error(...args) {
      errors.push(args.find((arg) => arg instanceof Error) ?? args.join(' '));
      return logger;
    },
    warn: () => logger,
    info: () => logger,
    debug: () => logger,
  };
  return { logger, errors };
}
