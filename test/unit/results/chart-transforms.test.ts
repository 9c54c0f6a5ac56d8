// @vitest-environment node
/**
 * The transforms that make rows from rows (`impute`, `fold`, `pivot`, `kde`, `quantile`) count what they would make
 * before they make it, on real Vega and Vega-Lite: past `maxGeneratedValues` the chart's view
 * fails with a `ChartLimitError` at once instead of building millions of rows; ordinary uses
 * still give Vega's own result, and views of other charts on the page (without limits) are left
 * as Vega makes them.
 */
import * as vega from 'vega';
import * as vegaLite from 'vega-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createCollectingLogger,
  limitedViewClass,
  registerGuardedTransforms,
  type VegaModule,
} from '../../../src/components/results/chart-guards';
import { DEFAULT_CHART_LIMITS, type ChartLimits } from '../../../src/components/results/chart-limits';

const module = vega as unknown as VegaModule;

beforeAll(() => registerGuardedTransforms(module));

/**
 * Runs a Vega-Lite spec headless in a chart's view (`null`: in Vega's own view, as another chart
 * on the page would); returns the errors Vega logged and the rows of its main data.
 */
async function run(
  spec: Record<string, unknown>,
  limits: ChartLimits | null = DEFAULT_CHART_LIMITS,
): Promise<{ errors: unknown[]; rows: number }> {
  const { logger, errors } = createCollectingLogger();
  const runtime = vega.parse(vegaLite.compile(spec as unknown as vegaLite.TopLevelSpec).spec);
  const View = (limits ? limitedViewClass(module, limits) : vega.View) as typeof vega.View;
  const view = new View(runtime, { renderer: 'none', logger: logger as unknown as vega.LoggerInterface });
  await view.runAsync();
  const rows = errors.length > 0 ? 0 : view.data('data_0').length;
  view.finalize();
  return { errors, rows };
}

/** `count` rows, each with its own id and day. */
const values = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ id: `i${index}`, day: `d${index}`, orders: index % 7 }));

const line = {
  mark: 'line',
  encoding: { x: { field: 'id', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } },
};

describe('transforms that make rows', () => {
  it('an impute of every key in every group fails at once, as a ChartLimitError', async () => {
    const { errors } = await run({
      ...line,
      data: { values: values(2000) },
      transform: [{ impute: 'orders', key: 'id', groupby: ['day'] }],
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'ChartLimitError', limit: 'maxGeneratedValues' });
    expect(String((errors[0] as Error).message)).toMatch(/an impute would make more than 100000 values/);
  });

  it('so do an impute in an encoding, a fold over many fields, a pivot over every id, and densities and quantiles of every group', async () => {
    const encodingImpute = await run({
      mark: 'line',
      data: { values: values(2000) },
      encoding: {
        x: { field: 'id', type: 'nominal' },
        y: { field: 'orders', type: 'quantitative', impute: { value: 0 } },
        detail: { field: 'day', type: 'nominal' },
      },
    });
    expect(encodingImpute.errors[0]).toMatchObject({ name: 'ChartLimitError' });
    const fold = await run({
      mark: 'bar',
      data: { values: values(2000) },
      transform: [{ fold: Array.from({ length: 100 }, (_, index) => `f${index}`) }],
      encoding: { x: { field: 'key', type: 'nominal' }, y: { aggregate: 'count' } },
    });
    expect(String((fold.errors[0] as Error).message)).toMatch(/fold would make more than 100000/);
    const pivot = await run({
      mark: 'bar',
      data: { values: values(2000) },
      transform: [{ pivot: 'id', value: 'orders', groupby: ['day'] }],
      encoding: { x: { field: 'day', type: 'nominal' }, y: { field: 'i0', type: 'quantitative' } },
    });
    expect(String((pivot.errors[0] as Error).message)).toMatch(/pivot would make more than 100000/);
    const density = await run({
      mark: 'area',
      data: { values: values(2000) },
      transform: [{ density: 'orders', groupby: ['id'] }],
      encoding: { x: { field: 'value', type: 'quantitative' }, y: { field: 'density', type: 'quantitative' } },
    });
    expect(String((density.errors[0] as Error).message)).toMatch(/a density would make more than 100000/);
    const quantiles = await run({
      mark: 'point',
      data: { values: values(2000) },
      transform: [{ quantile: 'orders', groupby: ['day'] }],
      encoding: { x: { field: 'prob', type: 'quantitative' }, y: { field: 'value', type: 'quantitative' } },
    });
    expect(String((quantiles.errors[0] as Error).message)).toMatch(/quantile would make more than 100000/);
  });

  it('ordinary uses give what Vega gives: months missing in a series are imputed', async () => {
    const rows = ['east', 'west', 'north'].flatMap((region, r) =>
      Array.from({ length: 12 }, (_, month) => ({ region, month, revenue: month * 10 + r })).filter(
        (row) => (row.month + r) % 4 !== 0,
      ),
    );
    const spec = {
      data: { values: rows },
      mark: 'line',
      transform: [{ impute: 'revenue', key: 'month', groupby: ['region'], value: 0 }],
      encoding: {
        x: { field: 'month', type: 'ordinal' },
        y: { field: 'revenue', type: 'quantitative' },
        color: { field: 'region', type: 'nominal' },
      },
    };
    const guarded = await run(spec);
    const plain = await run(spec, null);
    expect(guarded.errors).toEqual([]);
    expect(guarded.rows).toBe(36);
    expect(plain.rows).toBe(guarded.rows);
  });

  it('the limit is the chart’s own, and views without limits are left as Vega makes them', async () => {
    const spec = {
      ...line,
      data: { values: values(400) },
      transform: [{ impute: 'orders', key: 'id', groupby: ['day'] }],
    };
    // 400 x 400 = 160,000 rows: over the default, within a raised limit, and Vega's own view makes them.
    expect((await run(spec)).errors).toHaveLength(1);
    expect(await run(spec, { ...DEFAULT_CHART_LIMITS, maxGeneratedValues: 200_000 })).toEqual({
      errors: [],
      rows: 160_000,
    });
    expect(await run(spec, null)).toEqual({ errors: [], rows: 160_000 });
  });
});
