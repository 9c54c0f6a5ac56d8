/**
 * The data API (interface 4.5, behaviour 3) of each deployment, at `{data_url}` =
 * `{url}/data/{deploymentId}`:
 *
 * - `POST /v1/cubesql` `{ query, timezone? }`: NDJSON stream, the schema line, then data lines of
 *   `cubesqlRowsPerLine` rows (values as strings), read from DuckDB as the client reads; a SQL error
 *   (before or after rows) is a final `{"error"}` line of the 200 stream.
 * - `POST /v1/load` `{ query }` or `{ query: [...], queryType: 'multi' }` (also `GET ?query=`).
 * - `GET /v1/meta`.
 *
 * Auth: the deployment's JWT in `Authorization` (`auth.ts`); its claims give row-level security
 * (`data/security.ts`) applied to every query. Unknown deployment: 404.
 *
 * Slow queries, for testing `Continue wait`: a request with the header `x-emulator-slow: N` is
 * answered HTTP 200 `{"error":"Continue wait"}` the first N times the same request (same
 * deployment, path, token and body) arrives, and with the data the time after.
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import { CONTINUE_WAIT, type LoadResponse, type MultiLoadResponse } from '../../core/protocol/data';
import { requireDataToken } from '../auth';
import type { EmulatorContext, EmulatorEnv, EmulatorFeature } from '../context';
import { streamCubeSql } from '../data/cubesql';
import { isValidTimeZone, type QueryScope } from '../data/engine';
import { UserError, checkLoadQuery, compileLoadQuery, runLoadQuery } from '../data/load';
import { metaResponse } from '../data/model';
import { attributesFromClaims, rowLevelPredicates } from '../data/security';
import { httpError, jsonResponse, userError } from '../http';
import { findDeployment } from '../world';

/** Header that marks a request slow: the number of `Continue wait` answers before the data. */
export const SLOW_QUERY_HEADER = 'x-emulator-slow';

function deploymentIdOf(c: Context<EmulatorEnv>): number {
  return Number(c.req.param('deploymentId'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readDataBody(c: Context<EmulatorEnv>): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw userError('Request body is not valid JSON');
  }
  if (!isRecord(body)) throw userError('Request body must be a JSON object');
  return body;
}

/** The data API feature. */
export const dataFeature: EmulatorFeature = {
  name: 'data',
  basePath: '/data',
  create(context: EmulatorContext) {
    const app = new Hono<EmulatorEnv>();
    /** Continue-wait answers already given, per request identity. */
    const slowAttempts = new Map<string, number>();

    function scopeOf(c: Context<EmulatorEnv>, timezone?: string): QueryScope {
      const caller = c.get('caller');
      const claims = caller.kind === 'token' ? caller.claims : {};
      const predicates = rowLevelPredicates(context.world.rowLevelSecurity, attributesFromClaims(claims));
      return timezone === undefined ? { predicates } : { predicates, timezone };
    }

    /** True when this request must still answer `Continue wait`. */
    function stillWaiting(c: Context<EmulatorEnv>, body: string): boolean {
      const header = c.req.header(SLOW_QUERY_HEADER);
      const wanted = header === undefined ? 0 : Number.parseInt(header, 10);
      if (!Number.isFinite(wanted) || wanted <= 0) return false;
      const key = JSON.stringify([c.req.method, c.req.path, new URL(c.req.url).search, c.req.header('authorization'), body]);
      const given = slowAttempts.get(key) ?? 0;
      if (given < wanted) {
        slowAttempts.set(key, given + 1);
        return true;
      }
      slowAttempts.delete(key);
      return false;
    }

    app.use('/:deploymentId/*', async (c, next) => {
      const id = deploymentIdOf(c);
      if (!Number.isInteger(id) || !findDeployment(context.world, id)) throw httpError(404, `Deployment ${c.req.param('deploymentId')} not found`);
      await next();
    });
    app.use('/:deploymentId/*', requireDataToken(context, deploymentIdOf));

    app.get('/:deploymentId/v1/meta', () => jsonResponse(200, metaResponse()));

    app.post('/:deploymentId/v1/cubesql', async (c) => {
      const body = await readDataBody(c);
      const query = body['query'];
      if (typeof query !== 'string' || query.trim() === '') throw userError('query must be a SQL string, e.g. "SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1"');
      const timezone = body['timezone'];
      if (timezone !== undefined && (typeof timezone !== 'string' || !isValidTimeZone(timezone))) {
        throw userError(`Unknown timezone ${JSON.stringify(timezone)}: use an IANA name such as "Europe/Berlin"`);
      }
      if (stillWaiting(c, JSON.stringify(body))) return jsonResponse(200, { error: CONTINUE_WAIT });
      await context.data.ready;
      const lines = streamCubeSql(context.data, query, scopeOf(c, timezone), {
        rowsPerLine: context.options.cubesqlRowsPerLine,
        lastRefreshTime: context.data.lastRefreshTime(),
      });
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
        },
        async cancel() {
          // The client went away: stop reading DuckDB and free the connection.
          await lines.return(undefined);
        },
      });
      return new Response(stream, {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
      });
    });

    async function load(c: Context<EmulatorEnv>, body: Record<string, unknown>, identity: string): Promise<Response> {
      const multi = body['queryType'] === 'multi';
      const query = body['query'];
      if (Array.isArray(query) !== multi) {
        throw userError(multi ? 'queryType "multi" needs query to be an array of queries' : 'An array of queries needs queryType: "multi"');
      }
      if (stillWaiting(c, identity)) return jsonResponse(200, { error: CONTINUE_WAIT });
      await context.data.ready;
      const run = async (item: unknown): Promise<LoadResponse> => {
        try {
          const checked = checkLoadQuery(item, isValidTimeZone);
          const compiled = compileLoadQuery(checked, { now: context.clock.now() });
          return await runLoadQuery(context.data, compiled, scopeOf(c, checked.timezone));
        } catch (error) {
          if (error instanceof UserError) throw userError(error.message);
          throw error;
        }
      };
      if (!multi) return jsonResponse(200, await run(query));
      const results: LoadResponse[] = [];
      for (const item of query as unknown[]) results.push(await run(item));
      const answer: MultiLoadResponse = { queryType: 'multi', results };
      return jsonResponse(200, answer);
    }

    app.post('/:deploymentId/v1/load', async (c) => {
      const body = await readDataBody(c);
      return load(c, body, JSON.stringify(body));
    });

    app.get('/:deploymentId/v1/load', async (c) => {
      const text = c.req.query('query');
      if (text === undefined) throw userError('query parameter is required');
      let query: unknown;
      try {
        query = JSON.parse(text);
      } catch {
        throw userError('query parameter is not valid JSON');
      }
      const queryType = c.req.query('queryType');
      return load(c, queryType === undefined ? { query } : { query, queryType }, '');
    });

    return app;
  },
};
