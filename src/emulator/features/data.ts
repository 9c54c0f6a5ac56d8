/**
 * The data API (interface 4.5, behaviour 3) of each deployment, at `{data_url}` =
 * `{url}/data/{deploymentId}`:
 *
 * - `POST /v1/cubesql` `{ query, timezone? }`: NDJSON stream, the schema line, then data lines of
 *   `cubesqlRowsPerLine` rows (values as strings), read from DuckDB as the client reads; a SQL error
 *   (before or after rows) is a final `{"error"}` line of the 200 stream.
 * - `POST /v1/load` `{ query }`, or with `queryType: 'multi'` (one query or an array), and the same
 *   as `GET /v1/load?query=<JSON>&queryType=multi`, as published clients send it. With
 *   `queryType: 'multi'` the answer is `{ queryType, results, pivotQuery, slowQuery }`:
 *   `regularQuery` for one query, `blendingQuery` for an array (see `world.ts` for the details).
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
import { CONTINUE_WAIT, type LoadQuery, type LoadResponse, type MultiLoadResponse } from '../../core/protocol/data';
import { requireDataToken } from '../auth';
import type { EmulatorContext, EmulatorEnv, EmulatorFeature } from '../context';
import { streamCubeSql } from '../data/cubesql';
import { isValidTimeZone, type QueryScope } from '../data/engine';
import { UserError, checkLoadQuery, compileLoadQuery, runLoadQuery } from '../data/load';
import { metaResponse } from '../data/model';
import { attributesFromClaims, rowLevelPredicates } from '../data/security';
import { httpError, jsonResponse, parseRequestJson, readBodyText, userError } from '../http';
import { setBounded } from '../state';
import { DATA_REFERENCE_DAY, MAX_BODY_BYTES, findDeployment, parseDeploymentId } from '../world';

/** Header that marks a request slow: the number of `Continue wait` answers before the data. */
export const SLOW_QUERY_HEADER = 'x-emulator-slow';

