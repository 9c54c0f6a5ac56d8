// @vitest-environment node
// Node's fetch only takes Node's own AbortSignal, which jsdom's globals would replace; these tests
// talk to a real socket, so they run in plain Node.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContinueWaitExhaustedError,
  DataQueryError,
  createDataClient,
  type DataClientOptions,
  type SqlChunk,
} from '../../../src/core/data-client';
import {
  ConnectionLostError,
  ServiceAbortError,
  ServiceAuthError,
  ServiceConfigError,
  ServiceError,
  ServiceHttpError,
  ServiceStreamError,
} from '../../../src/core/errors';
import {
  AUTHORIZATION_HEADER_NOT_SET,
  CONTINUE_WAIT,
  FILTER_OPERATORS,
  INVALID_TOKEN,
  classifyCubeSqlLine,
  isContinueWait,
  isUserErrorBody,
} from '../../../src/core/protocol/data';

interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: unknown, count: number) => unknown;

let server: Server;
let baseUrl: string;
let requests: Recorded[];
let handlers: Map<string, Handler>;
/** Resolvers waiting for the next request to reach the server. */
let onRequest: Array<() => void>;
/** Resolvers waiting for a response to be closed by the client. */
let onClose: Array<() => void>;

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl';
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Writes `text` to the response in pieces of `size` bytes with a pause between them. */
async function writeInPieces(res: ServerResponse, text: string, size: number): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) {
    res.write(bytes.subarray(i, i + size));
    await tick();
  }
}

