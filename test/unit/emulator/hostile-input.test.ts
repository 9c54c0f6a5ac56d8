// @vitest-environment node
/**
 * The emulator under hostile input and load, and as browser apps call it. Each suite names the
 * hole it pins down; each failed on the code before the fix.
 */
import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_API_KEY,
  CHAT_FAULT_HEADER,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  MAX_MANAGEMENT_BODY_BYTES,
  createManualClock,
  startEmulator,
  type RunningEmulator,
} from '../../../src/emulator';
import { streamCubeSql } from '../../../src/emulator/data/cubesql';
import { createDataEngine } from '../../../src/emulator/data/engine';
import { exchangeEmbedSession } from '../../../src/emulator/features/sessions';
import { EMBED_TOKEN_TTL_MS, MAX_BOOKKEEPING_ENTRIES, setBounded } from '../../../src/emulator/state';
import { mintSession, useEmulator } from '../../helpers/emulator';
import { newMessageId, post as postChat } from './chat-helpers';
import { dataToken, postData, requestJson } from './helpers';

let token: string;

const emulator = useEmulator({ chatPace: 'instant', queryTimeoutMs: 1500 });

beforeAll(async () => {
  token = await dataToken();
});

const apiKey = `Api-Key ${ADMIN_API_KEY}`;
/** Tests that start their own emulator or move megabytes: room for a loaded machine. */
const SLOW_TEST_MS = 30_000;

/** `depth` nested arrays around `inner`, as JSON text. */
function nested(depth: number, inner = '1'): string {
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
}

describe('revoke ends the tokens exchanged for the session', () => {
  it('after revoke answers 204, the embed token no longer reads /v1/load or chat', async () => {
    const sessionId = await mintSession(emulator, { deploymentId: 1, externalId: 'revoke-me' });
    const exchange = await exchangeEmbedSession(emulator.context, sessionId);
    if (!exchange.ok) throw new Error(exchange.message);
    const query = { measures: ['orders.count'] };
    expect((await postData(emulator, '/v1/load', { query }, { token: exchange.token })).status).toBe(200);
    const ask = () =>
      postChat(emulator, { input: 'orders by status', messageId: newMessageId() }, { auth: { token: exchange.token } });
    const before = await (await ask()).text();
    expect(before).not.toContain('Unauthorized');

    const revoked = await requestJson(emulator, '/api/v1/embed/session/revoke', {
      method: 'POST',
      authorization: apiKey,
      body: { sessionId },
    });
    expect(revoked.status).toBe(204);
    const load = await postData(emulator, '/v1/load', { query }, { token: exchange.token });
    expect(load.status).toBe(403);
    expect(load.json()).toEqual({ error: 'Invalid token' });
    const sql = await postData(emulator, '/v1/cubesql', { query: 'SELECT 1' }, { token: exchange.token });
    expect(sql.status).toBe(403);
    const after = await ask();
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' } });
  });
});

