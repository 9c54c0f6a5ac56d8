// @vitest-environment node
/**
 * Properties over generated hostile input. Whatever arrives, the emulator answers with
 * the endpoint's own error shape, never a 500, and never lets the system catalogue or the engine's
 * texts through `/v1/cubesql`.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API_KEY } from '../../../src/emulator';
import { useEmulator } from '../../helpers/emulator';
import { dataToken, postData } from './helpers';

let token: string;

const emulator = useEmulator({ chatPace: 'instant', queryTimeoutMs: 2000 });

beforeAll(async () => {
  token = await dataToken();
});

/** JSON values with the member names, operators and shapes of a load query mixed in. */
const loadish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(
      'orders.count',
      'orders.status',
      'orders.created_at',
      'products.count',
      'equals',
      'inDateRange',
      'last 6 months',
      'month',
      '__proto__',
      'constructor',
      '',
    ),
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom(
        'measures',
        'dimensions',
        'timeDimensions',
        'filters',
        'member',
        'operator',
        'values',
        'and',
        'or',
        'dateRange',
        'granularity',
        'dimension',
        'order',
        'limit',
        'offset',
        'timezone',
        '__proto__',
        'constructor',
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;

describe('properties: no 500 whatever arrives', () => {
  it('/v1/load (POST, and GET with queryType=multi) answers 200 or a 400 UserError', async () => {
    await fc.assert(
      fc.asyncProperty(loadish, fc.boolean(), async (query, multi) => {
        const post = await postData(emulator, '/v1/load', multi ? { query, queryType: 'multi' } : { query }, { token });
        expect([200, 400], post.text).toContain(post.status);
        if (post.status === 400) expect(post.json()).toMatchObject({ type: 'UserError', error: expect.any(String) });
        const get = await fetch(
          `${emulator.dataUrl}/v1/load?query=${encodeURIComponent(JSON.stringify(query) ?? 'null')}&queryType=multi`,
          { headers: { authorization: token } },
        );
        expect([200, 400]).toContain(get.status);
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('/v1/cubesql: SQL assembled from hostile pieces never reaches the catalogue or shows engine texts', async () => {
    const piece = fc.constantFrom(
      'SELECT',
      '*',
      'FROM',
      'WITH',
      'AS',
      '(',
      ')',
      ',',
      'orders',
      'customers',
      'duckdb_views',
      'duckdb_tables',
      'pg_settings',
      'information_schema.tables',
      'sqlite_master',
      'version()',
      "current_setting('threads')",
      'MEASURE(orders.count)',
      'status',
      'x',
      's',
      '1',
      'UNION ALL',
      'WHERE',
      'GROUP BY 1',
      'SHOW',
      'TABLES',
      'DESCRIBE',
      'PRAGMA',
      ';',
      "'",
      'duckdb_functions()',
      'main.orders',
      'raw.orders',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 14 }), async (pieces) => {
        const query = pieces.join(' ');
        const result = await postData(emulator, '/v1/cubesql', { query }, { token });
        expect(result.status).toBe(200);
        for (const line of result.lines()) {
          if ('error' in line)
            expect(String(line['error']), query).not.toMatch(
              /(Binder|Catalog|Parser|Conversion|Invalid Input) Error|LINE \d|Did you mean/,
            );
        }
        expect(result.text, query).not.toMatch(/CREATE (TEMP )?VIEW|raw\.orders"|v1\.\d+\.\d+|enable_external_access/i);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('generate-session, upsert and chat answer any JSON body with their own error shape', async () => {
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.dictionary(
        fc.constantFrom(
          'deploymentId',
          'externalId',
          'securityContext',
          'userAttributes',
          'groups',
          'input',
          'sessionSettings',
          'name',
          'meta',
          '__proto__',
        ),
        fc.jsonValue({ maxDepth: 3 }),
        { maxKeys: 5 },
      ),
    );
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        const text = JSON.stringify(value);
        const answers = await Promise.all([
          fetch(`${emulator.url}/api/v1/embed/generate-session`, {
            method: 'POST',
            headers: { authorization: `Api-Key ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
            body: text,
          }),
          fetch(`${emulator.url}/api/v1/deployments/1/workbooks/by-slug/fuzzed`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
            body: text,
          }),
          fetch(`${emulator.aiUrl}/chat/abort`, {
            method: 'POST',
            headers: { authorization: `Api-Key ${ADMIN_API_KEY}`, 'content-type': 'application/json' },
            body: text,
          }),
        ]);
        for (const answer of answers) {
          expect(answer.status, `${answer.url} ${text}`).toBeLessThan(500);
          const reply = await answer.text();
          if (answer.status >= 400) expect(JSON.parse(reply)).toMatchObject({ error: expect.any(String) });
        }
      }),
      { numRuns: 120 },
    );
  }, 60_000);
});
