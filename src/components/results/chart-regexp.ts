/**
 * Regular expressions in a chart's expressions, run in linear time. JavaScript's own engine
 * backtracks: a pattern such as `(a+)+$` takes minutes on thirty characters, and nothing can
 * interrupt a match once it runs, so one `test()` in an agent's filter would freeze the page. The
 * chart's `regexp()`, `test()`, and `replace()` / `split()` given a regular expression run on
 * re2js instead (RE2's automaton: time linear in the text, whatever the pattern), which is loaded
 * with the chart only when its spec names one of those functions. Patterns RE2 cannot run in
 * linear time (backreferences, lookaheads) are refused with an error the chart shows. Without
 * the engine loaded every one of them is refused too: JavaScript's engine never runs a chart's
 * pattern. One difference from JavaScript remains: `split()` leaves out what the pattern's groups
 * captured (JavaScript puts it between the parts); the `y` flag is ignored.
 *
 * @module
 */

/** The parts of re2js's `RE2JS` class the charts use. */
export interface RegExpEngine {
  CASE_INSENSITIVE: number;
  MULTILINE: number;
  DOTALL: number;
  translateRegExp(expression: string | RegExp): string;
  compile(pattern: string, flags?: number): CompiledRegExp;
}

/** A pattern compiled by the {@link RegExpEngine}. */
export interface CompiledRegExp {
  test(input: string): boolean;
  split(input: string, limit?: number): string[];
  matcher(input: string): { replaceAll(replacement: string): string; replaceFirst(replacement: string): string };
}

/** The names of the functions a chart expression runs a regular expression with. */
export const REGEXP_FUNCTIONS = ['regexp', 'test', 'replace', 'split'] as const;

const CALL = /\b(?:regexp|test|replace|split)\s*\(/;

/**
 * True when `spec` can call one of {@link REGEXP_FUNCTIONS}: a function is called by its name in
 * an expression, so a spec that never writes one of them runs no regular expression. Data values
 * are not looked at.
 */
export function mayRunRegExp(spec: unknown): boolean {
  const text = JSON.stringify(spec, (key, value: unknown) =>
    key === 'values' || key === 'datasets' ? undefined : value,
  );
  return text !== undefined && CALL.test(text);
}

let loading: Promise<RegExpEngine> | undefined;

/** Loads re2js, once per page; a failed load is not cached. */
export function loadRegExpEngine(): Promise<RegExpEngine> {
  loading ??= import('re2js').then(
    (module) => module.RE2JS as unknown as RegExpEngine,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The regular expression functions of one chart, on `engine` (refusing all without one). */
export interface ChartRegExps {
  /** `regexp(pattern, flags)`: checks that the engine can run it; returns an inert `RegExp` value. */
  regexp(pattern: unknown, flags?: unknown): RegExp;
  /** `test(regexp, text)`. */
  test(pattern: unknown, text: unknown): boolean;
  /** `replace(text, regexp, replacement)`; the `g` flag replaces every match. */
  replace(text: string, pattern: RegExp, replacement: string): string;
  /** `split(text, regexp, limit?)`. */
  split(text: string, pattern: RegExp, limit?: number): string[];
}

const CACHED = 100;

/** The functions of {@link ChartRegExps} on `engine`, with a cache of compiled patterns. */
export function chartRegExps(engine: RegExpEngine | undefined): ChartRegExps {
  const compiled = new Map<string, CompiledRegExp>();
  const compile = (pattern: unknown, flags = ''): CompiledRegExp => {
    const source = pattern instanceof RegExp ? pattern.source : String(pattern);
    const allFlags = pattern instanceof RegExp ? pattern.flags : flags;
    if (!engine) throw new Error('Regular expressions are not available in this chart');
    const key = `${allFlags}/${source}`;
    let regexp = compiled.get(key);
    if (!regexp) {
      let options = 0;
      if (allFlags.includes('i')) options |= engine.CASE_INSENSITIVE;
      if (allFlags.includes('m')) options |= engine.MULTILINE;
      if (allFlags.includes('s')) options |= engine.DOTALL;
      try {
        regexp = engine.compile(engine.translateRegExp(source), options);
      } catch (error) {
        throw new Error(
          `The regular expression /${source}/ cannot run in a chart (backreferences and lookarounds are not supported): ${
            error instanceof Error ? error.message : String(error)
          }`,
          { cause: error },
        );
      }
      if (compiled.size >= CACHED) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, regexp);
    }
    return regexp;
  };
  return {
    regexp(pattern, flags) {
      const text = String(pattern);
      const options = flags === undefined ? '' : String(flags);
      compile(text, options);
      return new RegExp(text, options);
    },
    test: (pattern, text) => compile(pattern).test(String(text)),
    replace(text, pattern, replacement) {
      const matcher = compile(pattern).matcher(text);
      return pattern.global ? matcher.replaceAll(replacement) : matcher.replaceFirst(replacement);
    },
    split(text, pattern, limit) {
      const parts = compile(pattern).split(text, -1);
      return limit === undefined ? parts : parts.slice(0, limit);
    },
  };
}