function deploymentIdOf(c: Context<EmulatorEnv>): number {
  // The first middleware refused every non-canonical id: this is always a number here.
  return parseDeploymentId(c.req.param('deploymentId')) ?? Number.NaN;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses JSON of a body or of the `query` parameter; problems are user errors (400). */
function parseDataJson(text: string): unknown {
  return parseRequestJson(text, (reason) => userError(reason));
}

async function readDataBody(c: Context<EmulatorEnv>): Promise<Record<string, unknown>> {
  const body = parseDataJson(await readBodyText(c, MAX_BODY_BYTES));
  if (!isRecord(body)) throw userError('Request body must be a JSON object');
  return body;
}

/** The members of `key` over several queries, first appearance first. */
function unionOf(queries: readonly LoadQuery[], key: 'measures' | 'dimensions'): string[] {
  return [...new Set(queries.flatMap((query) => query[key] ?? []))];
}

/** The granularity a data blending query pivots by: the one of each query's first time dimension. */
function blendingGranularity(queries: readonly LoadQuery[]): string | undefined {
  const granularities = new Set(
    queries.map((query) => query.timeDimensions?.[0]?.granularity).filter((value) => typeof value === 'string'),
  );
  if (granularities.size > 1) throw userError('Data blending query granularities must match');
  return [...granularities][0];
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
      const key = JSON.stringify([
        c.req.method,
        c.req.path,
        new URL(c.req.url).search,
        c.req.header('authorization'),
        body,
      ]);
      const given = slowAttempts.get(key) ?? 0;
      if (given < wanted) {
        setBounded(slowAttempts, key, given + 1);
        return true;
      }
      slowAttempts.delete(key);
      return false;
    }

    app.use('/:deploymentId/*', async (c, next) => {
      const id = parseDeploymentId(c.req.param('deploymentId'));
      if (id === undefined || !findDeployment(context.world, id))
        throw httpError(404, `Deployment ${c.req.param('deploymentId')} not found`);
      await next();
    });
    app.use('/:deploymentId/*', requireDataToken(context, deploymentIdOf));

    app.get('/:deploymentId/v1/meta', () => jsonResponse(200, metaResponse()));

    app.post('/:deploymentId/v1/cubesql', async (c) => {
      const body = await readDataBody(c);
      const query = body['query'];
      if (typeof query !== 'string' || query.trim() === '')
        throw userError(
          'query must be a SQL string, e.g. "SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1"',
        );
      const timezone = body['timezone'];
      if (timezone !== undefined && (typeof timezone !== 'string' || !isValidTimeZone(timezone))) {
        throw userError(`Unknown timezone ${JSON.stringify(timezone)}: use an IANA name such as "Europe/Berlin"`);
      }
      if (stillWaiting(c, JSON.stringify(body))) return jsonResponse(200, { error: CONTINUE_WAIT });
      await context.data.ready;
      const left = new AbortController();
      const lines = streamCubeSql(context.data, query, scopeOf(c, timezone), {
        rowsPerLine: context.options.cubesqlRowsPerLine,
        lastRefreshTime: context.data.lastRefreshTime(),
        timeoutMs: context.options.queryTimeoutMs,
        maxRows: context.options.maxQueryRows,
        maxBytes: context.options.maxQueryBytes,
        signal: left.signal,
      });
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await lines.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
        },
        async cancel() {
          // The client went away: interrupt the query (the generator may be waiting on it), then
          // free the connection.
          left.abort();
          await lines.return(undefined);
        },
      });
      return new Response(stream, {
        status: 200,
        headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
      });
    });

    async function runOne(c: Context<EmulatorEnv>, item: unknown): Promise<LoadResponse> {
      try {
        const checked = checkLoadQuery(item, isValidTimeZone);
        const compiled = compileLoadQuery(checked, { now: context.clock.now(), referenceDay: DATA_REFERENCE_DAY });
        const { maxQueryRows: maxRows, maxQueryBytes: maxBytes } = context.options;
        return await runLoadQuery(context.data, compiled, scopeOf(c, checked.timezone), { maxRows, maxBytes });
      } catch (error) {
        if (error instanceof UserError) throw userError(error.message);
        throw error;
      }
    }

    /**
     * Answers `/v1/load`. `multi` is the client's `queryType=multi`: it gets the typed answer
     * (`regularQuery` or `blendingQuery`, with `pivotQuery`); without it, one query gets its bare
     * result, as the service answers old clients.
     */
    async function load(c: Context<EmulatorEnv>, query: unknown, multi: boolean, identity: string): Promise<Response> {
      if (Array.isArray(query) && !multi) {
        throw userError(
          '\'blendingQuery\' query type is not supported by the client: send queryType: "multi" with an array of queries',
        );
      }
      if (stillWaiting(c, identity)) return jsonResponse(200, { error: CONTINUE_WAIT });
      await context.data.ready;
      if (!multi) return jsonResponse(200, await runOne(c, query));
      if (!Array.isArray(query)) {
        const result = await runOne(c, query);
        const answer: MultiLoadResponse = {
          queryType: 'regularQuery',
          results: [result],
          pivotQuery: { ...result.query, queryType: 'regularQuery' },
          slowQuery: false,
        };
        return jsonResponse(200, answer);
      }
      if (query.length === 0) throw userError('query must hold at least one query');
      const results: LoadResponse[] = [];
      for (const item of query as unknown[]) results.push(await runOne(c, item));
      const queries = results.map((result) => result.query);
      const granularity = blendingGranularity(queries);
      for (const [index, result] of results.entries()) {
        result.query = { ...result.query, queryType: 'blendingQuery' };
        const timeDimension = queries[index]!.timeDimensions?.find((candidate) => candidate.granularity !== undefined);
        if (granularity === undefined || timeDimension === undefined) continue;
        // Each row also carries the shared time key, so a client pivots every measure on one axis.
        const key = `${timeDimension.dimension}.${timeDimension.granularity}`;
        for (const row of result.data) row[`time.${granularity}`] = row[key] ?? null;
      }
      const first = queries[0]!.timeDimensions?.[0];
      const pivotQuery: LoadQuery & Record<string, unknown> = {
        measures: unionOf(queries, 'measures'),
        dimensions: unionOf(queries, 'dimensions'),
        ...(granularity === undefined
          ? {}
          : {
              timeDimensions: [
                {
                  dimension: 'time',
                  granularity,
                  ...(first?.dateRange === undefined ? {} : { dateRange: first.dateRange }),
                },
              ],
            }),
        queryType: 'blendingQuery',
      };
      const answer: MultiLoadResponse = { queryType: 'blendingQuery', results, pivotQuery, slowQuery: false };
      return jsonResponse(200, answer);
    }

    app.post('/:deploymentId/v1/load', async (c) => {
      const body = await readDataBody(c);
      return load(c, body['query'], body['queryType'] === 'multi', JSON.stringify(body));
    });

    app.get('/:deploymentId/v1/load', async (c) => {
      const text = c.req.query('query');
      if (text === undefined) throw userError('query parameter is required');
      if (text.length > MAX_BODY_BYTES) throw httpError(413, `query parameter is larger than ${MAX_BODY_BYTES} bytes`);
      return load(c, parseDataJson(text), c.req.query('queryType') === 'multi', '');
    });

    return app;
  },
};
