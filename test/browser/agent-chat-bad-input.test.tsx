/**
 * Bad input through the whole chat in real Chromium: one streamed answer
 * carrying a tool call whose input JSON is cut, one whose result JSON is cut, a `vegaSpec` that is
 * not Vega-Lite, one that is not JSON, a `result.data` that does not match its `schema`, and a
 * markdown bomb (10,000 nested quotes, then a 1 MB line) streamed in deltas. Each bad part shows
 * an error card or plain text in its own place; every other part of the conversation renders,
 * and the chat finishes (`ready`), so the tab never froze.
 */
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../src/styles.css';
import { AgentChat } from '../../src/components/chat';
import { DEFAULT_MARKDOWN_LIMITS } from '../../src/components/markdown';
import { createReplayFetch } from '../../src/testing';

const CHAT_ID = '00000000-0000-4000-8000-0000000000bd';
const TOOLS = ['service_data_analyst_agent', 'tools'];
const AGENT = ['service_data_analyst_agent'];

const SCHEMA = [
  { name: 'status', column_type: 'String' },
  { name: 'orders', column_type: 'Int64' },
];
const DATA = [
  ['completed', '120'],
  ['shipped', '45'],
  ['processing', '12'],
];
const BARS = JSON.stringify({
  mark: 'bar',
  encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } },
});

function sqlCall(id: string, sort: number, title: string, result: Record<string, unknown>): unknown[] {
  const input = JSON.stringify({
    sqlQuery: 'SELECT status, COUNT(*) AS orders FROM orders GROUP BY 1',
    queryTitle: title,
    description: title,
    userRequest: 'orders by status',
    vegaSpec: result['vegaSpec'],
  });
  const toolCall = { name: 'serviceSqlApi', input };
  return [
    { id, role: 'assistant', toolCall, graphPath: TOOLS, isInProcess: true, isDelta: false, sort },
    {
      id,
      role: 'assistant',
      toolCall: {
        ...toolCall,
        result: JSON.stringify({
          sqlQuery: 'SELECT 1',
          queryTitle: title,
          schema: SCHEMA,
          data: DATA,
          totalRows: DATA.length,
          ...result,
        }),
      },
      graphPath: TOOLS,
      isInProcess: false,
      isDelta: false,
      sort,
    },
  ];
}

const NESTED = '> '.repeat(10_000) + 'the bottom of the quotes';
const LONG_LINE = 'word '.repeat(200_000);

/** `text` as `count` content deltas of message `id`, then the message whole. */
function streamed(id: string, sort: number, text: string, count: number, graphPath: string[]): unknown[] {
  const size = Math.ceil(text.length / count);
  const lines: unknown[] = [];
  for (let start = 0; start < text.length; start += size) {
    lines.push({
      id,
      role: 'assistant',
      content: text.slice(start, start + size),
      graphPath,
      isInProcess: true,
      isDelta: true,
      sort,
    });
  }
  lines.push({ id, role: 'assistant', content: text, graphPath, isInProcess: false, isDelta: false, sort });
  return lines;
}

const TRANSCRIPT = [
  { id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId: CHAT_ID }, sort: 0 },
  {
    id: '1767225600000-message',
    role: 'user',
    content: 'How many orders are in each status?',
    isDelta: false,
    sort: 1,
  },
  {
    id: 'cut-input',
    role: 'assistant',
    toolCall: { name: 'serviceSqlApi', input: '{"sqlQuery":"SELECT sta', result: '{}' },
    graphPath: TOOLS,
    isInProcess: false,
    isDelta: false,
    sort: 2,
  },
  {
    id: 'cut-result',
    role: 'assistant',
    toolCall: { name: 'serviceMeta', input: '{"searchQuery":"orders"}', result: '{"cubes":[{"name":"orders","memb' },
    graphPath: TOOLS,
    isInProcess: false,
    isDelta: false,
    sort: 3,
  },
  ...sqlCall('not-vega-lite', 4, 'Not Vega-Lite', {
    vegaSpec: JSON.stringify({ mark: 'no-such-mark', encoding: { x: { field: 'status' } } }),
  }),
  ...sqlCall('not-json', 5, 'Not JSON', { vegaSpec: '{"mark": "bar", "encoding": {' }),
  ...sqlCall('mismatch', 6, 'Rows off schema', { vegaSpec: BARS, data: [['completed', '120'], ['shipped']] }),
  ...sqlCall('good', 7, 'Orders by status', { vegaSpec: BARS }),
  ...streamed(
    'bomb',
    8,
    `Quotes:\n\n${NESTED}\n\nA long line:\n\n${LONG_LINE}\n\nAfter the bomb, **still markdown**.`,
    40,
    AGENT,
  ),
  ...streamed('answer', 9, 'There are **120** completed orders.', 4, ['final']),
  {
    id: '__usage__',
    type: 'usage',
    usage: {
      models: ['m'],
      llmCalls: 3,
      inputTokens: 10,
      outputTokens: 10,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      totalTokens: 20,
    },
  },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(() => {
  root?.unmount();
  host?.remove();
});

