// @vitest-environment node
/** The pure parts of the emulator's chat: intents, chunking, metadata search, chart style, fault syntax. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHART_STYLE } from '../../../src/core/protocol/tools';
import { chartConfig, chunkText, detectIntent, membersMatching, metaSearch } from '../../../src/emulator/chat/agent';
import { CHAT_FAULT_HEADER, fetchWithFaultOnce, parseChatFaults } from '../../../src/emulator/chat/faults';
import { metaResponse } from '../../../src/emulator/data/model';

describe('scripted analyst: intents by keyword', () => {
  it.each([
    ['Show me revenue trends for the last 6 months', 'revenueByMonth'],
    ['monthly sales please', 'revenueByMonth'],
    ['How did income develop over time?', 'revenueByMonth'],
    ['Who are our top customers?', 'topCustomers'],
    ['List the 5 biggest clients', 'topCustomers'],
    ['How many orders are in each status?', 'ordersByStatus'],
    ['How many orders were cancelled?', 'ordersByStatus'],
    ['Revenue by region', 'revenueByRegion'],
    ["What's our profit margin?", 'margin'],
    ['gross margins by quarter', 'margin'],
    ['What is the weather in Paris?', 'unknown'],
    ['hello', 'unknown'],
  ])('%s → %s', (input, kind) => {
    expect(detectIntent(input).kind).toBe(kind);
  });

  it('top N customers: N from "top 25", default 10, capped at 5,000', () => {
    expect(detectIntent('top 25 customers')).toEqual({ kind: 'topCustomers', limit: 25 });
    expect(detectIntent('best customers')).toEqual({ kind: 'topCustomers', limit: 10 });
    expect(detectIntent('top 99999 customers')).toEqual({ kind: 'topCustomers', limit: 5000 });
  });

  it('revenue by month: explicit ranges inside the data (2024-01-01 to 2025-12-31), never relative to now', () => {
    expect(detectIntent('revenue by month')).toMatchObject({ range: { from: '2024-01-01', to: '2026-01-01' } });
    expect(detectIntent('revenue by month in 2024')).toMatchObject({ range: { from: '2024-01-01', to: '2025-01-01' } });
    expect(detectIntent('sales in 2025')).toMatchObject({ range: { from: '2025-01-01', to: '2026-01-01' } });
    expect(detectIntent('revenue for the last 6 months')).toMatchObject({
      range: { from: '2025-07-01', to: '2026-01-01' },
    });
    expect(detectIntent('revenue for the past 1 month')).toMatchObject({
      range: { from: '2025-12-01', to: '2026-01-01' },
    });
    expect(detectIntent('revenue over the last 60 months')).toMatchObject({
      range: { from: '2024-01-01', to: '2026-01-01' },
    });
  });
});

describe('deltas of a few words', () => {
  it('chunks join back to the text, each at most 3 words', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'ü', '📈') }), (text) => {
        const chunks = chunkText(text);
        expect(chunks.join('')).toBe(text);
        for (const chunk of chunks) expect(chunk.trim().split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(3);
      }),
    );
  });

  it('a sentence becomes several chunks', () => {
    expect(chunkText('one two three four five six seven')).toEqual(['one two three ', 'four five six ', 'seven']);
  });
});

describe('2.8 serviceMeta results come from the real metadata', () => {
  it('members carry the title, description, type and aggType of /v1/meta', () => {
    const result = metaSearch('revenue by month', ['orders.total_revenue', 'orders.created_at']);
    expect(result.searchQuery).toBe('revenue by month');
    const orders = metaResponse().cubes.find((cube) => cube.name === 'orders')!;
    const revenue = orders.measures.find((measure) => measure.name === 'orders.total_revenue')!;
    const createdAt = orders.dimensions.find((dimension) => dimension.name === 'orders.created_at')!;
    expect(result.cubes).toEqual([
      {
        name: 'orders',
        type: 'view',
        title: orders.title,
        members: [
          {
            name: revenue.name,
            title: revenue.title,
            description: revenue.description,
            type: revenue.type,
            aggType: revenue.aggType,
          },
          { name: createdAt.name, title: createdAt.title, description: createdAt.description, type: createdAt.type },
        ],
      },
    ]);
  });

  it('the fallback search finds members by word, and nothing for unrelated words', () => {
    expect(membersMatching('customer segment')).toEqual(
      expect.arrayContaining(['orders.customer_segment', 'customers.segment']),
    );
    expect(membersMatching('weather in Paris')).toEqual([]);
  });
});

describe('behaviour 1 official default chart style', () => {
  it('font Inter, label colour #43436B, the ten-colour category palette in order', () => {
    expect(DEFAULT_CHART_STYLE.font).toBe('Inter, sans-serif');
    expect(DEFAULT_CHART_STYLE.labelColor).toBe('#43436B');
    expect(DEFAULT_CHART_STYLE.palette).toEqual([
      '#4E79A7',
      '#F28E2B',
      '#E15759',
      '#76B7B2',
      '#59A14F',
      '#EDC948',
      '#B07AA1',
      '#FF9DA7',
      '#9C755F',
      '#BAB0AC',
    ]);
    const config = chartConfig() as { font: string; axis: { labelColor: string }; range: { category: string[] } };
    expect(config.font).toBe('Inter, sans-serif');
    expect(config.axis.labelColor).toBe('#43436B');
    expect(config.range.category).toEqual([...DEFAULT_CHART_STYLE.palette]);
  });
});

describe('fault injection syntax (x-emulator-fault, chatFault)', () => {
  it('parses every directive, separated by commas or semicolons', () => {
    expect(parseChatFaults('delay=250, cut-after=5; suspend-after=4,error-after=3, hold-after=2')).toEqual({
      ok: true,
      faults: { delayMs: 250, cutAfter: 5, suspendAfter: 4, errorAfter: 3, holdAfter: 2 },
    });
    expect(parseChatFaults('status=503')).toEqual({ ok: true, faults: { status: 503 } });
    expect(parseChatFaults('server-error')).toEqual({ ok: true, faults: { status: 500 } });
    expect(parseChatFaults(undefined)).toEqual({ ok: true, faults: {} });
    expect(parseChatFaults(' ')).toEqual({ ok: true, faults: {} });
  });

  it.each(['cut-after', 'cut-after=x', 'cut-after=-1', 'status=200', 'status=700', 'explode', 'delay=1=2'])(
    'refuses "%s"',
    (text) => {
      expect(parseChatFaults(text).ok).toBe(false);
    },
  );
});

describe('fetchWithFaultOnce', () => {
  it('sends the directives with the first stream request only; aborts, other routes and later requests go clean', async () => {
    const seen: { url: string; fault: string | null; auth: string | null }[] = [];
    const base = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      seen.push({
        url: input instanceof Request ? input.url : String(input),
        fault: headers.get(CHAT_FAULT_HEADER),
        auth: headers.get('authorization'),
      });
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    const faulty = fetchWithFaultOnce('cut-after=3', base);
    const ai = 'http://127.0.0.1:1/api/v1/public/acme/agents/7';
    await faulty(`${ai}/chat/abort`, { method: 'POST' });
    await faulty('/api/service/chat/stream-chat-state?x=1', { method: 'POST', headers: { authorization: 'Bearer t' } });
    await faulty(new Request(`${ai}/chat/stream-chat-state`, { method: 'POST' }));
    expect(seen).toEqual([
      { url: `${ai}/chat/abort`, fault: null, auth: null },
      // A relative host route counts, query and all; the caller's own headers stay.
      { url: '/api/service/chat/stream-chat-state?x=1', fault: 'cut-after=3', auth: 'Bearer t' },
      { url: `${ai}/chat/stream-chat-state`, fault: null, auth: null },
    ]);
  });
});