describe('/v1/cubesql queries are bounded and interrupted', () => {
  const RUNAWAY = 'SELECT count(*) FROM range(300000000000)';

  it('a query longer than queryTimeoutMs ends with a timeout error line, and the engine is free again', async () => {
    const result = await postData(emulator, '/v1/cubesql', { query: RUNAWAY }, { token });
    expect(result.status).toBe(200);
    const lines = result.lines();
    expect(lines.at(-1)).toEqual({ error: 'Query timeout: the query ran longer than 1.5 s' });
    const quick = await postData(emulator, '/v1/cubesql', { query: 'SELECT count(*) FROM orders' }, { token });
    expect(quick.lines().at(-1)).toHaveProperty('data');
  });

  it(
    'the default bound is 30 s',
    async () => {
      const defaults = await startEmulator();
      try {
        expect(defaults.context.options.queryTimeoutMs).toBe(30_000);
      } finally {
        await defaults.close();
      }
      await expect(startEmulator({ queryTimeoutMs: 0 })).rejects.toThrow(/queryTimeoutMs/);
    },
    SLOW_TEST_MS,
  );

  /** Resolves once `engine` has no open query connection, or rejects after `ms`. */
  async function connectionsClosed(target: RunningEmulator, ms: number): Promise<void> {
    const deadline = performance.now() + ms;
    while (target.context.data.openConnections() > 0) {
      if (performance.now() > deadline)
        throw new Error(`${target.context.data.openConnections()} query connection(s) still open after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function startRunaway(
    target: RunningEmulator,
    signal?: AbortSignal,
  ): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    const response = await fetch(`${target.dataUrl}/v1/cubesql`, {
      method: 'POST',
      headers: { authorization: await dataToken(), 'content-type': 'application/json' },
      body: JSON.stringify({ query: RUNAWAY }),
      ...(signal ? { signal } : {}),
    });
    const reader = response.body!.getReader();
    await reader.read(); // the schema line: the query now runs
    expect(target.context.data.openConnections()).toBe(1);
    return reader;
  }

  it(
    'a client that leaves interrupts its query: its connection closes long before the timeout',
    async () => {
      const patient = await startEmulator({ queryTimeoutMs: 120_000 });
      try {
        const leave = new AbortController();
        await startRunaway(patient, leave.signal);
        leave.abort();
        // The query alone runs for minutes; interrupted, it is gone in a moment (a fortieth of the timeout).
        await connectionsClosed(patient, 120_000 / 40);
      } finally {
        await patient.close();
      }
    },
    SLOW_TEST_MS,
  );

  it(
    'close() interrupts a running query before it resolves',
    async () => {
      const busy = await startEmulator({ queryTimeoutMs: 120_000 });
      const reader = await startRunaway(busy);
      await busy.close();
      expect(busy.context.data.openConnections()).toBe(0);
      await reader.cancel().catch(() => undefined);
    },
    SLOW_TEST_MS,
  );
});

describe('an interrupt that comes between two statements is not lost', () => {
  // Seconds alone (not minutes): before the fix these tests failed on the data line the query
  // produced after it should have been stopped, not on a timeout.
  const LONG = 'SELECT count(*) FROM range(20000000000)';

  /** Starts LONG and returns its lines once the schema line arrived: the query has not run yet. */
  async function afterSchema(engine: ReturnType<typeof createDataEngine>, signal?: AbortSignal) {
    const lines = streamCubeSql(engine, LONG, {}, { timeoutMs: 120_000, ...(signal ? { signal } : {}) });
    expect((await lines.next()).value).toHaveProperty('schema');
    return lines;
  }

  it(
    'a client that leaves while the schema line is on its way: the query never runs',
    async () => {
      const engine = createDataEngine();
      try {
        const leave = new AbortController();
        const lines = await afterSchema(engine, leave.signal);
        leave.abort();
        expect(await lines.next()).toEqual({ done: true, value: undefined });
        expect(engine.openConnections()).toBe(0);
      } finally {
        await engine.close();
      }
    },
    SLOW_TEST_MS,
  );

  it(
    'close() while the schema line is on its way: the query ends with an error line, not its data',
    async () => {
      const engine = createDataEngine();
      const lines = await afterSchema(engine);
      const closed = engine.close();
      expect((await lines.next()).value).toEqual({ error: 'Error during execution: Interrupted!' });
      await lines.return(undefined);
      await closed;
      expect(engine.openConnections()).toBe(0);
    },
    SLOW_TEST_MS,
  );
});

describe('only the views of the model are queryable from /v1/cubesql', () => {
  const refused = [
    'SELECT * FROM (WITH duckdb_views AS (SELECT 1 AS a) SELECT * FROM duckdb_views) s, duckdb_views',
    'SELECT * FROM (WITH duckdb_tables AS (SELECT 1 AS a) SELECT * FROM duckdb_tables) s, duckdb_tables',
    'SELECT * FROM (WITH pg_settings AS (SELECT 1 AS a) SELECT * FROM pg_settings) s, pg_settings',
    'WITH a AS (SELECT * FROM duckdb_views), duckdb_views AS (SELECT 1 AS x) SELECT * FROM a',
    'SHOW TABLES',
    'DESCRIBE orders',
    'SUMMARIZE orders',
    "SELECT current_setting('threads')",
    'SELECT version()',
    'SELECT * FROM information_schema.tables',
    'SELECT * FROM duckdb_views()',
  ];
  for (const query of refused) {
    it(`refuses: ${query}`, async () => {
      const result = await postData(emulator, '/v1/cubesql', { query }, { token });
      const lines = result.lines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toHaveProperty('error');
      expect(result.text).not.toMatch(/CREATE|raw\.|duckdb_views"|v\d+\.\d+\.\d+/);
    });
  }

  it('still answers CTEs in scope and the views', async () => {
    const result = await postData(
      emulator,
      '/v1/cubesql',
      { query: 'WITH s AS (SELECT status FROM orders) SELECT count(*) FROM s' },
      { token },
    );
    expect(result.lines().at(-1)).toHaveProperty('data');
  });

  it('engine error texts never pass through: errors read like the service', async () => {
    const cases: [string, RegExp][] = [
      ['SELEC 1', /^Error during parsing: /],
      ['SELECT nope FROM orders', /^Error during planning: /],
      ['SELECT no_such_function(1)', /^Error during planning: /],
      ["SELECT CAST('x' AS INTEGER)", /^Error during execution: /],
    ];
    for (const [query, pattern] of cases) {
      // A run-time error comes after the schema line: the error is always the last line.
      const line = (await postData(emulator, '/v1/cubesql', { query }, { token })).lines().at(-1);
      const error = String(line?.['error']);
      expect(error, query).toMatch(pattern);
      expect(error, query).not.toMatch(
        /Binder Error|Catalog Error|Parser Error|Conversion Error|LINE 1|Did you mean|Candidate/,
      );
    }
  });
});

describe('deep nesting is a 400, never a 500', () => {
  it(`JSON deeper than ${MAX_JSON_DEPTH} levels (10,000 and more here): generate-session, upsert, load, chat`, async () => {
    const deepContext = `{"a":${nested(10_000)}}`;
    const session = await requestJson(emulator, '/api/v1/embed/generate-session', {
      method: 'POST',
      authorization: apiKey,
      raw: `{"deploymentId":1,"externalId":"deep","securityContext":${deepContext}}`,
    });
    expect(session.status).toBe(400);
    expect(session.body['error']).toMatch(/nested/);

    const upsert = await requestJson(emulator, '/api/v1/deployments/1/workbooks/by-slug/deep-meta', {
      method: 'PUT',
      authorization: `Bearer ${ADMIN_API_KEY}`,
      raw: `{"name":"Deep","meta":{"x":${nested(5_000)}}}`,
    });
    expect(upsert.status).toBe(400);

    const filters = `[${'{"and":['.repeat(10_000)}{"member":"orders.status","operator":"set"}${']}'.repeat(10_000)}]`;
    const load = await fetch(`${emulator.dataUrl}/v1/load`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: `{"query":{"measures":["orders.count"],"filters":${filters}}}`,
    });
    expect(load.status).toBe(400);
    expect(await load.json()).toMatchObject({ type: 'UserError' });

    const chat = await postChat(emulator, undefined, {
      raw: `{"input":"x","messageId":"${newMessageId()}","sessionSettings":${nested(100_000)}}`,
    });
    expect(chat.status).toBe(400);
  });

  it('filter groups nested 33 deep are a user error, 32 deep are answered', async () => {
    const group = (depth: number): unknown =>
      depth === 0 ? { member: 'orders.status', operator: 'set' } : { and: [group(depth - 1)] };
    const ok = await postData(
      emulator,
      '/v1/load',
      { query: { measures: ['orders.count'], filters: [group(32)] } },
      { token },
    );
    expect(ok.status).toBe(200);
    const deep = await postData(
      emulator,
      '/v1/load',
      { query: { measures: ['orders.count'], filters: [group(33)] } },
      { token },
    );
    expect(deep.status).toBe(400);
    expect(deep.json()).toMatchObject({ type: 'UserError', error: expect.stringMatching(/nested more than 32/) });
  });

  it('"last 99999999999 years" is a user error without SQL', async () => {
    for (const dateRange of ['last 99999999999 years', 'last 10001 days', 'last 5000 years']) {
      const result = await postData(
        emulator,
        '/v1/load',
        { query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange }] } },
        { token },
      );
      expect(result.status, dateRange).toBe(400);
      expect(result.json()).toMatchObject({ type: 'UserError' });
      expect(result.text).not.toMatch(/SELECT|CAST/);
    }
  });
});

describe('body limits (413) and credentials before bodies', () => {
  const big = (bytes: number) =>
    JSON.stringify({ deploymentId: 1, externalId: 'big', securityContext: { pad: 'x'.repeat(bytes) } });

  it(
    `generate-session, load and chat refuse bodies over ${MAX_BODY_BYTES} bytes with 413`,
    async () => {
      const session = await requestJson(emulator, '/api/v1/embed/generate-session', {
        method: 'POST',
        authorization: apiKey,
        raw: big(MAX_BODY_BYTES),
      });
      expect(session.status).toBe(413);
      const fits = await requestJson(emulator, '/api/v1/embed/generate-session', {
        method: 'POST',
        authorization: apiKey,
        raw: big(MAX_BODY_BYTES - 200),
      });
      expect(fits.status).toBe(200);
      const load = await fetch(`${emulator.dataUrl}/v1/load`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: big(MAX_BODY_BYTES),
      });
      expect(load.status).toBe(413);
      const chat = await postChat(emulator, undefined, { raw: big(MAX_BODY_BYTES) });
      expect(chat.status).toBe(413);
    },
    SLOW_TEST_MS,
  );

  it(
    `the management API takes up to ${MAX_MANAGEMENT_BODY_BYTES} bytes`,
    async () => {
      const path = '/api/v1/deployments/1/workbooks/by-slug/big-meta';
      const body = (bytes: number) => JSON.stringify({ name: 'Big', meta: { pad: 'x'.repeat(bytes) } });
      expect(
        (
          await requestJson(emulator, path, {
            method: 'PUT',
            authorization: `Bearer ${ADMIN_API_KEY}`,
            raw: body(MAX_MANAGEMENT_BODY_BYTES),
          })
        ).status,
      ).toBe(413);
      expect(
        (
          await requestJson(emulator, path, {
            method: 'PUT',
            authorization: `Bearer ${ADMIN_API_KEY}`,
            raw: body(2 * MAX_BODY_BYTES),
          })
        ).status,
      ).toBe(200);
    },
    SLOW_TEST_MS,
  );

  it('chat and generate-session answer a bad credential without waiting for the body', async () => {
    // The body never ends: an answer can only come from a server that does not read it first.
    const answer = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(`${emulator.url}${path}`);
        const request = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024), ...headers },
          },
          (response) => {
            response.resume();
            request.destroy();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', () => undefined);
        request.write('{"input":"');
        setTimeout(() => {
          request.destroy();
          reject(new Error(`${path}: no answer while the body was still arriving`));
        }, 3000);
      });
    expect(
      await answer(new URL(`${emulator.aiUrl}/chat/stream-chat-state`).pathname, {
        'x-service-auth-token': 'not-a-token',
      }),
    ).toBe(200);
    expect(await answer('/api/v1/embed/generate-session', {})).toBe(401);
    expect(await answer('/data/1/v1/load', {})).toBe(403);
  });

  it('chat checks the credential before it reads the body', async () => {
    // A body larger than the limit with no credential: the answer is the auth failure, not 413.
    const response = await postChat(emulator, undefined, { auth: 'none', raw: big(4 * MAX_BODY_BYTES) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ error: { message: 'Unauthorized' } });
    const session = await requestJson(emulator, '/api/v1/embed/generate-session', {
      method: 'POST',
      authorization: null,
      raw: big(4 * MAX_BODY_BYTES),
    });
    expect(session.status).toBe(401);
  });
});

describe('prototype names are refused', () => {
  for (const directive of ['constructor=1', '__proto__=1', 'toString=1', 'hasOwnProperty=2']) {
    it(`x-emulator-fault: ${directive} is a 400`, async () => {
      const response = await postChat(
        emulator,
        { input: 'orders by status', messageId: newMessageId(), sessionSettings: { externalId: 'proto' } },
        { headers: { [CHAT_FAULT_HEADER]: directive } },
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: expect.stringMatching(/unknown directive/) });
    });
  }

  it('a chat userAttributes name __proto__ is unknown (400), like any unknown name', async () => {
    for (const name of ['__proto__', 'constructor', 'no_such_attribute']) {
      const response = await postChat(emulator, {
        input: 'orders by status',
        messageId: newMessageId(),
        sessionSettings: { externalId: 'proto-attrs', userAttributes: [{ name, value: 'x' }] },
      });
      expect(response.status, name).toBe(400);
    }
  });
});

describe('expired sessions and tokens are swept', () => {
  it(
    'after the clock moves 25 h, the next request leaves no expired session or token behind',
    async () => {
      const clock = createManualClock(Date.UTC(2026, 0, 1));
      const shared = await startEmulator({ clock });
      try {
        const sessions = await Promise.all(
          Array.from({ length: 120 }, (_, index) =>
            mintSession(shared, { deploymentId: 1, externalId: `sweep-${index % 10}` }),
          ),
        );
        for (const sessionId of sessions.slice(0, 50))
          expect((await exchangeEmbedSession(shared.context, sessionId)).ok).toBe(true);
        expect(shared.context.state.embedSessions.size).toBe(120);
        expect(shared.context.state.embedTokens.size).toBe(50);
        clock.advance(EMBED_TOKEN_TTL_MS + 60 * 60 * 1000);
        await mintSession(shared, { deploymentId: 1, externalId: 'sweep-last' });
        expect(shared.context.state.embedSessions.size).toBe(1);
        expect(shared.context.state.embedTokens.size).toBe(0);
      } finally {
        await shared.close();
      }
    },
    SLOW_TEST_MS,
  );

  it('counters keyed by what clients send keep only the latest entries', () => {
    const counters = new Map<string, number>();
    for (let index = 0; index < 25; index += 1) setBounded(counters, `message-${index}`, index, 10);
    setBounded(counters, 'message-16', 99, 10);
    expect(counters.size).toBe(10);
    expect([...counters.keys()]).toEqual([
      'message-15',
      ...Array.from({ length: 8 }, (_, index) => `message-${index + 17}`),
      'message-16',
    ]);
    expect(MAX_BOOKKEEPING_ENTRIES).toBe(10_000);
  });

  it(
    'a revoked session whose tokens live is kept, so they stay refused',
    async () => {
      const clock = createManualClock(Date.UTC(2026, 0, 1));
      const shared = await startEmulator({ clock });
      try {
        const sessionId = await mintSession(shared, { deploymentId: 1, externalId: 'sweep-revoked' });
        const exchange = await exchangeEmbedSession(shared.context, sessionId);
        if (!exchange.ok) throw new Error(exchange.message);
        await requestJson(shared, '/api/v1/embed/session/revoke', {
          method: 'POST',
          authorization: apiKey,
          body: { sessionId },
        });
        clock.advance(60 * 60 * 1000);
        const load = await postData(
          shared,
          '/v1/load',
          { query: { measures: ['orders.count'] } },
          { token: exchange.token },
        );
        expect(load.status).toBe(403);
        expect(shared.context.state.embedSessions.has(sessionId)).toBe(true);
      } finally {
        await shared.close();
      }
    },
    SLOW_TEST_MS,
  );
});

describe('only canonical deployment ids', () => {
  for (const id of ['1e0', '01', '+1', '1.0', '0x1', ' 1']) {
    it(`/data/${id} is 404; so are the chat and management forms`, async () => {
      const segment = encodeURIComponent(id);
      const data = await fetch(`${emulator.url}/data/${segment}/v1/meta`, { headers: { authorization: token } });
      expect(data.status).toBe(404);
      const chat = await fetch(`${emulator.url}/api/v1/public/acme/deployments/${segment}/chat/stream-chat-state`, {
        method: 'POST',
        headers: { 'x-service-auth-token': token, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(chat.status).toBe(404);
      const management = await requestJson(emulator, `/api/v1/deployments/${segment}/workbooks`, {
        authorization: `Bearer ${ADMIN_API_KEY}`,
      });
      expect(management.status).toBe(404);
    });
  }
  it('/data/1 is served', async () => {
    expect((await fetch(`${emulator.url}/data/1/v1/meta`, { headers: { authorization: token } })).status).toBe(200);
  });
});

describe('CORS on the data and chat APIs', () => {
  const preflight = (url: string) =>
    fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.partner.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-request-id',
      },
    });

  it('a preflight of /v1/load, /v1/cubesql, /v1/meta and chat answers 204 with the allowed methods and headers', async () => {
    for (const url of [
      `${emulator.dataUrl}/v1/load`,
      `${emulator.dataUrl}/v1/cubesql`,
      `${emulator.dataUrl}/v1/meta`,
      `${emulator.aiUrl}/chat/stream-chat-state`,
      `${emulator.aiUrl}/chat/abort`,
    ]) {
      const response = await preflight(url);
      expect(response.status, url).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'x-service-auth-token', 'x-request-id']),
      );
    }
  });

  it('answers, errors included, carry Access-Control-Allow-Origin', async () => {
    const ok = await fetch(`${emulator.dataUrl}/v1/meta`, {
      headers: { authorization: token, origin: 'https://app.partner.test' },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await fetch(`${emulator.dataUrl}/v1/meta`, { headers: { origin: 'https://app.partner.test' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('the management and session APIs (API keys) send no CORS headers', async () => {
    const response = await preflight(`${emulator.url}/api/v1/embed/generate-session`);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
