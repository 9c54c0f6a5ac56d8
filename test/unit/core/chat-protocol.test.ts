import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AGENT_NODE,
  CHAT_ABORT_PATH,
  CHAT_STREAM_PATH,
  SENTINEL_IDS,
  STREAMING_IN_PROGRESS,
  classifyStreamLine,
  createMessageId,
  createRpcAuthError,
  isFinalAnswerMessage,
  isMessageId,
  isSentinelId,
  resolveIsDefaultBranch,
  validateChatRequest,
  type ClassifiedLine,
} from '../../../src/core/protocol/chat';
import {
  SQL_RESULT_ROW_LIMIT,
  classifyToolResult,
  parseToolCall,
  toResultTable,
  type ToolResult,
} from '../../../src/core/protocol/tools';

// ---------------------------------------------------------------------------------------------
// Fixtures shaped like real traffic (behaviour 1)

const CHAT_ID = 'a1b2c3d4-08d7-40b9-8b1c-e7e3a698647e';

const META_RESULT = {
  cubes: [
    {
      name: 'orders_view',
      type: 'view',
      title: 'Orders',
      members: [
        {
          name: 'orders_view.revenue',
          title: 'Revenue',
          description: 'Sum of order totals',
          type: 'number',
          aggType: 'sum',
        },
        { name: 'orders_view.created_at', title: 'Created at', type: 'time' },
      ],
    },
  ],
  searchQuery: 'revenue trends',
};

function sqlResult(rows: number, totalRows = rows) {
  return {
    sqlQuery: 'SELECT month, revenue FROM orders_view',
    queryTitle: 'Revenue by month',
    description: 'Monthly revenue',
    userRequest: 'Show me revenue trends for the last 6 months',
    schema: [
      { name: 'month', column_type: 'Timestamp' },
      { name: 'revenue', column_type: 'Double' },
    ],
    data: Array.from({ length: rows }, (_, index) => [
      `2024-${String((index % 12) + 1).padStart(2, '0')}-01T00:00:00.000`,
      String(1000 + index),
    ]),
    totalRows,
    uuid: '5d1c0a6e-1f0e-4c56-9d4a-1b2c3d4e5f60',
    vegaSpec: JSON.stringify({ mark: 'line', encoding: { x: { field: 'month', type: 'temporal' } } }),
  };
}

const SQL_INPUT = {
  sqlQuery: 'SELECT month, revenue FROM orders_view',
  queryTitle: 'Revenue by month',
  description: 'Monthly revenue',
  userRequest: 'Show me revenue trends for the last 6 months',
  memoryId: 'm-1',
  vegaSpec: '{"mark":"line"}',
};

function kindOf(value: unknown): ClassifiedLine['kind'] {
  return classifyStreamLine(value).kind;
}

// ---------------------------------------------------------------------------------------------

