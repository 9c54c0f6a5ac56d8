// @vitest-environment node
/**
 * The emulator's Chat API through real sockets: endpoints and auth (interface 5, behaviour 1),
 * users (2.8, 3, 8), the streamed answer (2.8, 4.4, behaviour 1), threads and the streaming state
 * machine (3, 7), abort (4.4), fault injection.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_ID_REQUIRED_FOR_API_KEY,
  AGENT_NODE,
  MAX_NON_EPHEMERAL_CHAT_USERS,
  STREAMING_IN_PROGRESS,
  classifyStreamLine,
  isMessageId,
} from '../../../src/core/protocol/chat';
import { USER_ATTRIBUTES_NOT_FOUND } from '../../../src/core/protocol/session';
import { DEFAULT_CHART_STYLE, SQL_RESULT_ROW_LIMIT, parseToolCall } from '../../../src/core/protocol/tools';
import {
  ACCOUNT_NAME,
  ADMIN_API_KEY,
  ORDER_COUNT,
  ORDER_STATUSES,
  PERSONAL_API_KEY,
  SCOPED_ADMIN_API_KEY,
  createManualClock,
  metaResponse,
  startEmulator,
} from '../../../src/emulator';
import { DEFAULT_EPHEMERAL_TTL_SECONDS, externalUserKey } from '../../../src/emulator/state';
import { CHAT_FAULT_HEADER, CHAT_PACE_HEADER } from '../../../src/emulator/features/chat';
import { useEmulator } from '../../helpers/emulator';
import { chatIdOf } from '../../helpers/streams';
import { sqlRows } from './helpers';
import { chat, chatToken, finalAnswer, fold, newMessageId, open, post, toolResult, type Line } from './chat-helpers';

const clock = createManualClock(Date.now());

const emulator = useEmulator({ chatPace: 'instant', clock });

const alice = { externalId: 'alice@partner.test' };
const bob = { externalId: 'bob@partner.test' };
const ask = (input: string, extra: Record<string, unknown> = {}) => ({
  input,
  messageId: newMessageId(),
  sessionSettings: alice,
  ...extra,
});
const deploymentBase = (deploymentId: number) =>
  `${emulator.url}/api/v1/public/${ACCOUNT_NAME}/deployments/${deploymentId}`;
const rpcError = (text: string) =>
  JSON.parse(text) as { jsonrpc: string; error: { code: number; message: string }; id: unknown };
const externalUser = (externalId: string) =>
  emulator.context.state.externalUsers.get(externalUserKey(ACCOUNT_NAME, externalId));

// -------------------------------------------------------------------------------------------------

describe('4.4, behaviour 1 endpoints', () => {
  it('4.4 POST {ai_url}/chat/stream-chat-state answers 200 NDJSON (application/x-ndjson), __cutoff__ first, __usage__ last', async () => {
    const { status, type, lines } = await chat(emulator, ask('revenue by month'));
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/x-ndjson/);
    expect(lines[0]?.['id']).toBe('__cutoff__');
    expect(lines.at(-1)?.['id']).toBe('__usage__');
  });

  it('7 unknown account or agent: 404', async () => {
    const body = ask('revenue by month');
    for (const base of [
      `${emulator.url}/api/v1/public/globex/agents/1`,
      `${emulator.url}/api/v1/public/acme/agents/99`,
      deploymentBase(42),
    ]) {
      const response = await post(emulator, body, { base });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: expect.any(String) });
      expect((await post(emulator, { chatId: 'x' }, { base, endpoint: 'abort' })).status).toBe(404);
    }
  });

  it('behaviour 1 deployment form accepts the deployment token', async () => {
    const token = await chatToken(clock, { externalId: 'dora@partner.test', scope: ['chat'] });
    const { status, lines } = await chat(
      emulator,
      { input: 'orders by status', messageId: newMessageId() },
      { base: deploymentBase(1), auth: { token } },
    );
    expect(status).toBe(200);
    expect(finalAnswer(lines)?.['content']).toMatch(/orders/);
  });

  it('behaviour 1 deployment form with an API key: 403 "agentId is required for Api-Key authentication"', async () => {
    const response = await post(emulator, ask('orders by status'), { base: deploymentBase(1) });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: AGENT_ID_REQUIRED_FOR_API_KEY });
    const abort = await post(emulator, { chatId: 'x' }, { base: deploymentBase(1), endpoint: 'abort' });
    expect(abort.status).toBe(403);
  });
});

// -------------------------------------------------------------------------------------------------

describe('5, 7 authentication', () => {
  it('7, behaviour 1 authentication failures are one JSON-RPC 2.0 error object in an HTTP 200', async () => {
    const valid = { externalId: 'erin@partner.test', scope: ['chat'] };
    const cases: { name: string; auth: Parameters<typeof post>[2] }[] = [
      { name: 'no credential', auth: { auth: 'none' } },
      { name: 'unknown API key', auth: { auth: { apiKey: 'svc_not_a_key' } } },
      {
        name: 'Authorization with another scheme',
        auth: { auth: 'none', headers: { authorization: `Bearer ${ADMIN_API_KEY}` } },
      },
      { name: 'a token that is not a JWT', auth: { auth: { token: 'garbage' } } },
      { name: 'a token of deployment 2', auth: { auth: { token: await chatToken(clock, valid, 2) } } },
      {
        name: 'a token without externalId or sub',
        auth: { auth: { token: await chatToken(clock, { scope: ['chat'] }) } },
      },
      {
        name: 'a token without the chat scope',
        auth: { auth: { token: await chatToken(clock, { externalId: 'erin', scope: ['data'] }) } },
      },
      {
        name: 'a scope that is not an array',
        auth: { auth: { token: await chatToken(clock, { externalId: 'erin', scope: 'chat' }) } },
      },
      {
        name: 'a token on a deployment without token auth (2)',
        auth: { auth: { token: await chatToken(clock, valid, 2) }, base: deploymentBase(2) },
      },
    ];
    for (const { name, auth } of cases) {
      const response = await post(emulator, { input: 'orders by status', messageId: newMessageId() }, auth);
      const text = await response.text();
      expect(response.status, name).toBe(200);
      const body = rpcError(text);
      expect(body.jsonrpc, name).toBe('2.0');
      expect(body.error, name).toMatchObject({ code: -32001, message: 'Unauthorized' });
      expect(body.id, name).toBeNull();
      expect(classifyStreamLine(body).kind, name).toBe('rpcError');
    }
  });

  it('5 rule 7 an expired token is rejected (the emulator clock decides)', async () => {
    const token = await chatToken(clock, { externalId: 'erin', scope: ['chat'] }, 1, 60);
    expect(
      (await chat(emulator, { input: 'orders by status', messageId: newMessageId() }, { auth: { token } })).lines.at(
        -1,
      )?.['id'],
    ).toBe('__usage__');
    clock.advance(61_000);
    const { status, text } = await chat(
      emulator,
      { input: 'orders by status', messageId: newMessageId() },
      { auth: { token } },
    );
    expect(status).toBe(200);
    expect(rpcError(text).error.code).toBe(-32001);
  });

  it('5 rule 6 Authorization wins when both are sent', async () => {
    const token = await chatToken(clock, { externalId: 'erin', scope: ['chat'] });
    const keyLoses = await chat(
      emulator,
      { input: 'orders by status', messageId: newMessageId() },
      { auth: { apiKey: 'svc_not_a_key' }, headers: { 'x-service-auth-token': token } },
    );
    expect(rpcError(keyLoses.text).error.code).toBe(-32001);
    const keyWins = await chat(emulator, ask('orders by status'), { headers: { 'x-service-auth-token': 'garbage' } });
    expect(keyWins.lines.at(-1)?.['id']).toBe('__usage__');
  });

  it('5 rule 4 an API key without sessionSettings: 400', async () => {
    const response = await post(emulator, { input: 'orders by status', messageId: newMessageId() });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/sessionSettings/);
  });

  it('5 rules 2, 3 a personal key (chat provisions users) and a key scoped elsewhere are refused with 403', async () => {
    expect((await post(emulator, ask('orders by status'), { auth: { apiKey: PERSONAL_API_KEY } })).status).toBe(403);
    // The scoped key covers deployment 1, the deployment of agent 1.
    expect((await chat(emulator, ask('orders by status'), { auth: { apiKey: SCOPED_ADMIN_API_KEY } })).status).toBe(
      200,
    );
  });

  it('5 rule 5 token: externalId lowercased (else sub), sessionSettings ignored, the user provisioned from the claims', async () => {
    const token = await chatToken(clock, {
      externalId: 'Frank@Partner.TEST',
      scope: ['chat'],
      email: 'frank@partner.test',
      plan: 'gold',
    });
    const { status } = await chat(
      emulator,
      { input: 'orders by status', messageId: newMessageId(), sessionSettings: { externalId: 'NOT VALID' } },
      { auth: { token } },
    );
    expect(status).toBe(200);
    const frank = externalUser('frank@partner.test');
    expect(frank).toMatchObject({ source: 'chat', email: 'frank@partner.test', securityContext: { plan: 'gold' } });
    expect(externalUser('not valid')).toBeUndefined();

    const bySub = await chatToken(clock, { sub: 'Gina', scope: ['chat'] });
    expect(
      (await chat(emulator, { input: 'orders by status', messageId: newMessageId() }, { auth: { token: bySub } }))
        .status,
    ).toBe(200);
    expect(externalUser('gina')).toMatchObject({ source: 'chat' });
  });
});

// -------------------------------------------------------------------------------------------------

describe('2.8, 3, 8 chat users', () => {
  it('2.8 invalid sessionSettings and unconfigured names: 400', async () => {
    const bad = [
      { externalId: 'Upper' },
      { externalId: 'a', internalId: 'ada@acme.test' },
      { internalId: 'ada@acme.test', groups: ['sales'] },
      { externalId: 'x', isEphemeral: 'no' },
    ];
    for (const sessionSettings of bad)
      expect((await post(emulator, ask('orders by status', { sessionSettings }))).status).toBe(400);
    const attribute = await post(
      emulator,
      ask('orders by status', {
        sessionSettings: { externalId: 'h', userAttributes: [{ name: 'favourite_colour', value: 'red' }] },
      }),
    );
    expect(attribute.status).toBe(400);
    expect(((await attribute.json()) as { error: string }).error).toContain(USER_ATTRIBUTES_NOT_FOUND);
    const group = await post(
      emulator,
      ask('orders by status', { sessionSettings: { externalId: 'h', groups: ['sales', 'pirates'] } }),
    );
    expect(group.status).toBe(400);
    expect(await group.json()).toEqual({ error: 'Groups with names pirates not found' });
    const internal = await post(
      emulator,
      ask('orders by status', { sessionSettings: { internalId: 'nobody@acme.test' } }),
    );
    expect(internal.status).toBe(400);
  });

  it('3, 8 external users are ephemeral by default: removed ephemeralTtlSeconds after creation (emulator clock)', async () => {
    await chat(emulator, ask('orders by status', { sessionSettings: { externalId: 'ivy', ephemeralTtlSeconds: 60 } }));
    await chat(emulator, ask('orders by status', { sessionSettings: { externalId: 'jon' } }));
    const ivy = externalUser('ivy')!;
    expect(ivy.expiresAt).toBe(ivy.createdAt + 60_000);
    expect(externalUser('jon')!.expiresAt).toBe(externalUser('jon')!.createdAt + DEFAULT_EPHEMERAL_TTL_SECONDS * 1000);
    clock.advance(61_000);
    await chat(emulator, ask('orders by status', { sessionSettings: { externalId: 'kim' } }));
    expect(externalUser('ivy')).toBeUndefined();
    expect(externalUser('jon')).toBeDefined();
  });

  it('3, 8 isEphemeral: false persists the user; an ephemeral user becomes persistent, never the other way', async () => {
    await chat(emulator, ask('orders by status', { sessionSettings: { externalId: 'lea', ephemeralTtlSeconds: 60 } }));
    await chat(emulator, ask('orders by status', { sessionSettings: { externalId: 'lea', isEphemeral: false } }));
    await chat(emulator, ask('orders by status', { sessionSettings: { externalId: 'lea', ephemeralTtlSeconds: 1 } }));
    expect(externalUser('lea')!.expiresAt).toBeUndefined();
    clock.advance((DEFAULT_EPHEMERAL_TTL_SECONDS + 1) * 1000);
    await chat(emulator, ask('orders by status', { sessionSettings: { externalId: 'max' } }));
    expect(externalUser('lea')).toBeDefined();
  });

  it('8 non-ephemeral external users are limited to 10,000 per account; ephemeral ones are not', async () => {
    const isolated = await startEmulator({ chatPace: 'instant' });
    try {
      const users = isolated.context.state.externalUsers;
      const persistent = [...users.values()].filter((user) => user.expiresAt === undefined).length;
      for (let index = persistent; index < MAX_NON_EPHEMERAL_CHAT_USERS - 1; index += 1) {
        const externalId = `filler-${index}`;
        users.set(externalUserKey(ACCOUNT_NAME, externalId), {
          id: 100_000 + index,
          externalId,
          embedTenantName: ACCOUNT_NAME,
          profile: {},
          attributes: new Map(),
          groups: new Set(),
          source: 'chat',
          createdAt: 0,
          updatedAt: 0,
        });
      }
      const last = await chat(
        isolated,
        ask('orders by status', { sessionSettings: { externalId: 'the-10000th', isEphemeral: false } }),
      );
      expect(last.status).toBe(200);
      const refused = await post(
        isolated,
        ask('orders by status', { sessionSettings: { externalId: 'one-too-many', isEphemeral: false } }),
      );
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(/10000 non-ephemeral/);
      expect(
        (await chat(isolated, ask('orders by status', { sessionSettings: { externalId: 'just-visiting' } }))).status,
      ).toBe(200);
    } finally {
      await isolated.close();
    }
  });

  it("2.8 userAttributes persist per user and restrict the agent's SQL (row-level security)", async () => {
    const emea = await chat(
      emulator,
      ask('revenue by region', {
        sessionSettings: { externalId: 'nia', userAttributes: [{ name: 'region', value: 'EMEA' }] },
      }),
    );
    expect(toolResult(emea.lines, 'serviceSqlApi')!.result['data']).toEqual([
      ['EMEA', expect.any(String), expect.any(String)],
    ]);
    // Not sent again: the stored value still applies.
    const again = await chat(emulator, ask('revenue by region', { sessionSettings: { externalId: 'nia' } }));
    expect((toolResult(again.lines, 'serviceSqlApi')!.result['data'] as string[][]).map((row) => row[0])).toEqual([
      'EMEA',
    ]);
    // `null` clears it.
    const cleared = await chat(
      emulator,
      ask('revenue by region', {
        sessionSettings: { externalId: 'nia', userAttributes: [{ name: 'region', value: null }] },
      }),
    );
    expect((toolResult(cleared.lines, 'serviceSqlApi')!.result['data'] as string[][]).length).toBe(4);
  });

  it("2.8 internalId: the internal user's own attributes apply (ben sees EMEA only)", async () => {
    const { lines } = await chat(
      emulator,
      ask('revenue by region', { sessionSettings: { internalId: 'ben@acme.test' } }),
    );
    expect((toolResult(lines, 'serviceSqlApi')!.result['data'] as string[][]).map((row) => row[0])).toEqual(['EMEA']);
  });

  it("5 rule 5 with a token, the agent queries with the token's security context", async () => {
    const token = await chatToken(clock, { externalId: 'omar', scope: ['chat'], allowed_regions: ['APAC', 'LATAM'] });
    const { lines } = await chat(
      emulator,
      { input: 'revenue by region', messageId: newMessageId() },
      { auth: { token } },
    );
    expect((toolResult(lines, 'serviceSqlApi')!.result['data'] as string[][]).map((row) => row[0]).sort()).toEqual([
      'APAC',
      'LATAM',
    ]);
  });
});

// -------------------------------------------------------------------------------------------------

describe('2.8, 4.4, behaviour 1 the streamed answer', () => {
  let lines: Line[];
  let messageId: string;
  const input = 'Show me revenue trends for the last 6 months';

  beforeAll(async () => {
    messageId = newMessageId();
    lines = (await chat(emulator, { input, messageId, sessionSettings: alice })).lines;
  });

  it('behaviour 1 every line is a line of the protocol', () => {
    for (const line of lines) expect(classifyStreamLine(line).kind).not.toBe('invalid');
  });

  it('behaviour 1 __cutoff__ first: state { isStreaming, chatId }, sort 0', () => {
    expect(lines[0]).toEqual({
      id: '__cutoff__',
      role: 'assistant',
      state: { isStreaming: false, chatId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
      sort: 0,
    });
  });

  it('4.4 the user echo second: id = messageId, isDelta false', () => {
    expect(lines[1]).toEqual({ id: messageId, role: 'user', content: input, isDelta: false, sort: 1 });
  });

  it('4.4 the typical order: thinking, serviceMeta, thinking, serviceSqlApi, final answer, __state__, __usage__', () => {
    const order: string[] = [];
    for (const line of lines.slice(2)) {
      const id = String(line['id']);
      const toolCall = line['toolCall'] as { name: string } | undefined;
      const kind = id.startsWith('__')
        ? id
        : toolCall
          ? toolCall.name
          : (line['graphPath'] as string[])[0] === 'final'
            ? 'final'
            : 'thinking';
      if (order.at(-1) !== kind) order.push(kind);
    }
    expect(order).toEqual(['thinking', 'serviceMeta', 'thinking', 'serviceSqlApi', 'final', '__state__', '__usage__']);
  });

  it('behaviour 1 thinking arrives in deltas of a few words under the agent node, then whole', () => {
    const thinking = lines.filter((line) => typeof line['thinking'] === 'string');
    const deltas = thinking.filter((line) => line['isDelta'] === true);
    expect(deltas.length).toBeGreaterThan(4);
    for (const delta of deltas) {
      expect(delta).toMatchObject({
        role: 'assistant',
        content: '',
        graphPath: [AGENT_NODE],
        isInProcess: true,
        isStructuredResponse: false,
      });
      expect(String(delta['thinking']).trim().split(/\s+/).length).toBeLessThanOrEqual(3);
    }
    for (const [id, message] of fold(thinking)) {
      const closing = thinking.filter((line) => line['id'] === id && line['isDelta'] === false);
      expect(closing).toHaveLength(1);
      expect(closing[0]).toMatchObject({ thinking: message['thinking'], isInProcess: false });
    }
  });

  it('behaviour 1 a tool call: the start line (isInProcess, no result) and the result line share an id, graphPath [agent, "tools"]', () => {
    const tools = lines.filter((line) => line['toolCall']);
    expect(tools).toHaveLength(4);
    for (let index = 0; index < tools.length; index += 2) {
      const [start, end] = [tools[index]!, tools[index + 1]!];
      expect(start['id']).toBe(end['id']);
      expect(start).toMatchObject({ isInProcess: true, isDelta: false, graphPath: [AGENT_NODE, 'tools'] });
      expect((start['toolCall'] as Record<string, unknown>)['result']).toBeUndefined();
      expect(end).toMatchObject({ isInProcess: false, graphPath: [AGENT_NODE, 'tools'] });
      expect((end['toolCall'] as Record<string, unknown>)['input']).toBe(
        (start['toolCall'] as Record<string, unknown>)['input'],
      );
    }
  });

  it('2.8 serviceMeta: input {searchQuery}, result {cubes, searchQuery} from the real metadata', () => {
    const { input: toolInput, result } = toolResult(lines, 'serviceMeta')!;
    expect(toolInput).toEqual({ searchQuery: expect.any(String) });
    expect(result['searchQuery']).toBe(toolInput['searchQuery']);
    const meta = metaResponse();
    for (const cube of result['cubes'] as {
      name: string;
      type: string;
      members: { name: string; type: string; title: string; aggType?: string }[];
    }[]) {
      const real = meta.cubes.find((candidate) => candidate.name === cube.name)!;
      expect(cube.type).toBe(real.type);
      for (const member of cube.members) {
        const realMember = [...real.measures, ...real.dimensions].find((candidate) => candidate.name === member.name)!;
        expect(member).toMatchObject({ title: realMember.title, type: realMember.type });
        if (realMember.aggType !== undefined) expect(member.aggType).toBe(realMember.aggType);
      }
    }
    expect((result['cubes'] as unknown[]).length).toBeGreaterThan(0);
  });

  it('2.8, behaviour 1 serviceSqlApi: the input fields, SQL over 2024–2025 run on DuckDB, rows as strings', async () => {
    const { input: toolInput, result } = toolResult(lines, 'serviceSqlApi')!;
    expect(Object.keys(toolInput).sort()).toEqual([
      'description',
      'memoryId',
      'queryTitle',
      'sqlQuery',
      'userRequest',
      'vegaSpec',
    ]);
    expect(toolInput['userRequest']).toBe(input);
    // "Last 6 months" counts back from the end of the data, whatever the clock says.
    expect(toolInput['sqlQuery']).toContain("TIMESTAMP '2025-07-01'");
    expect(toolInput['sqlQuery']).toContain("TIMESTAMP '2026-01-01'");
    expect(result).toMatchObject({
      sqlQuery: toolInput['sqlQuery'],
      queryTitle: toolInput['queryTitle'],
      description: toolInput['description'],
      userRequest: input,
      totalRows: 6,
      uuid: expect.any(String),
    });
    const data = result['data'] as unknown[][];
    expect(data.map((row) => String(row[0]).slice(0, 7))).toEqual([
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
    ]);
    for (const row of data) for (const value of row) expect(typeof value).toBe('string');
    expect((result['schema'] as { name: string; column_type: string }[]).map((column) => column.name)).toEqual([
      'month',
      'revenue',
      'orders',
    ]);
    for (const column of result['schema'] as { column_type: string }[])
      expect(['String', 'Int64', 'Double', 'Timestamp', 'Boolean']).toContain(column.column_type);
    // The same SQL on the data API gives the same rows: it really ran.
    expect(await sqlRows(emulator, await chatToken(clock, {}), String(toolInput['sqlQuery']))).toEqual(data);
  });

  it('2.8, behaviour 1 vegaSpec: Vega-Lite v5 JSON text without data, in the official default style', () => {
    const { input: toolInput, result } = toolResult(lines, 'serviceSqlApi')!;
    expect(result['vegaSpec']).toBe(toolInput['vegaSpec']);
    const spec = JSON.parse(String(toolInput['vegaSpec'])) as Record<string, unknown>;
    expect(spec['$schema']).toBe('https://vega.github.io/schema/vega-lite/v5.json');
    expect(spec['data']).toBeUndefined();
    expect(JSON.stringify(spec)).not.toMatch(/"values"/);
    const config = spec['config'] as {
      font: string;
      axis: { labelColor: string };
      legend: { labelColor: string };
      range: { category: string[] };
    };
    expect(config.font).toBe(DEFAULT_CHART_STYLE.font);
    expect(config.axis.labelColor).toBe(DEFAULT_CHART_STYLE.labelColor);
    expect(config.legend.labelColor).toBe(DEFAULT_CHART_STYLE.labelColor);
    expect(config.range.category).toEqual([...DEFAULT_CHART_STYLE.palette]);
    expect(spec['encoding']).toMatchObject({ x: { field: 'month' }, y: { field: 'revenue' } });
  });

  it('behaviour 1 the final answer: graphPath ["final"], content deltas of a few words, then whole; its numbers come from the rows', () => {
    const final = lines.filter((line) => (line['graphPath'] as string[] | undefined)?.[0] === 'final');
    const deltas = final.filter((line) => line['isDelta'] === true);
    expect(deltas.length).toBeGreaterThan(4);
    for (const delta of deltas) expect(String(delta['content']).trim().split(/\s+/).length).toBeLessThanOrEqual(3);
    const closing = final.at(-1)!;
    expect(closing).toMatchObject({ role: 'assistant', graphPath: ['final'], isDelta: false, isInProcess: false });
    expect(closing['content']).toBe(deltas.map((delta) => delta['content']).join(''));
    const data = toolResult(lines, 'serviceSqlApi')!.result['data'] as string[][];
    const total = data.reduce((sum, row) => sum + Number(row[1]), 0);
    expect(closing['content']).toContain(
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(total),
    );
  });

  it('behaviour 1 __state__ near the end carries the thread in the foreign serialisation', () => {
    const state = lines.at(-2)!;
    expect(state).toMatchObject({ id: '__state__', isDelta: false });
    const messages = (
      state['state'] as { messages: { lc: number; type: string; id: string[]; kwargs: Record<string, unknown> }[] }
    ).messages;
    expect(messages[0]).toMatchObject({ lc: 1, type: 'constructor', kwargs: { content: input } });
    expect(messages[0]!.id.at(-1)).toBe('HumanMessage');
    expect(messages.at(-1)!.id.at(-1)).toBe('AIMessage');
    expect(messages.at(-1)!.kwargs['content']).toBe(finalAnswer(lines)!['content']);
  });

  it('behaviour 1 __usage__ is the last line', () => {
    expect(lines.at(-1)).toEqual({
      id: '__usage__',
      type: 'usage',
      usage: {
        models: [expect.any(String)],
        llmCalls: 3,
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
        cacheWriteTokens: 0,
        cacheReadTokens: 0,
        totalTokens: expect.any(Number),
      },
    });
  });

  it('2.8 sort orders the messages; a new message id never reuses an earlier sort', () => {
    const firstSort = new Map<string, number>();
    for (const line of lines.slice(1, -1))
      if (!firstSort.has(String(line['id']))) firstSort.set(String(line['id']), Number(line['sort']));
    const sorts = [...firstSort.values()];
    expect(sorts).toEqual([...sorts].sort((a, b) => a - b));
    expect(new Set(sorts).size).toBe(sorts.length);
  });
});

describe('2.8, 8 the other intents', () => {
  it('8, 4.4 top customers: SQL capped at 100 rows, totalRows tells the truth', async () => {
    const { lines } = await chat(emulator, ask('Who are our top 500 customers?'));
    const { input, result } = toolResult(lines, 'serviceSqlApi')!;
    expect((result['data'] as unknown[]).length).toBe(SQL_RESULT_ROW_LIMIT);
    expect(result['totalRows']).toBe(500);
    const all = await sqlRows(emulator, await chatToken(clock, {}), String(input['sqlQuery']));
    expect(all).toHaveLength(500);
    expect(result['data']).toEqual(all.slice(0, 100));
    expect(finalAnswer(lines)!['content']).toMatch(/first 100 of 500 rows/);
  });

  it('orders by status: every status, counts adding up to the real number of orders', async () => {
    const { lines } = await chat(emulator, ask('How many orders are in each status?'));
    const data = toolResult(lines, 'serviceSqlApi')!.result['data'] as string[][];
    expect(data.map((row) => row[0]).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(data.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(ORDER_COUNT);
  });

  it('7 a failing query: serviceSqlApi result {"error"}, and a final answer that explains it', async () => {
    const { lines } = await chat(emulator, ask("What's our profit margin?"));
    const sqlLine = lines.find(
      (line) =>
        (line['toolCall'] as { name: string; result?: string } | undefined)?.name === 'serviceSqlApi' &&
        (line['toolCall'] as { result?: string }).result !== undefined,
    )!;
    const parsed = parseToolCall(sqlLine['toolCall'] as { name: string; input: string; result: string });
    expect(parsed).toMatchObject({ status: 'error', source: 'tool' });
    const error = (parsed as { error: string }).error;
    expect(JSON.parse((sqlLine['toolCall'] as { result: string }).result)).toEqual({ error });
    expect(finalAnswer(lines)!['content']).toContain(error);
    expect(lines.at(-1)!['id']).toBe('__usage__');
  });

  it('a question it cannot answer: a polite final answer without SQL', async () => {
    const { lines } = await chat(emulator, ask('What is the weather in Paris tomorrow?'));
    expect(lines.some((line) => (line['toolCall'] as { name: string } | undefined)?.name === 'serviceSqlApi')).toBe(
      false,
    );
    expect(toolResult(lines, 'serviceMeta')!.result['cubes']).toEqual([]);
    expect(finalAnswer(lines)!['content']).toMatch(/sorry/i);
  });

  it('the realistic pace (x-emulator-pace) streams the same kind of answer, only slower', async () => {
    const { lines } = await chat(emulator, ask('hello'), { headers: { [CHAT_PACE_HEADER]: 'realistic' } });
    expect(finalAnswer(lines)!['content']).toMatch(/sorry/i);
    expect(emulator.context.options.chatPace).toBe('instant');
    const bad = await post(emulator, ask('hello'), { headers: { [CHAT_PACE_HEADER]: 'ludicrous' } });
    expect(bad.status).toBe(400);
  });
});

// -------------------------------------------------------------------------------------------------

describe('2.8, 3, 7 threads', () => {
  it('7 invalid body: 400', async () => {
    const cases: { raw?: string; body?: unknown }[] = [
      { raw: '{not json' },
      { body: [] },
      { body: { input: 42, sessionSettings: alice } },
      { body: { input: 'hi', messageId: '123-message', sessionSettings: alice } },
      { body: { input: 'hi', chatId: '', sessionSettings: alice } },
      { body: { sessionSettings: alice } },
    ];
    for (const { raw, body } of cases) {
      const response = await post(emulator, body, raw === undefined ? {} : { raw });
      expect(response.status, raw ?? JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('2.8 chatId continues a thread; the read streams __cutoff__, every message whole, __state__, __usage__', async () => {
    const first = await chat(emulator, ask('orders by status'));
    const chatId = chatIdOf(first.lines);
    const second = await chat(emulator, ask('revenue by region', { chatId }));
    expect(chatIdOf(second.lines)).toBe(chatId);
    expect(Number(second.lines[1]!['sort'])).toBeGreaterThan(
      Math.max(...first.lines.map((line) => Number(line['sort'] ?? 0))),
    );

    const read = await chat(emulator, { chatId, sessionSettings: alice });
    expect(read.lines[0]).toEqual({
      id: '__cutoff__',
      role: 'assistant',
      state: { isStreaming: false, chatId },
      sort: 0,
    });
    const messages = read.lines.slice(1, -2);
    for (const message of messages) expect(message['isDelta']).toBe(false);
    const expected = [...fold(first.lines).values(), ...fold(second.lines).values()];
    expect(messages).toEqual(expected);
    expect(read.lines.at(-2)!['id']).toBe('__state__');
    expect(read.lines.at(-1)).toMatchObject({ id: '__usage__', usage: { llmCalls: 0 } });
  });

  it('2.8, 7 a chatId that was never returned: 404 (chat and abort)', async () => {
    const response = await post(emulator, ask('orders by status', { chatId: '00000000-0000-4000-8000-000000000000' }));
    expect(response.status).toBe(404);
    expect((await post(emulator, { chatId: 'nope', sessionSettings: alice }, { endpoint: 'abort' })).status).toBe(404);
  });

  it("4.4, 7 another user's thread: 403 (chat, read and abort)", async () => {
    const chatId = chatIdOf((await chat(emulator, ask('orders by status'))).lines);
    expect((await post(emulator, ask('orders by status', { chatId, sessionSettings: bob }))).status).toBe(403);
    expect((await post(emulator, { chatId, sessionSettings: bob })).status).toBe(403);
    expect((await post(emulator, { chatId, sessionSettings: bob }, { endpoint: 'abort' })).status).toBe(403);
    const token = await chatToken(clock, { externalId: bob.externalId, scope: ['chat'] });
    expect((await post(emulator, { chatId }, { endpoint: 'abort', auth: { token } })).status).toBe(403);
    // The owner through a token is the same user as through the key.
    const aliceToken = await chatToken(clock, { externalId: alice.externalId, scope: ['chat'] });
    expect((await post(emulator, { chatId }, { endpoint: 'abort', auth: { token: aliceToken } })).status).toBe(204);
  });

  it('3 the run goes on when the client disconnects; a read afterwards has the whole answer', async () => {
    const cut = await open(emulator, ask('revenue by region'), { headers: { [CHAT_FAULT_HEADER]: 'cut-after=3' } });
    const seen = await cut.take(3);
    await expect(cut.next()).rejects.toThrow();
    const read = await chat(emulator, { chatId: chatIdOf(seen), sessionSettings: alice });
    expect(finalAnswer(read.lines)!['content']).toMatch(/Revenue by region/);
    expect(read.lines.at(-1)!['id']).toBe('__usage__');
  });
});

// -------------------------------------------------------------------------------------------------

describe('3, 7 streaming state and abort', () => {
  it('3 the same messageId while streaming joins the live stream: replay, then live, no duplicate assistant message', async () => {
    const body = ask('orders by status');
    const first = await open(emulator, body, { headers: { [CHAT_FAULT_HEADER]: 'hold-after=6' } });
    const before = await first.take(6);
    const chatId = chatIdOf(before);
    const joined = await chat(emulator, { ...body, chatId });
    expect(joined.lines[0]).toEqual({
      id: '__cutoff__',
      role: 'assistant',
      state: { isStreaming: true, chatId },
      sort: 0,
    });
    expect(joined.lines.slice(1, 6)).toEqual(before.slice(1));
    const rest = await first.rest();
    const all = [...before, ...rest];
    expect(fold(joined.lines)).toEqual(fold(all));
    expect(all.at(-1)!['id']).toBe('__usage__');
    // One user message, one final answer in the thread.
    const read = await chat(emulator, { chatId, sessionSettings: alice });
    const messages = read.lines.slice(1, -2);
    expect(messages.filter((message) => message['role'] === 'user')).toHaveLength(1);
    expect(messages.filter((message) => (message['graphPath'] as string[] | undefined)?.[0] === 'final')).toHaveLength(
      1,
    );
  });

  it('3, 7, behaviour 1 another or no messageId while streaming: 409 {"error":"Streaming for thread is in progress"}', async () => {
    const first = await open(emulator, ask('orders by status'), { headers: { [CHAT_FAULT_HEADER]: 'hold-after=4' } });
    const chatId = chatIdOf(await first.take(4));
    for (const body of [
      ask('revenue by region', { chatId }),
      { input: 'revenue by region', chatId, sessionSettings: alice },
    ]) {
      const busy = await post(emulator, body);
      expect(busy.status).toBe(409);
      expect(await busy.json()).toEqual({ error: STREAMING_IN_PROGRESS });
    }
    expect((await post(emulator, { chatId, sessionSettings: alice }, { endpoint: 'abort' })).status).toBe(204);
    await first.rest();
    expect((await chat(emulator, ask('revenue by region', { chatId }))).status).toBe(200);
  });

  it('4.4 abort: 204 without a body; the running stream ends with __aborted__ then __usage__', async () => {
    const running = await open(emulator, ask('orders by status'), { headers: { [CHAT_FAULT_HEADER]: 'hold-after=5' } });
    const before = await running.take(5);
    const chatId = chatIdOf(before);
    const response = await post(emulator, { chatId, sessionSettings: alice }, { endpoint: 'abort' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    const rest = await running.rest();
    expect(rest).toHaveLength(2);
    expect(rest[0]).toEqual({ id: '__aborted__', type: 'abort', code: 'chat_aborted', error: expect.any(String) });
    expect(rest[1]).toMatchObject({ id: '__usage__', type: 'usage' });
    // Nothing is left "in process" and no answer was made up.
    const read = await chat(emulator, { chatId, sessionSettings: alice });
    for (const message of read.lines.slice(1, -2)) expect(message['isInProcess'] ?? false).toBe(false);
    expect(finalAnswer(read.lines)).toBeUndefined();
  });

  it('4.4 abort: an admin key without sessionSettings acts for the account; a finished chat answers 204; a bad body 400', async () => {
    const chatId = chatIdOf((await chat(emulator, ask('orders by status'))).lines);
    expect((await post(emulator, { chatId }, { endpoint: 'abort' })).status).toBe(204);
    expect((await post(emulator, { chatId, sessionSettings: alice }, { endpoint: 'abort' })).status).toBe(204);
    for (const raw of [
      '{',
      '[]',
      '{}',
      '{"chatId":""}',
      JSON.stringify({ chatId, sessionSettings: { externalId: 'UPPER' } }),
    ]) {
      expect((await post(emulator, undefined, { endpoint: 'abort', raw })).status, raw).toBe(400);
    }
    const noAuth = await post(emulator, { chatId }, { endpoint: 'abort', auth: 'none' });
    expect(noAuth.status).toBe(200);
    expect(rpcError(await noAuth.text()).error.code).toBe(-32001);
  });

  it('3 the same messageId after the run ended replays it: no second answer', async () => {
    const body = ask('orders by status');
    const first = await chat(emulator, body);
    const chatId = chatIdOf(first.lines);
    const again = await chat(emulator, { ...body, chatId });
    expect(again.lines.slice(1)).toEqual(first.lines.slice(1));
    const read = await chat(emulator, { chatId, sessionSettings: alice });
    expect(read.lines.slice(1, -2).filter((message) => message['role'] === 'user')).toHaveLength(1);
  });

  it('3 a read while streaming shows the thread so far, then the rest of the run live', async () => {
    const body = ask('revenue by region');
    const running = await open(emulator, body, { headers: { [CHAT_FAULT_HEADER]: 'hold-after=7' } });
    const chatId = chatIdOf(await running.take(7));
    const read = await chat(emulator, { chatId, sessionSettings: alice });
    expect(read.lines[0]).toMatchObject({ state: { isStreaming: true, chatId } });
    expect(read.lines.at(-1)!['id']).toBe('__usage__');
    expect(finalAnswer(read.lines)!['content']).toBe(finalAnswer(await running.rest())!['content']);
  });
});

// -------------------------------------------------------------------------------------------------

describe('fault injection (x-emulator-fault header, chatFault option)', () => {
  it('cut-after=N destroys the connection after N lines', async () => {
    const stream = await open(emulator, ask('orders by status'), { headers: { [CHAT_FAULT_HEADER]: 'cut-after=4' } });
    expect(await stream.take(4)).toHaveLength(4);
    await expect(stream.next()).rejects.toThrow();
  });

  it('status=N and server-error answer that status with {"error"}; nothing runs', async () => {
    const threads = emulator.context.state.threads.size;
    const unavailable = await post(emulator, ask('orders by status'), {
      headers: { [CHAT_FAULT_HEADER]: 'status=503' },
    });
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toEqual({ error: 'Injected fault: HTTP 503' });
    const failed = await post(emulator, ask('orders by status'), {
      headers: { [CHAT_FAULT_HEADER]: 'delay=5, server-error' },
    });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: expect.any(String) });
    expect(emulator.context.state.threads.size).toBe(threads);
    expect(
      (await post(emulator, { chatId: 'x' }, { endpoint: 'abort', headers: { [CHAT_FAULT_HEADER]: 'server-error' } }))
        .status,
    ).toBe(500);
  });

  it('an unknown directive: 400', async () => {
    const response = await post(emulator, ask('orders by status'), { headers: { [CHAT_FAULT_HEADER]: 'explode=1' } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/unknown directive/);
  });

  it('error-after=N: an {"error"} line with no other field ends the response', async () => {
    const { status, lines } = await chat(emulator, ask('orders by status'), {
      headers: { [CHAT_FAULT_HEADER]: 'error-after=3' },
    });
    expect(status).toBe(200);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toEqual({ error: expect.any(String) });
    expect(classifyStreamLine(lines[3]).kind).toBe('error');
  });

  it('behaviour 1 suspend-after=N: __suspended__ ends the response; the same body resumes: replay, then the rest', async () => {
    const body = ask('orders by status');
    const suspended = await chat(emulator, body, { headers: { [CHAT_FAULT_HEADER]: 'suspend-after=5' } });
    expect(suspended.lines).toHaveLength(6);
    expect(suspended.lines[5]).toEqual({
      id: '__suspended__',
      type: 'suspend',
      code: 'chat_suspended',
      retryable: true,
      messageId: body.messageId,
      error: expect.any(String),
    });
    const chatId = chatIdOf(suspended.lines);
    const resumed = await chat(emulator, { ...body, chatId });
    expect(resumed.lines.slice(1, 5)).toEqual(suspended.lines.slice(1, 5));
    expect(resumed.lines.at(-1)!['id']).toBe('__usage__');
    expect(finalAnswer(resumed.lines)!['content']).toMatch(/orders/);
  });

  it('the chatFault option: a function sees the attempt and can spare the resend', async () => {
    const attempts: number[] = [];
    const faulty = await startEmulator({
      chatPace: 'instant',
      chatFault: ({ endpoint, attempt }) => {
        if (endpoint === 'stream') attempts.push(attempt);
        return attempt === 1 ? 'cut-after=3' : undefined;
      },
    });
    try {
      const body = ask('orders by status');
      const first = await open(faulty, body);
      const chatId = chatIdOf(await first.take(3));
      await expect(first.next()).rejects.toThrow();
      const second = await chat(faulty, { ...body, chatId });
      expect(second.lines.at(-1)!['id']).toBe('__usage__');
      expect(attempts).toEqual([1, 2]);
    } finally {
      await faulty.close();
    }
  });

  it('the chatFault option: a string applies to every chat request; a bad one fails the start', async () => {
    const failing = await startEmulator({ chatPace: 'instant', chatFault: 'status=502' });
    try {
      expect((await post(failing, ask('orders by status'))).status).toBe(502);
      // The request's own header replaces the option.
      expect((await chat(failing, ask('orders by status'), { headers: { [CHAT_FAULT_HEADER]: '' } })).status).toBe(200);
    } finally {
      await failing.close();
    }
    await expect(startEmulator({ chatFault: 'nonsense' })).rejects.toThrow(/chatFault/);
  });
});

describe('2.8 messageId', () => {
  it('2.8 a new input without messageId gets one of the documented form', async () => {
    const { lines } = await chat(emulator, { input: 'orders by status', sessionSettings: alice });
    expect(isMessageId(String(lines[1]!['id']))).toBe(true);
  });

  it('2.8 inputs without messageId on one thread are each answered, even with a frozen clock', async () => {
    const first = await chat(emulator, { input: 'orders by status', sessionSettings: alice });
    const chatId = chatIdOf(first.lines);
    const second = await chat(emulator, { input: 'revenue by region', chatId, sessionSettings: alice });
    expect(second.lines[1]!['id']).not.toBe(first.lines[1]!['id']);
    expect(finalAnswer(second.lines)!['content']).toMatch(/Revenue by region/);
  });
});
