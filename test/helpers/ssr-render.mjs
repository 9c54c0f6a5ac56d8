/**
 * Server renders of every component `@service/react` exports, as a partner's server would do them:
 * plain JavaScript importing the package by its public names, so it runs as it is in Node against
 * the built package (the package imports itself through `exports`) and, bundled with esbuild, against
 * the sources or the build on either React (test/unit/react/ssr.test.ts maps the names).
 *
 * `render()` returns one HTML string per case. Nothing here may touch a browser global.
 */
import { createElement as h, version } from 'react';
import { renderToString } from 'react-dom/server';
import {
  AgentChat,
  AgentChatProvider,
  ChatAnnouncer,
  ChatComposer,
  ChatEmptyState,
  ChatMessageItem,
  ChatMessageList,
  ChatThinking,
  ChatToolCallView,
  EmbedErrorState,
  EmbedPlaceholder,
  EmbedRetryButton,
  EmbeddedApp,
  EmbeddedChat,
  EmbeddedDashboard,
  MetricCard,
  QueryChart,
  QueryTable,
  ResultChart,
  ResultTable,
  ServiceProvider,
  SqlToolView,
  StreamingMarkdown,
  fetchEmbedSession,
} from '@service/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  ServiceHttpError,
  createAgentChat,
  createChatClient,
  createThreadStore,
  dataQueryOptions,
} from '@service/react/core';
import { TRANSCRIPTS } from '@service/react/testing';

const TENANT = 'https://acme.example.com';

/** A controller holding a finished conversation, from a recorded transcript. */
function recordedChat() {
  const store = createThreadStore();
  for (const line of TRANSCRIPTS['revenue-by-month'].split('\n')) if (line.trim()) store.apply(JSON.parse(line));
  // No request leaves a server render: the client only exists to give the controller its shape.
  return createAgentChat({ client: createChatClient({ url: '/api/service' }), store });
}

const COLUMNS = [
  { name: 'month', type: 'date' },
  { name: 'revenue', type: 'number' },
];
const ROWS = [
  ['2025-01-01', 1200.5],
  ['2025-02-01', 1350],
];
const SPEC = {
  mark: 'bar',
  encoding: { x: { field: 'month', type: 'temporal' }, y: { field: 'revenue', type: 'quantitative' } },
};

const DATA = { url: 'https://data.example/data/1', token: 'a-token' };
const REVENUE = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
};

/** A request's client holding the revenue card's result, as a server loader's prefetch leaves it. */
function prefetched() {
  const client = new QueryClient();
  client.setQueryData(dataQueryOptions(REVENUE, DATA).queryKey, {
    data: [{ 'orders.total_revenue': '1234567.891' }],
    annotation: {
      measures: {
        'orders.total_revenue': {
          title: 'Orders Total revenue',
          shortTitle: 'Revenue',
          type: 'number',
          format: 'currency',
        },
      },
      dimensions: {},
      segments: {},
      timeDimensions: {},
    },
    query: REVENUE,
  });
  return client;
}

/** Each case: a name and the element a server renders. */
function cases() {
  const chat = recordedChat();
  const { finalAnswer: answer, messages } = chat.getSnapshot();
  const withThinking = messages.find((message) => message.thinking);
  const withSql = messages.find((message) => message.toolCall?.name === 'serviceSqlApi');
  const sqlCall = withSql?.toolCall;
  if (!answer || !withThinking || !withSql || !sqlCall)
    throw new Error('the recorded transcript lacks a final answer, thinking or a SQL call');
  const provider = (child) =>
    h(
      ServiceProvider,
      { tenantUrl: TENANT, getEmbedSession: fetchEmbedSession(), chat: { url: '/api/service' } },
      child,
    );
  const parts = (child) => h(AgentChatProvider, { chat, showThinking: true }, child);
  return {
    embeds: provider([
      h(EmbeddedDashboard, { key: 'd', publicId: 'sales-overview', height: 480, onReady: () => {} }),
      h(EmbeddedApp, { key: 'a', deploymentId: 1, labels: { loading: 'Einen Moment…' } }),
      h(EmbeddedChat, { key: 'c' }),
    ]),
    'embed-parts': h('div', null, [
      h(EmbedPlaceholder, { key: 'p', label: 'Loading the dashboard…' }),
      h(EmbedErrorState, {
        key: 'e',
        error: new ServiceHttpError('The session was refused.', { status: 403 }),
        retry: () => {},
        labels: { errorTitle: 'The dashboard could not load', retry: 'Try again' },
      }),
      h(EmbedRetryButton, { key: 'r', retry: () => {}, label: 'Try again' }),
    ]),
    'agent-chat': provider(h(AgentChat, { suggestions: ['Revenue by month'] })),
    'chat-parts': parts([
      h(ChatMessageList, { key: 'list' }),
      h(ChatEmptyState, { key: 'empty', suggestions: ['Revenue by month'] }),
      h(ChatComposer, { key: 'composer' }),
      h(ChatAnnouncer, { key: 'announcer' }),
    ]),
    'chat-message': parts([
      h(ChatMessageItem, { key: 'answer', message: answer, final: true }),
      h(ChatThinking, { key: 'thinking', message: withThinking }),
      h(ChatToolCallView, { key: 'tool', message: withSql }),
    ]),
    'streaming-markdown': h(StreamingMarkdown, {
      text: '# Revenue\n\n| month | revenue |\n| --- | --- |\n| Jan | **1,200** |\n\n- [x] done\n- unfinished `co',
      streaming: true,
    }),
    'sql-tool-view': provider(h(SqlToolView, { call: sqlCall })),
    'result-table': provider(
      h(ResultTable, {
        table: { columns: COLUMNS, rows: ROWS, totalRows: 5 },
        title: 'Revenue by month',
        locale: 'en-US',
      }),
    ),
    'result-chart': provider(h(ResultChart, { spec: SPEC, columns: COLUMNS, rows: ROWS, title: 'Revenue by month' })),
    // No request leaves a server render: without a prefetch the views render their loading state.
    'data-views': h(ServiceProvider, { data: DATA }, [
      h(MetricCard, { key: 'm', query: REVENUE, compare: 'previousPeriod' }),
      h(QueryChart, { key: 'c', query: { measures: ['orders.count'], dimensions: ['orders.status'] } }),
      h(QueryTable, { key: 't', query: 'SELECT status FROM orders GROUP BY 1' }),
    ]),
    // A page's prefetch (here put in the request's client by hand) renders as data.
    'data-prefetched': h(
      QueryClientProvider,
      { client: prefetched() },
      h(ServiceProvider, { data: DATA }, h(MetricCard, { query: REVENUE, locale: 'en-US' })),
    ),
  };
}

/** Renders every case; `version` is the React that rendered them. */
export function render() {
  const html = {};
  for (const [name, element] of Object.entries(cases())) html[name] = renderToString(element);
  return { version, html };
}
