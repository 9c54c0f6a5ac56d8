// @vitest-environment node
/**
 * What one data API query may return: at most `maxQueryRows` rows and `maxQueryBytes` bytes of
 * values (defaults in `world.ts`). Beyond either, `/v1/cubesql` ends with an `{"error"}` line and
 * `/v1/load` answers a 400 user error; neither sends a truncated result, and the engine stops at
 * the limit instead of building the whole result.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceConfigError } from '../../../src/core/errors';
import { MAX_QUERY_BYTES, MAX_QUERY_ROWS, startEmulator, type RunningEmulator } from '../../../src/emulator';
import { HOSTILE_DATA_QUERIES } from '../../helpers/hostile-corpus';
import { useEmulator } from '../../helpers/emulator';
import { dataToken, postData } from './helpers';

const defaults = useEmulator();
const small = useEmulator({ maxQueryRows: 1000, maxQueryBytes: 20_000 });
let token: string;

beforeAll(async () => {
  token = await dataToken();
});

async function sql(emulator: RunningEmulator, query: string) {
  const lines = (await postData(emulator, '/v1/cubesql', { query }, { token })).lines();
  const rows = lines.flatMap((line) => (line['data'] as unknown[][] | undefined) ?? []);
  return { schema: lines[0]?.['schema'], rows, last: lines.at(-1) };
}

describe('data API result limits', () => {
  it(`defaults: ${MAX_QUERY_ROWS} rows and ${MAX_QUERY_BYTES} bytes; all orders fit`, async () => {
    const orders = await sql(defaults, 'SELECT * FROM orders');
    expect(orders.rows).toHaveLength(120_000);
    expect(orders.last).not.toHaveProperty('error');
  }, 30_000);

  it('SELECT * FROM range(2e7): the schema, then an error line, no data; memory stays flat', async () => {
    await sql(defaults, 'SELECT 1');
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const result = await sql(defaults, HOSTILE_DATA_QUERIES.manyRows).finally(() => clearInterval(sampler));
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(result.schema).toEqual([{ name: 'range', column_type: 'Int64' }]);
    expect(result.rows).toEqual([]);
    expect(result.last).toEqual({ error: expect.stringMatching(/more than 1000000 rows .*maxQueryRows/) });
    // Unbounded, this query took 330 MB more (250 MB of NDJSON); capped, it reads a million rows.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('/v1/cubesql: exactly maxQueryRows rows pass; one more, or too many bytes, is an error line and no data', async () => {
    const atLimit = await sql(small, 'SELECT id FROM orders ORDER BY id LIMIT 1000');
    expect(atLimit.rows).toHaveLength(1000);
    expect(atLimit.rows.at(-1)).toEqual(['1000']);
    const over = await sql(small, 'SELECT id FROM orders ORDER BY id LIMIT 1001');
    expect(over.rows).toEqual([]);
    expect(over.last).toEqual({ error: expect.stringMatching(/^Error during execution: .*more than 1000 rows/) });
    // 200 rows of 100 bytes is 20,000 bytes of values: allowed; 201 are not.
    expect((await sql(small, HOSTILE_DATA_QUERIES.wideRows(200, 100))).rows).toHaveLength(200);
    const wide = await sql(small, HOSTILE_DATA_QUERIES.wideRows(201, 100));
    expect(wide.rows).toEqual([]);
    expect(wide.last).toEqual({
      error: expect.stringMatching(/^Error during execution: .*more than 20000 bytes of values .*maxQueryBytes/),
    });
  });

  it('/v1/load: more rows than maxQueryRows, or more bytes than maxQueryBytes, is a 400 user error', async () => {
    const load = (query: unknown) => postData(small, '/v1/load', { query }, { token });
    const atLimit = await load(HOSTILE_DATA_QUERIES.everyOrderId(1000));
    expect(atLimit.status).toBe(200);
    expect((atLimit.json() as { data: unknown[] }).data).toHaveLength(1000);
    const rows = await load(HOSTILE_DATA_QUERIES.everyOrderId(1001));
    expect(rows.status).toBe(400);
    expect(rows.json()).toEqual({ type: 'UserError', error: expect.stringMatching(/more than 1000 rows/) });
    const bytes = await load(HOSTILE_DATA_QUERIES.namedOrders(1000));
    expect(bytes.status).toBe(400);
    expect(bytes.json()).toEqual({ type: 'UserError', error: expect.stringMatching(/more than 20000 bytes/) });
    // The same limits for each query of a multi query.
    const multi = await postData(
      small,
      '/v1/load',
      { query: [HOSTILE_DATA_QUERIES.everyOrderId(10), HOSTILE_DATA_QUERIES.everyOrderId(1001)], queryType: 'multi' },
      { token },
    );
    expect(multi.status).toBe(400);
  });

  it('startEmulator refuses limits that are not whole numbers of 1 or more', async () => {
    for (const options of [{ maxQueryRows: 0 }, { maxQueryBytes: 1.5 }]) {
      await expect(startEmulator(options)).rejects.toSatisfy(ServiceConfigError.isInstance.bind(ServiceConfigError));
    }
  });
});