describe('messageId (2.8, 8)', () => {
  it('2.8 messageId: timestamp of 13 or more digits', () => {
    const id = createMessageId();
    expect(id).toMatch(/^\d{13,}-message$/);
    expect(isMessageId(id)).toBe(true);
    expect(Number(id.slice(0, -'-message'.length))).toBeGreaterThanOrEqual(1_700_000_000_000);
  });

  it('2.8 messageId: createMessageId(now) writes the given Unix milliseconds, padded to 13 digits', () => {
    expect(createMessageId(1732512345678)).toBe('1732512345678-message');
    expect(createMessageId(17325123456789)).toBe('17325123456789-message');
    expect(createMessageId(5)).toBe('0000000000005-message');
    expect(createMessageId(1732512345678.9)).toBe('1732512345678-message');
    expect(isMessageId(createMessageId(0))).toBe(true);
  });

  it('2.8 messageId: createMessageId rejects a time that is not a non-negative number', () => {
    expect(() => createMessageId(-1)).toThrow(RangeError);
    expect(() => createMessageId(Number.NaN)).toThrow(RangeError);
    expect(() => createMessageId(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('2.8 messageId: ids from the clock strictly increase, even within one millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => createMessageId());
    const stamps = ids.map((id) => Number(id.slice(0, -'-message'.length)));
    for (let index = 1; index < stamps.length; index++) expect(stamps[index]!).toBeGreaterThan(stamps[index - 1]!);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each([
    ['1732512345678-message', true],
    ['17325123456789-message', true],
    ['173251234567-message', false],
    ['1732512345678-Message', false],
    ['1732512345678-msg', false],
    ['1732512345678message', false],
    ['x1732512345678-message', false],
    ['1732512345678-message\n', false],
    ['１７３２５１２３４５６７８-message', false],
    ['', false],
  ])('2.8 messageId: isMessageId(%j) is %s', (value, expected) => {
    expect(isMessageId(value)).toBe(expected);
  });
});

describe('validateChatRequest (2.8)', () => {
  it('2.8 request: accepts a valid body and returns it', () => {
    const body = {
      input: 'Show me revenue',
      chatId: CHAT_ID,
      messageId: '1732512345678-message',
      activeBranchName: 'dev',
      isDefaultBranch: false,
    };
    expect(validateChatRequest(body)).toEqual({ ok: true, value: body });
    expect(validateChatRequest({})).toEqual({ ok: true, value: {} });
  });

  it.each([null, 'text', 42, [], undefined])('2.8 request: a body that is not an object (%j) is refused', (body) => {
    const result = validateChatRequest(body);
    expect(result.ok).toBe(false);
  });

  it('2.8 request: each field of the wrong type is its own problem', () => {
    const result = validateChatRequest({
      input: 1,
      chatId: '',
      messageId: '123-message',
      activeBranchName: 7,
      isDefaultBranch: 'yes',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(5);
    for (const field of ['input', 'chatId', 'messageId', 'activeBranchName', 'isDefaultBranch']) {
      expect(result.problems.some((problem) => problem.startsWith(`${field}:`))).toBe(true);
    }
  });

  it('2.8 sessionSettings: required with API key authentication', () => {
    const result = validateChatRequest({ input: 'hi' }, { auth: 'apiKey' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join()).toMatch(/sessionSettings.*required/);
    expect(validateChatRequest({ input: 'hi', sessionSettings: { externalId: 'user-1' } }, { auth: 'apiKey' }).ok).toBe(
      true,
    );
  });

  it('2.8 sessionSettings: ignored with token authentication', () => {
    expect(validateChatRequest({ input: 'hi' }, { auth: 'token' }).ok).toBe(true);
    expect(
      validateChatRequest({ input: 'hi', sessionSettings: { externalId: 'NOT valid' } }, { auth: 'token' }).ok,
    ).toBe(true);
  });

  it('2.8 sessionSettings: validated when present and the auth kind is not given', () => {
    expect(validateChatRequest({ input: 'hi' }).ok).toBe(true);
    expect(validateChatRequest({ input: 'hi', sessionSettings: {} }).ok).toBe(false);
  });

  it('2.8 sessionSettings: exactly one of externalId or internalId', () => {
    const neither = validateChatRequest({ sessionSettings: { email: 'a@b.c' } }, { auth: 'apiKey' });
    const both = validateChatRequest({ sessionSettings: { externalId: 'u', internalId: 'a@b.c' } }, { auth: 'apiKey' });
    for (const result of [neither, both]) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems).toEqual(['sessionSettings: externalId and internalId: give exactly one']);
    }
    expect(validateChatRequest({ sessionSettings: { internalId: 'analyst@example.com' } }, { auth: 'apiKey' }).ok).toBe(
      true,
    );
  });

  it('2.8 sessionSettings: externalId is lowercase with no spaces', () => {
    for (const externalId of ['User-1', 'user 1', 'user\t1', '']) {
      expect(validateChatRequest({ sessionSettings: { externalId } }, { auth: 'apiKey' }).ok).toBe(false);
    }
    expect(validateChatRequest({ sessionSettings: { externalId: 'user@example.com' } }, { auth: 'apiKey' }).ok).toBe(
      true,
    );
  });

  it('2.8 sessionSettings: userAttributes, groups and securityContext are not allowed with internalId', () => {
    const result = validateChatRequest(
      {
        sessionSettings: {
          internalId: 'analyst@example.com',
          userAttributes: [{ name: 'region', value: 'EU' }],
          groups: ['sales'],
          securityContext: { tenant: 't1' },
        },
      },
      { auth: 'apiKey' },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      'sessionSettings.userAttributes: not allowed with internalId',
      'sessionSettings.groups: not allowed with internalId',
      'sessionSettings.securityContext: not allowed with internalId',
    ]);
  });

  it('2.8 sessionSettings: the same fields are fine with externalId', () => {
    const body = {
      sessionSettings: {
        externalId: 'user-1',
        email: 'user@example.com',
        userAttributes: [{ name: 'region', value: 'EU' }],
        groups: ['sales'],
        securityContext: { tenant: 't1' },
        isEphemeral: false,
        ephemeralTtlSeconds: 3600,
        timezone: 'Europe/Berlin',
        allowChatWorkspaceAuthoring: true,
      },
    };
    expect(validateChatRequest(body, { auth: 'apiKey' })).toEqual({ ok: true, value: body });
  });

  it('2.8 sessionSettings: shapes of userAttributes, groups, securityContext, isEphemeral and ephemeralTtlSeconds', () => {
    const result = validateChatRequest(
      {
        sessionSettings: {
          externalId: 'u',
          userAttributes: [{ value: 1 }],
          groups: ['ok', 3],
          securityContext: [],
          isEphemeral: 'no',
          ephemeralTtlSeconds: 0,
        },
      },
      { auth: 'apiKey' },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems).toHaveLength(5);
  });

  it('2.8 isDefaultBranch: defaults to true without activeBranchName and false with it', () => {
    expect(resolveIsDefaultBranch({})).toBe(true);
    expect(resolveIsDefaultBranch({ activeBranchName: 'dev' })).toBe(false);
    expect(resolveIsDefaultBranch({ activeBranchName: 'main', isDefaultBranch: true })).toBe(true);
    expect(resolveIsDefaultBranch({ isDefaultBranch: false })).toBe(false);
  });
});

describe('chat paths (4.4)', () => {
  it('4.4 chat and abort paths below {ai_url}', () => {
    expect(CHAT_STREAM_PATH).toBe('/chat/stream-chat-state');
    expect(CHAT_ABORT_PATH).toBe(CHAT_STREAM_PATH.replace('/stream-chat-state', '/abort'));
  });
});

describe('classifyStreamLine (2.8, behaviour 1)', () => {
  it('behaviour 1 example sequence: every line sorts by meaning', () => {
    const lines = [
      { id: '__cutoff__', role: 'assistant', state: { isStreaming: false, chatId: CHAT_ID }, sort: 0 },
      {
        id: '1732512345678-message',
        role: 'user',
        content: 'Show me revenue trends for the last 6 months',
        isDelta: false,
        sort: 1,
      },
      {
        id: 'cdfe1a84',
        role: 'assistant',
        content: '',
        thinking: 'The user wants ...',
        graphPath: [AGENT_NODE],
        isStructuredResponse: false,
        isInProcess: true,
        isDelta: true,
        sort: 3,
      },
      {
        id: '4849adb2',
        role: 'assistant',
        toolCall: { name: 'serviceMeta', input: '{"searchQuery":"revenue trends"}' },
        isInProcess: true,
        graphPath: [AGENT_NODE, 'tools'],
        isDelta: false,
        sort: 5,
      },
      {
        id: '4849adb2',
        role: 'assistant',
        toolCall: {
          name: 'serviceMeta',
          input: '{"searchQuery":"revenue trends"}',
          result: JSON.stringify(META_RESULT),
        },
        isInProcess: false,
        graphPath: [AGENT_NODE, 'tools'],
        isDelta: false,
        sort: 6,
      },
      { id: '__state__', role: 'assistant', state: { messages: [] }, isDelta: false, sort: 10 },
      {
        id: '__usage__',
        type: 'usage',
        usage: {
          models: ['m'],
          llmCalls: 7,
          inputTokens: 18412,
          outputTokens: 2280,
          cacheWriteTokens: 0,
          cacheReadTokens: 0,
          totalTokens: 20692,
        },
      },
    ];
    expect(lines.map(kindOf)).toEqual(['cutoff', 'message', 'message', 'message', 'message', 'state', 'usage']);
    const cutoff = classifyStreamLine(lines[0]);
    expect(cutoff.kind === 'cutoff' && cutoff.line.state.chatId).toBe(CHAT_ID);
  });

  it('behaviour 1 __cutoff__ needs state.chatId', () => {
    expect(kindOf({ id: '__cutoff__', state: { isStreaming: true, chatId: 'c' } })).toBe('cutoff');
    expect(kindOf({ id: '__cutoff__', state: { isStreaming: true } })).toBe('invalid');
    expect(kindOf({ id: '__cutoff__' })).toBe('invalid');
  });

  it('behaviour 1 __state__ in a foreign serialisation is tolerated', () => {
    const line = {
      id: '__state__',
      role: 'assistant',
      state: {
        messages: [
          {
            lc: 1,
            type: 'constructor',
            id: ['langchain', 'schema', 'messages', 'HumanMessage'],
            kwargs: { content: 'Show me revenue', additional_kwargs: {} },
          },
        ],
      },
      isDelta: false,
      sort: 10,
    };
    expect(kindOf(line)).toBe('state');
    expect(kindOf({ id: '__state__' })).toBe('invalid');
  });

  it('behaviour 1 __aborted__, __suspended__ and __usage__ sentinels', () => {
    expect(kindOf({ id: '__aborted__', type: 'abort', code: 'chat_aborted', error: 'Chat aborted by user' })).toBe(
      'aborted',
    );
    const suspended = {
      id: '__suspended__',
      type: 'suspend',
      code: 'chat_suspended',
      retryable: true,
      messageId: '1732512345678-message',
      error: 'Server restarting',
    };
    const classified = classifyStreamLine(suspended);
    expect(classified).toEqual({ kind: 'suspended', line: suspended });
    expect(
      kindOf({
        id: '__usage__',
        type: 'usage',
        usage: {
          models: [],
          llmCalls: 0,
          inputTokens: 0,
          outputTokens: 0,
          cacheWriteTokens: 0,
          cacheReadTokens: 0,
          totalTokens: 0,
        },
      }),
    ).toBe('usage');
    expect(kindOf({ id: '__usage__', type: 'usage' })).toBe('invalid');
  });

  it('behaviour 1 an error after streaming started is a line {"error"} with no other field', () => {
    expect(classifyStreamLine({ error: 'Internal error' })).toEqual({
      kind: 'error',
      line: { error: 'Internal error' },
    });
    expect(classifyStreamLine({ error: STREAMING_IN_PROGRESS })).toEqual({
      kind: 'error',
      line: { error: STREAMING_IN_PROGRESS },
    });
    expect(kindOf({ error: 42 })).toBe('invalid');
  });

  it('7 chat authentication failure: a JSON-RPC error object', () => {
    const rpc = createRpcAuthError();
    expect(rpc).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null });
    expect(classifyStreamLine(rpc)).toEqual({ kind: 'rpcError', line: rpc });
    expect(kindOf({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: 1 })).toBe('rpcError');
    // Only an error *object* makes a JSON-RPC error; a string error is an ordinary error line.
    expect(kindOf({ jsonrpc: '2.0', error: 'Unauthorized' })).toBe('error');
    expect(kindOf({ jsonrpc: '2.0', error: null })).toBe('invalid');
  });

  it('2.8 stream message: optional fields may be absent or null', () => {
    expect(kindOf({ id: 'm', role: 'assistant' })).toBe('message');
    expect(
      kindOf({
        id: 'm',
        role: 'user',
        content: null,
        thinking: null,
        sort: null,
        isDelta: null,
        graphPath: null,
        toolCall: null,
      }),
    ).toBe('message');
  });

  it.each([
    ['null', null],
    ['an array', [{ id: 'm', role: 'user' }]],
    ['a string', 'hello'],
    ['a number', 42],
    ['a message without id', { role: 'user', content: 'x' }],
    ['a message with an empty id', { id: '', role: 'user' }],
    ['a message with a numeric id', { id: 7, role: 'user' }],
    ['an unknown role', { id: 'm', role: 'system' }],
    ['no role', { id: 'm', content: 'x' }],
    ['content that is not a string', { id: 'm', role: 'assistant', content: 5 }],
    ['thinking that is not a string', { id: 'm', role: 'assistant', thinking: {} }],
    ['sort that is not a number', { id: 'm', role: 'assistant', sort: '3' }],
    ['isDelta that is not a boolean', { id: 'm', role: 'assistant', isDelta: 'true' }],
    ['graphPath that is not an array', { id: 'm', role: 'assistant', graphPath: 'final' }],
    ['graphPath with a non-string node', { id: 'm', role: 'assistant', graphPath: ['final', 1] }],
    ['a toolCall without a name', { id: 'm', role: 'assistant', toolCall: { input: '{}' } }],
    [
      'a toolCall whose input is an object, not JSON text',
      { id: 'm', role: 'assistant', toolCall: { name: 'serviceMeta', input: { searchQuery: 'x' } } },
    ],
    [
      'a toolCall whose result is an object, not JSON text',
      { id: 'm', role: 'assistant', toolCall: { name: 'serviceMeta', input: '{}', result: {} } },
    ],
    ['an error line that carries an id', { id: 'm', error: 'boom' }],
  ])('2.8 invalid line: %s', (_name, value) => {
    const classified = classifyStreamLine(value);
    expect(classified.kind).toBe('invalid');
    if (classified.kind === 'invalid') {
      expect(classified.value).toBe(value);
      expect(classified.reason.length).toBeGreaterThan(0);
    }
  });

  it('property: never throws, whatever the value', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            {
              id: fc.oneof(fc.constantFrom(...Object.values(SENTINEL_IDS)), fc.anything()),
              role: fc.anything(),
              state: fc.anything(),
              usage: fc.anything(),
              toolCall: fc.anything(),
              graphPath: fc.anything(),
            },
            { requiredKeys: [] },
          ),
        ),
        (value) => {
          const classified = classifyStreamLine(value);
          expect([
            'message',
            'cutoff',
            'state',
            'aborted',
            'suspended',
            'usage',
            'error',
            'rpcError',
            'invalid',
          ]).toContain(classified.kind);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('behaviour 1 sentinels: isSentinelId tells them from message ids', () => {
    for (const id of Object.values(SENTINEL_IDS)) expect(isSentinelId(id)).toBe(true);
    expect(isSentinelId('__new_sentinel__')).toBe(true);
    for (const id of ['1732512345678-message', 'cdfe1a84', '____', '__x', 'x__', '_x_'])
      expect(isSentinelId(id)).toBe(false);
  });
});

describe('parseToolCall (2.8, 7, behaviour 1)', () => {
  it('2.8 serviceMeta: a start line (no result) is running with its input parsed', () => {
    expect(parseToolCall({ name: 'serviceMeta', input: '{"searchQuery":"revenue trends"}' })).toEqual({
      status: 'running',
      name: 'serviceMeta',
      input: { searchQuery: 'revenue trends' },
    });
  });

  it('2.8 serviceMeta: a result line is complete with cubes and members', () => {
    const parsed = parseToolCall({
      name: 'serviceMeta',
      input: '{"searchQuery":"revenue trends"}',
      result: JSON.stringify(META_RESULT),
    });
    expect(parsed).toEqual({
      status: 'complete',
      name: 'serviceMeta',
      input: { searchQuery: 'revenue trends' },
      result: { kind: 'serviceMeta', value: META_RESULT },
    });
  });

  it('2.8 serviceSqlApi: input fields and a result with schema, string rows, totalRows, uuid and vegaSpec', () => {
    const result = sqlResult(SQL_RESULT_ROW_LIMIT, 2400);
    const parsed = parseToolCall({
      name: 'serviceSqlApi',
      input: JSON.stringify(SQL_INPUT),
      result: JSON.stringify(result),
    });
    expect(parsed.status).toBe('complete');
    if (parsed.status !== 'complete') return;
    expect(parsed.input).toEqual(SQL_INPUT);
    expect(parsed.result).toEqual({ kind: 'serviceSqlApi', value: result });
    expect(SQL_RESULT_ROW_LIMIT).toBe(100);
  });

  it('behaviour 1 older shape: input {query}, result rows as objects with an annotation', () => {
    const result = { data: [{ 'orders.month': '2024-01', 'orders.revenue': '10' }], annotation: { measures: {} } };
    const parsed = parseToolCall({
      name: 'serviceSqlApi',
      input: '{"query":{"measures":["orders.revenue"]}}',
      result: JSON.stringify(result),
    });
    expect(parsed).toEqual({
      status: 'complete',
      name: 'serviceSqlApi',
      input: { query: { measures: ['orders.revenue'] } },
      result: { kind: 'legacyQuery', value: result },
    });
  });

  it('2.8 tool error: a result whose JSON holds an error string is an error state from the tool', () => {
    expect(
      parseToolCall({
        name: 'serviceSqlApi',
        input: JSON.stringify(SQL_INPUT),
        result: '{"error":"Column revenue not found"}',
      }),
    ).toEqual({
      status: 'error',
      name: 'serviceSqlApi',
      input: SQL_INPUT,
      error: 'Column revenue not found',
      source: 'tool',
    });
  });

  it('a tool input that is not JSON is an error state from parsing, with the raw text as input', () => {
    const parsed = parseToolCall({
      name: 'serviceMeta',
      input: '{"searchQuery":',
      result: JSON.stringify(META_RESULT),
    });
    expect(parsed).toMatchObject({ status: 'error', name: 'serviceMeta', input: '{"searchQuery":', source: 'parse' });
    if (parsed.status === 'error') expect(parsed.error).toMatch(/^Tool input is not valid JSON/);
  });

  it('a tool result that is not JSON is an error state from parsing, never a throw', () => {
    const parsed = parseToolCall({ name: 'serviceSqlApi', input: '{}', result: '{"data": [[' });
    expect(parsed).toMatchObject({ status: 'error', input: {}, source: 'parse' });
    if (parsed.status === 'error') expect(parsed.error).toMatch(/^Tool result is not valid JSON/);
  });

  it('an empty input reads as no input; a result of another shape is kept as other', () => {
    expect(parseToolCall({ name: 'x', input: '' })).toEqual({ status: 'running', name: 'x', input: undefined });
    expect(parseToolCall({ name: 'x', input: '{}', result: '42' })).toEqual({
      status: 'complete',
      name: 'x',
      input: {},
      result: { kind: 'other', value: 42 },
    });
    expect(parseToolCall({ name: 'x', input: '{}', result: '{"error":{"nested":true}}' })).toMatchObject({
      status: 'complete',
      result: { kind: 'other' },
    });
  });

  it('property: never throws on any wire text', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.option(
          fc.oneof(
            fc.string(),
            fc.jsonValue().map((v) => JSON.stringify(v)),
          ),
          { nil: undefined },
        ),
        (name, input, result) => {
          const parsed = result === undefined ? parseToolCall({ name, input }) : parseToolCall({ name, input, result });
          expect(['running', 'complete', 'error']).toContain(parsed.status);
          if (parsed.status === 'complete') toResultTable(parsed.result);
        },
      ),
    );
  });
});