const toolCall = (container: HTMLElement, title: string): HTMLElement =>
  [...container.querySelectorAll<HTMLElement>('[data-part="tool-call"]')].find(
    (part) => part.querySelector('.service-chat-step-detail')?.textContent === title,
  )!;

describe('AgentChat with bad input (real Chromium)', () => {
  it('each bad part is an error card or plain text in its own place; the rest of the conversation renders and the chat finishes', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPT, chunking: 4096 });
    host = document.createElement('div');
    host.style.height = '700px';
    host.style.display = 'flex';
    host.style.flexDirection = 'column';
    document.body.append(host);
    const current = createRoot(host);
    root = current;
    flushSync(() => current.render(<AgentChat url="/recorded" fetch={replay.fetch} />));
    const container = host;
    await userEvent.type(
      container.querySelector<HTMLElement>('textarea')!,
      'How many orders are in each status?{Enter}',
    );
    await vi.waitFor(
      () => expect(container.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('ready'),
      { timeout: 30_000 },
    );

    // The question and the final answer, as if nothing had gone wrong.
    expect(container.querySelector('[data-role="user"]')?.textContent).toContain('How many orders are in each status?');
    const answer = container.querySelector<HTMLElement>('[data-part="final-answer"]')!;
    expect(answer.querySelector('strong')?.textContent).toBe('120');

    // Tool calls whose JSON is cut: a failed step each (in human words), saying what failed to parse.
    const cutInput = container.querySelector<HTMLElement>(
      '[data-part="tool-call"][data-tool="serviceSqlApi"][data-state="error"]',
    )!;
    expect(cutInput.querySelector('button[aria-expanded]')?.textContent).toMatch(/^Ran a query.*Failed$/);
    expect(cutInput.querySelector('[role="alert"]')?.textContent).toMatch(/Tool input is not valid JSON/);
    const cutResult = container.querySelector<HTMLElement>('[data-part="tool-call"][data-tool="serviceMeta"]')!;
    expect(cutResult.dataset.state).toBe('error');
    await userEvent.click(cutResult.querySelector<HTMLElement>(':scope > button')!);
    expect(cutResult.textContent).toMatch(/Tool result is not valid JSON/);

    // Charts that cannot be drawn: an error card in the chart part, the SQL and the table still there.
    const cases: [string, RegExp][] = [
      ['Not Vega-Lite', /not a valid Vega-Lite chart/],
      ['Not JSON', /spec is not valid JSON/],
      ['Rows off schema', /rows do not match their schema/],
    ];
    for (const [title, problem] of cases) {
      const part = toolCall(container, title);
      const chart = part.querySelector<HTMLElement>('[data-part="chart"]')!;
      await vi.waitFor(() => expect(chart.dataset.state).toBe('error'), { timeout: 20_000 });
      expect(chart.querySelector('[role="alert"]')?.textContent, title).toMatch(problem);
      expect(chart.querySelector('svg')).toBeNull();
      await userEvent.click(part.querySelector<HTMLElement>(':scope > button')!);
      expect(part.querySelector('[data-part="sql"]')).not.toBeNull();
      await userEvent.click(part.querySelector<HTMLElement>('button[aria-pressed="false"]')!);
      expect(part.querySelectorAll('[data-part="result-table"] tbody tr').length, title).toBeGreaterThan(0);
    }
    // The good chart next to them is drawn.
    const good = toolCall(container, 'Orders by status').querySelector<HTMLElement>('[data-part="chart"]')!;
    await vi.waitFor(() => expect(good.dataset.state).toBe('ready'), { timeout: 20_000 });
    expect(good.querySelectorAll('g.mark-rect path')).toHaveLength(DATA.length);

    // The markdown bomb: no quote nesting at all, the 1 MB line as plain text in pieces with every
    // character kept, and the markdown after it rendered as markdown.
    const bomb = [...container.querySelectorAll<HTMLElement>('[data-role="assistant"]')].find((message) =>
      message.textContent?.includes('Quotes:'),
    )!;
    expect(bomb.querySelectorAll('blockquote')).toHaveLength(0);
    const plain = [...bomb.querySelectorAll<HTMLElement>('[data-part="markdown-plain"]')];
    expect(
      plain
        .filter((part) => part.dataset.reason === 'depth')
        .map((part) => part.textContent)
        .join(''),
    ).toContain('the bottom of the quotes');
    const pieces = plain.filter((part) => part.dataset.reason === 'length');
    expect(pieces).toHaveLength(Math.ceil(LONG_LINE.length / DEFAULT_MARKDOWN_LIMITS.maxBlockLength));
    // Every character of the line, its line end included.
    expect(pieces.map((part) => part.textContent).join('') === `${LONG_LINE}\n`).toBe(true);
    expect(bomb.querySelector('strong')?.textContent).toBe('still markdown');
  });
});