const schemaLine = {
  schema: [
    { name: 'status', column_type: 'String' },
    { name: 'count', column_type: 'Int64' },
  ],
  lastRefreshTime: '2026-01-01T00:00:00.000Z',
};
const ndjson = (...lines: unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const record: Recorded = {
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
      requests.push(record);
      res.on('close', () => onClose.splice(0).forEach((resolve) => resolve()));
      onRequest.splice(0).forEach((resolve) => resolve());
      const handler = handlers.get(path);
      const count = requests.filter((r) => r.path === path).length;
      if (!handler) return json(res, 404, { error: `no handler for ${path}` });
      void Promise.resolve(handler(req, res, record.body, count)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cubejs-api`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  handlers = new Map();
  onRequest = [];
  onClose = [];
});

function client(options: Partial<DataClientOptions> = {}) {
  return createDataClient({ url: baseUrl, token: TOKEN, continueWait: { delayMs: 1 }, ...options });
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('sql (/v1/cubesql)', () => {
  it('behaviour 3 streams NDJSON written in several pieces into schema and rows', async () => {
    handlers.set('/cubejs-api/v1/cubesql', async (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      // Pieces of 7 bytes split lines, and the multi-byte "é", across writes.
      await writeInPieces(
        res,
        ndjson(
          schemaLine,
          {
            data: [
              ['completed', '12'],
              ['shipped', '7'],
            ],
          },
          { data: [['cancelé', null]] },
        ),
        7,
      );
      res.end();
    });
    const result = await client().sql('SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1');
    expect(result).toEqual({
      schema: schemaLine.schema,
      lastRefreshTime: schemaLine.lastRefreshTime,
      rows: [
        ['completed', '12'],
        ['shipped', '7'],
        ['cancelé', null],
      ],
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      body: { query: 'SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1' },
    });
  });

  it('5 the JWT is sent raw in Authorization, with no Bearer prefix', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => {
      res.end(ndjson(schemaLine));
    });
    await client().sql('SELECT 1');
    expect(requests[0]?.authorization).toBe(TOKEN);
  });

  it('5 a token function is called for every request, Continue wait repeats included', async () => {
    let calls = 0;
    handlers.set('/cubejs-api/v1/cubesql', (_req, res, _body, count) => {
      res.end(count < 3 ? ndjson({ error: CONTINUE_WAIT }) : ndjson(schemaLine));
    });
    await client({
      token: async () => {
        calls += 1;
        return `token-${calls}`;
      },
    }).sql('SELECT 1');
    expect(requests.map((r) => r.authorization)).toEqual(['token-1', 'token-2', 'token-3']);
  });

  it('5 a token function whose token is refused (401, 403) is asked again once, with { refresh: true }', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (req, res) =>
      req.headers.authorization === 'fresh' ? res.end(ndjson(schemaLine)) : json(res, 401, { error: 'expired' }),
    );
    const asked: unknown[] = [];
    await client({
      token: (request) => {
        asked.push(request);
        return request.refresh ? 'fresh' : 'kept';
      },
    }).sql('SELECT 1');
    expect(asked).toEqual([{ refresh: false }, { refresh: true }]);
    expect(requests.map((r) => r.authorization)).toEqual(['kept', 'fresh']);

    // Refused again: the ServiceAuthError, after two requests in all.
    requests = [];
    handlers.set('/cubejs-api/v1/meta', (_req, res) => json(res, 403, { error: INVALID_TOKEN }));
    const error = await caught(client({ token: () => 'kept' }).meta());
    expect(error).toMatchObject({ status: 403, code: 'unauthorized' });
    expect(requests).toHaveLength(2);
  });

  it('behaviour 3 the timezone is sent with the query', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => res.end(ndjson(schemaLine)));
    await client().sql({ query: 'SELECT 1', timezone: 'Europe/Berlin' });
    expect(requests[0]?.body).toEqual({ query: 'SELECT 1', timezone: 'Europe/Berlin' });
  });

  it('behaviour 3 sqlChunks yields the schema first, then each data line as it arrives', async () => {
    handlers.set('/cubejs-api/v1/cubesql', async (_req, res) => {
      res.writeHead(200);
      await writeInPieces(
        res,
        ndjson(
          schemaLine,
          { data: [['a', '1']] },
          {
            data: [
              ['b', '2'],
              ['c', '3'],
            ],
          },
        ),
        64,
      );
      res.end();
    });
    const chunks: SqlChunk[] = [];
    for await (const chunk of client().sqlChunks('SELECT 1')) chunks.push(chunk);
    expect(chunks).toEqual([
      { type: 'schema', schema: schemaLine.schema, lastRefreshTime: schemaLine.lastRefreshTime },
      { type: 'rows', rows: [['a', '1']] },
      {
        type: 'rows',
        rows: [
          ['b', '2'],
          ['c', '3'],
        ],
      },
    ]);
  });

  it('behaviour 3 leaving sqlChunks early closes the connection', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => {
      res.writeHead(200);
      res.write(ndjson(schemaLine));
      // The rest never comes: only the client can end this response.
    });
    const closed = new Promise<void>((resolve) => onClose.push(resolve));
    for await (const chunk of client().sqlChunks('SELECT 1')) {
      expect(chunk.type).toBe('schema');
      break;
    }
    await closed;
  });

  it('behaviour 3 Continue wait is repeated until data arrives', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res, _body, count) => {
      res.end(count <= 3 ? ndjson({ error: CONTINUE_WAIT }) : ndjson(schemaLine, { data: [['a', '1']] }));
    });
    const result = await client().sql('SELECT 1');
    expect(result.rows).toEqual([['a', '1']]);
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it('behaviour 3 Continue wait attempts are bounded: exhaustion is a ContinueWaitExhaustedError', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => res.end(ndjson({ error: CONTINUE_WAIT })));
    const error = await caught(client({ continueWait: { maxAttempts: 3, delayMs: 1 } }).sql('SELECT 1'));
    expect(ContinueWaitExhaustedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 3, code: 'continue_wait_exhausted' });
    expect(requests).toHaveLength(3);
  });

  it('behaviour 3 an abort during Continue wait rejects with ServiceAbortError and sends nothing more', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => res.end(ndjson({ error: CONTINUE_WAIT })));
    const controller = new AbortController();
    // A pause far longer than the test timeout: only the abort can end the call in time.
    const call = caught(client({ continueWait: { delayMs: 60_000 } }).sql('SELECT 1', { signal: controller.signal }));
    await new Promise<void>((resolve) => onRequest.push(resolve));
    await tick();
    controller.abort(new Error('user left'));
    const error = await call;
    expect(ServiceAbortError.isInstance(error)).toBe(true);
    expect((error as ServiceAbortError).code).toBe('aborted');
    expect(requests).toHaveLength(1);
  });

  it('behaviour 3 an abort while rows stream rejects with ServiceAbortError', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => {
      res.writeHead(200);
      res.write(ndjson(schemaLine));
    });
    const controller = new AbortController();
    const error = await caught(
      (async () => {
        for await (const chunk of client().sqlChunks('SELECT 1', { signal: controller.signal }))
          if (chunk.type === 'schema') controller.abort();
      })(),
    );
    expect(ServiceAbortError.isInstance(error)).toBe(true);
  });

  it('an already aborted signal rejects without a request', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(ServiceAbortError.isInstance(await caught(client().sql('SELECT 1', { signal: controller.signal })))).toBe(
      true,
    );
    expect(ServiceAbortError.isInstance(await caught(client().load({}, { signal: controller.signal })))).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it('behaviour 3 an error line after rows is a DataQueryError (a ServiceStreamError); the rows before it were yielded', async () => {
    handlers.set('/cubejs-api/v1/cubesql', async (_req, res) => {
      res.writeHead(200);
      await writeInPieces(res, ndjson(schemaLine, { data: [['a', '1']] }, { error: 'Query timeout' }), 16);
      res.end();
    });
    const chunks: SqlChunk[] = [];
    const error = await caught(
      (async () => {
        for await (const chunk of client().sqlChunks('SELECT 1')) chunks.push(chunk);
      })(),
    );
    expect(chunks.map((c) => c.type)).toEqual(['schema', 'rows']);
    expect(DataQueryError.isInstance(error)).toBe(true);
    expect(ServiceStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'query_error', serviceMessage: 'Query timeout' });
  });

  it('behaviour 3 a malformed line fails the query instead of silently dropping rows', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => {
      res.end(`${ndjson(schemaLine)}{"data":[["a",\n${ndjson({ data: [['b', '2']] })}`);
    });
    const error = await caught(client().sql('SELECT 1'));
    expect(ServiceStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'malformed_line' });
  });

  it('behaviour 3 a stream that ends before its schema line is an error', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) => res.end(''));
    expect(await caught(client().sql('SELECT 1'))).toMatchObject({ code: 'incomplete_stream' });
  });

  it('behaviour 3 lines of unknown shape are skipped', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) =>
      res.end(ndjson(schemaLine, { progress: 0.5 }, { data: [['a', '1']] })),
    );
    expect((await client().sql('SELECT 1')).rows).toEqual([['a', '1']]);
  });

  it('a dropped connection mid-stream is a ConnectionLostError', async () => {
    handlers.set('/cubejs-api/v1/cubesql', async (_req, res) => {
      res.writeHead(200);
      res.write(ndjson(schemaLine));
      await tick();
      res.destroy();
    });
    expect(ConnectionLostError.isInstance(await caught(client().sql('SELECT 1')))).toBe(true);
  });
});

describe('HTTP errors', () => {
  it('behaviour 3 a 400 UserError is a ServiceHttpError with the service message and body', async () => {
    handlers.set('/cubejs-api/v1/cubesql', (_req, res) =>
      json(res, 400, { type: 'UserError', error: "Unknown column 'x'" }),
    );
    const error = await caught(client().sql('SELECT x'));
    expect(ServiceHttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 400,
      code: 'bad_request',
      serviceMessage: "Unknown column 'x'",
      body: { type: 'UserError', error: "Unknown column 'x'" },
    });
    expect((error as Error).message).toContain("Unknown column 'x'");
  });

  it.each([[INVALID_TOKEN], [AUTHORIZATION_HEADER_NOT_SET]])(
    'behaviour 3 a 403 %j is a ServiceAuthError with status 403',
    async (text) => {
      handlers.set('/cubejs-api/v1/load', (_req, res) => json(res, 403, { error: text }));
      const error = await caught(client().load({ measures: ['orders.count'] }));
      expect(ServiceAuthError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ status: 403, code: 'unauthorized' });
      expect((error as Error).message).toContain(text);
    },
  );

  it('behaviour 3 a 500 is a ServiceHttpError with status 500', async () => {
    handlers.set('/cubejs-api/v1/meta', (_req, res) => json(res, 500, { error: 'Internal Server Error' }));
    const error = await caught(client().meta());
    expect(ServiceHttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, code: 'server_error', serviceMessage: 'Internal Server Error' });
  });

  it('an unreachable server is a ConnectionLostError', async () => {
    const error = await caught(createDataClient({ url: 'http://127.0.0.1:1/x', token: TOKEN }).meta());
    expect(ConnectionLostError.isInstance(error)).toBe(true);
  });
});

describe('load (/v1/load) and meta (/v1/meta)', () => {
  const loadResult = {
    query: { measures: ['orders.count'], dimensions: ['orders.status'] },
    data: [{ 'orders.status': 'completed', 'orders.count': '12' }],
    annotation: {
      measures: { 'orders.count': { title: 'Count', type: 'number' } },
      dimensions: {},
      segments: {},
      timeDimensions: {},
    },
    lastRefreshTime: '2026-01-01T00:00:00.000Z',
  };

  it('behaviour 3 load sends { query } and returns the result', async () => {
    handlers.set('/cubejs-api/v1/load', (_req, res) => json(res, 200, loadResult));
    const query = {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'last 6 months' }],
      filters: [
        {
          or: [
            { member: 'orders.status', operator: 'equals' as const, values: ['completed'] },
            { member: 'orders.status', operator: 'notSet' as const },
          ],
        },
      ],
      order: { 'orders.count': 'desc' as const },
      limit: 10,
      offset: 0,
      timezone: 'UTC',
    };
    expect(await client().load(query)).toEqual(loadResult);
    expect(requests[0]).toMatchObject({ method: 'POST', authorization: TOKEN, body: { query } });
  });

  it('behaviour 3 load with several queries sends queryType multi and returns results', async () => {
    const multi = { queryType: 'multi', results: [loadResult, { ...loadResult, data: [] }] };
    handlers.set('/cubejs-api/v1/load', (_req, res) => json(res, 200, multi));
    const result = await client().load([{ measures: ['orders.count'] }, { measures: ['orders.total'] }]);
    expect(result.queryType).toBe('multi');
    expect(result.results).toHaveLength(2);
    expect(requests[0]?.body).toEqual({
      queryType: 'multi',
      query: [{ measures: ['orders.count'] }, { measures: ['orders.total'] }],
    });
  });

  it('behaviour 3 load repeats Continue wait (HTTP 200) until data arrives', async () => {
    handlers.set('/cubejs-api/v1/load', (_req, res, _body, count) =>
      json(res, 200, count <= 2 ? { error: CONTINUE_WAIT } : loadResult),
    );
    expect((await client().load({ measures: ['orders.count'] })).data).toEqual(loadResult.data);
    expect(requests).toHaveLength(3);
  });

  it('behaviour 3 an abort during a load Continue wait rejects with ServiceAbortError', async () => {
    handlers.set('/cubejs-api/v1/load', (_req, res) => json(res, 200, { error: CONTINUE_WAIT }));
    const controller = new AbortController();
    const call = caught(client({ continueWait: { delayMs: 60_000 } }).load({}, { signal: controller.signal }));
    await new Promise<void>((resolve) => onRequest.push(resolve));
    await tick();
    controller.abort();
    expect(ServiceAbortError.isInstance(await call)).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('behaviour 3 a 200 error body other than Continue wait is a DataQueryError', async () => {
    handlers.set('/cubejs-api/v1/load', (_req, res) => json(res, 200, { error: 'Query failed' }));
    expect(await caught(client().load({}))).toMatchObject({ code: 'query_error', serviceMessage: 'Query failed' });
  });

  it('a 200 body of the wrong shape is an invalid_response error', async () => {
    handlers.set('/cubejs-api/v1/load', (_req, res) => json(res, 200, { rows: [] }));
    const error = await caught(client().load({}));
    expect(ServiceError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
  });

  it('behaviour 3 meta is a GET with the raw token and returns the cubes', async () => {
    const metaBody = {
      cubes: [
        {
          name: 'orders',
          title: 'Orders',
          type: 'view',
          measures: [{ name: 'orders.count', title: 'Count', shortTitle: 'Count', type: 'number', aggType: 'count' }],
          dimensions: [{ name: 'orders.status', title: 'Status', type: 'string' }],
          segments: [],
        },
      ],
    };
    handlers.set('/cubejs-api/v1/meta', (_req, res) => json(res, 200, metaBody));
    expect(await client().meta()).toEqual(metaBody);
    expect(requests[0]).toMatchObject({ method: 'GET', authorization: TOKEN, body: undefined });
    expect(requests[0]?.contentType).toBeUndefined();
  });

  it('4.5 paths are joined to a data URL with or without a trailing slash', async () => {
    handlers.set('/cubejs-api/v1/meta', (_req, res) => json(res, 200, { cubes: [] }));
    await client({ url: `${baseUrl}/` }).meta();
    expect(requests[0]?.path).toBe('/cubejs-api/v1/meta');
  });

  it('a custom fetch is used', async () => {
    handlers.set('/cubejs-api/v1/meta', (_req, res) => json(res, 200, { cubes: [] }));
    const seen: string[] = [];
    await client({
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(input, init);
      },
    }).meta();
    expect(seen).toEqual([`${baseUrl}/v1/meta`]);
  });
});

describe('createDataClient options', () => {
  it('rejects options that cannot work with a ServiceConfigError naming them', () => {
    const attempt = (options: unknown) => () => createDataClient(options as DataClientOptions);
    expect(attempt({ url: '', token: 't' })).toThrow(/url: must be the data API URL/);
    expect(attempt({ url: 'http://x', token: 5 })).toThrow(/token: must be the JWT/);
    expect(attempt({ url: 'http://x', token: 't', continueWait: { maxAttempts: 0 } })).toThrow(
      /continueWait.maxAttempts/,
    );
    expect(attempt({ url: 'http://x', token: 't', continueWait: { delayMs: -1 } })).toThrow(/continueWait.delayMs/);
    try {
      createDataClient({ url: '', token: 't' });
    } catch (error) {
      expect(ServiceConfigError.isInstance(error)).toBe(true);
    }
  });

  it('a token function that returns nothing is a ServiceConfigError', async () => {
    const error = await caught(client({ token: () => '' }).meta());
    expect(ServiceConfigError.isInstance(error)).toBe(true);
    expect(requests).toHaveLength(0);
  });
});

describe('data protocol lines and bodies', () => {
  it('behaviour 3 classifyCubeSqlLine: schema, data, Continue wait, error, unknown', () => {
    expect(classifyCubeSqlLine(schemaLine)).toEqual({
      kind: 'schema',
      schema: schemaLine.schema,
      lastRefreshTime: schemaLine.lastRefreshTime,
    });
    expect(classifyCubeSqlLine({ schema: [] })).toEqual({ kind: 'schema', schema: [] });
    expect(classifyCubeSqlLine({ data: [['a', null]] })).toEqual({ kind: 'data', rows: [['a', null]] });
    expect(classifyCubeSqlLine({ error: CONTINUE_WAIT })).toEqual({ kind: 'continue-wait' });
    expect(classifyCubeSqlLine({ error: 'boom' })).toEqual({ kind: 'error', error: 'boom' });
    for (const line of [{ data: 'x' }, { data: [[{ a: 1 }]] }, { schema: [{ name: 1 }] }, [1], 'x', null])
      expect(classifyCubeSqlLine(line)).toEqual({ kind: 'unknown', line });
  });

  it('behaviour 3 data cells are strings: numbers and booleans a server sends are turned into strings', () => {
    expect(classifyCubeSqlLine({ data: [[1, true, 2.5]] })).toEqual({ kind: 'data', rows: [['1', 'true', '2.5']] });
  });

  it('behaviour 3 Continue wait and user error bodies are recognised', () => {
    expect(isContinueWait({ error: 'Continue wait' })).toBe(true);
    expect(isContinueWait({ error: 'Other' })).toBe(false);
    expect(isUserErrorBody({ type: 'UserError', error: 'x' })).toBe(true);
    expect(isUserErrorBody({ error: 'x' })).toBe(false);
  });

  it('behaviour 3 the twenty filter operators', () => {
    expect(FILTER_OPERATORS).toHaveLength(20);
    expect(new Set(FILTER_OPERATORS)).toEqual(
      new Set([
        'equals',
        'notEquals',
        'contains',
        'notContains',
        'startsWith',
        'endsWith',
        'gt',
        'gte',
        'lt',
        'lte',
        'set',
        'notSet',
        'inDateRange',
        'notInDateRange',
        'beforeDate',
        'afterDate',
        'notStartsWith',
        'notEndsWith',
        'beforeOrOnDate',
        'afterOrOnDate',
      ]),
    );
  });
});
