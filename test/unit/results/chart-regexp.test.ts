/**
 * Regular expressions in chart expressions run on re2js, in linear time, through Vega's real
 * expression parser and vega-interpreter: a pattern that makes JavaScript's engine backtrack for
 * minutes answers at once, the usual patterns give what JavaScript gives, the ones RE2 cannot run
 * are refused with a clear error, and without the engine none runs at all.
 */
import { RE2JS } from 're2js';
import { parseExpression } from 'vega-expression';
import { functionContext } from 'vega-functions';
import { expressionInterpreter } from 'vega-interpreter';
import { describe, expect, it } from 'vitest';
import { guardInterpreter, type ExpressionInterpreter } from '../../../src/components/results/chart-guards';
import { DEFAULT_CHART_LIMITS } from '../../../src/components/results/chart-limits';
import { mayRunRegExp, type RegExpEngine } from '../../../src/components/results/chart-regexp';

const engine = RE2JS as unknown as RegExpEngine;

/** Evaluates a Vega expression with the chart's guarded interpreter (`null`: no engine loaded). */
function evaluate(source: string, regExpEngine: RegExpEngine | null = engine): unknown {
  const interpreter = guardInterpreter(
    expressionInterpreter as unknown as ExpressionInterpreter,
    DEFAULT_CHART_LIMITS,
    regExpEngine ?? undefined,
  );
  return interpreter.parameter({ functions: { ...functionContext } }, { ast: parseExpression(source) })({});
}

// 40 characters that `(a+)+$` cannot match: JavaScript's engine tries 2^40 ways.
const TRAP = `'${'a'.repeat(40)}!'`;

describe('regular expressions in chart expressions', () => {
  it('a backtracking pattern answers at once in test(), replace() and split()', () => {
    expect(evaluate(`test(/(a+)+$/, ${TRAP})`)).toBe(false);
    expect(evaluate(`test(regexp('^(a|a)*$'), ${TRAP})`)).toBe(false);
    expect(evaluate(`replace(${TRAP}, /(a+)+$/g, 'x')`)).toBe(`${'a'.repeat(40)}!`);
    expect(evaluate(`split(${TRAP}, /(a+)+b/)`)).toEqual([`${'a'.repeat(40)}!`]);
    // Polynomial backtracking, thousands of characters.
    expect(evaluate(`test(/a*a*a*a*a*a*b/, '${'a'.repeat(5000)}')`)).toBe(false);
  });

  it('gives what JavaScript gives on ordinary patterns', () => {
    expect(evaluate(`test(/^Comp/, 'Completed')`)).toBe(true);
    expect(evaluate(`test(/^comp/i, 'Completed')`)).toBe(true);
    expect(evaluate(`test(/^comp/, 'Completed')`)).toBe(false);
    expect(evaluate(`test('^\\\\d+$', '2025')`)).toBe(true);
    expect(evaluate(`test(/^b$/m, 'a\\nb')`)).toBe(true);
    expect(evaluate(`test(regexp('a.b', 's'), 'a\\nb')`)).toBe(true);
    expect(evaluate(`replace('2025-01-31', /(\\d+)-(\\d+)-(\\d+)/, '$3.$2.$1')`)).toBe('31.01.2025');
    expect(evaluate(`replace('a-b-c', /-/, '+')`)).toBe('a+b-c');
    expect(evaluate(`replace('a-b-c', /-/g, '+')`)).toBe('a+b+c');
    expect(evaluate(`replace('a-b-c', '-', '+')`)).toBe('a+b-c');
    expect(evaluate(`split('a1b22c', /\\d+/)`)).toEqual(['a', 'b', 'c']);
    expect(evaluate(`split('a1b22c', /\\d+/, 2)`)).toEqual(['a', 'b']);
    expect(evaluate(`split('a,b', ',')`)).toEqual(['a', 'b']);
    expect(evaluate(`regexp('^a', 'i')`)).toEqual(/^a/i);
  });

  it('refuses what RE2 cannot run in linear time, with the pattern in the message', () => {
    expect(() => evaluate(`test(/(a*)\\1/, 'aa')`)).toThrow(/regular expression \/\(a\*\)\\1\/ cannot run in a chart/);
    expect(() => evaluate(`test(/a(?=b)/, 'ab')`)).toThrow(/backreferences and lookarounds/);
    expect(() => evaluate(`regexp('(x+)\\\\1')`)).toThrow(/cannot run in a chart/);
  });

  it('without the engine, refuses every regular expression instead of running it on JavaScript’s', () => {
    expect(() => evaluate(`test(/(a+)+$/, ${TRAP})`, null)).toThrow(/not available/);
    expect(() => evaluate(`replace('a', /a/, 'b')`, null)).toThrow(/not available/);
    expect(() => evaluate(`split('a', /a/)`, null)).toThrow(/not available/);
    expect(() => evaluate(`regexp('a')`, null)).toThrow(/not available/);
    // Strings alone never need it.
    expect(evaluate(`replace('a-b', '-', '+')`, null)).toBe('a+b');
    expect(evaluate(`split('a-b', '-')`, null)).toEqual(['a', 'b']);
  });

  it('the engine is loaded only for a spec that names a regular expression function outside its data', () => {
    expect(mayRunRegExp({ mark: 'bar', transform: [{ filter: 'test(/^C/, datum.status)' }] })).toBe(true);
    expect(mayRunRegExp({ mark: 'bar', transform: [{ calculate: "split(datum.tags, ',')", as: 't' }] })).toBe(true);
    expect(mayRunRegExp({ mark: 'bar', transform: [{ filter: 'datum.orders > 10' }] })).toBe(false);
    expect(
      mayRunRegExp({ mark: 'bar', data: { values: [{ note: 'test(1)' }] }, datasets: { rows: [{ n: 'split(' }] } }),
    ).toBe(false);
  });
});