describe('toResultTable (2.8, behaviour 1)', () => {
  it('2.8 serviceSqlApi: columns from schema with their types, rows from data, totalRows kept', () => {
    const result = sqlResult(3, 2400);
    const table = toResultTable({ kind: 'serviceSqlApi', value: result });
    expect(table).toEqual({
      columns: [
        { name: 'month', type: 'Timestamp' },
        { name: 'revenue', type: 'Double' },
      ],
      rows: result.data,
      totalRows: 2400,
    });
  });

  it('4.4 loading all results: totalRows tells that more rows exist than the 100 returned', () => {
    const table = toResultTable(classifyToolResult(sqlResult(SQL_RESULT_ROW_LIMIT, 250)));
    expect(table?.rows).toHaveLength(100);
    expect(table?.totalRows).toBe(250);
  });

  it('behaviour 1 older shape renders as a table: columns in first-seen order, missing cells undefined', () => {
    const table = toResultTable({
      kind: 'legacyQuery',
      value: {
        data: [
          { month: '2024-01', revenue: '10' },
          { month: '2024-02', region: 'EU' },
        ],
        annotation: {},
      },
    });
    expect(table).toEqual({
      columns: [{ name: 'month' }, { name: 'revenue' }, { name: 'region' }],
      rows: [
        ['2024-01', '10', undefined],
        ['2024-02', undefined, 'EU'],
      ],
      totalRows: 2,
    });
  });

  it('results without a table give none', () => {
    const meta: ToolResult = { kind: 'serviceMeta', value: META_RESULT };
    expect(toResultTable(meta)).toBeUndefined();
    expect(toResultTable({ kind: 'other', value: 1 })).toBeUndefined();
  });

  it('classifyToolResult decides by shape', () => {
    expect(classifyToolResult(sqlResult(1)).kind).toBe('serviceSqlApi');
    expect(classifyToolResult(META_RESULT).kind).toBe('serviceMeta');
    expect(classifyToolResult({ data: [{ a: 1 }] }).kind).toBe('legacyQuery');
    expect(classifyToolResult({ data: [1, 2] }).kind).toBe('other');
    expect(classifyToolResult([1]).kind).toBe('other');
    expect(classifyToolResult(null).kind).toBe('other');
  });
});

describe('final answer rule (4.4)', () => {
  it.each([
    [{ role: 'assistant', graphPath: ['final'] }, true],
    [{ role: 'assistant', graphPath: ['final', 'tools'] }, true],
    [{ role: 'assistant', graphPath: ['final', 'a', 'b'] }, false],
    [{ role: 'user', graphPath: ['final'] }, false],
    [{ role: 'assistant', graphPath: [AGENT_NODE, 'final'] }, false],
    [{ role: 'assistant', graphPath: [AGENT_NODE] }, false],
    [{ role: 'assistant', graphPath: [] }, false],
    [{ role: 'assistant', graphPath: null }, false],
    [{ role: 'assistant' }, false],
  ])('4.4 final answer: %j is a final answer message: %s', (message, expected) => {
    expect(isFinalAnswerMessage(message)).toBe(expected);
  });
});
