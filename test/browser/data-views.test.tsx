/**
 * The data views in real Chromium (React 19 in `browser`, 18 in `browser-react18`), the way a
 * partner page runs them: the token from the page's own data-token route (`createDataTokenHandler`
 * through `fetchDataToken`), the data API behind the page's same-origin proxy, both mounted on the
 * test page's server like Storybook's (`.storybook/service-backend.ts`). A home page of three
 * cards, a chart and a table shows what the data API answers; a server-rendered, prefetched page
 * hydrates without asking again; unmounting aborts the browser's request.
 */
import {
  HydrationBoundary,
  QueryClient,
  QueryClientProvider,
  dehydrate,
  type DehydratedState,
} from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/styles.css';
import { MetricCard, QueryChart, QueryTable } from '../../src/components/data';
import { dataQueryOptions, type DataSettings } from '../../src/core/data-query';
import { fetchDataToken } from '../../src/core/data-token';
import { ServiceProvider } from '../../src/react';
import { useDataQuery } from '../../src/react/use-data-query';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A host element on the page, removed after the test. */
function host(): HTMLElement {
  const element = document.createElement('div');
  document.body.append(element);
  cleanups.push(() => element.remove());
  return element;
}

/** The page's data settings: its proxy route and its token route, with a fetch that records. */
function pageSettings(slow?: number) {
  const sent: { url: string; signal: AbortSignal | undefined }[] = [];
  const settings: DataSettings = {
    url: '/api/data',
    token: fetchDataToken('/api/data-token'),
    continueWait: { delayMs: 20 },
    fetch: (input, init) => {
      sent.push({ url: String(input), signal: init?.signal ?? undefined });
      const headers = new Headers(init?.headers);
      if (slow !== undefined) headers.set('x-emulator-slow', String(slow));
      return fetch(input, { ...init, headers });
    },
  };
  return { settings, sent };
}

/** What the data API answers `/v1/load` for `query`, through the same routes. */
async function answerOf(query: unknown): Promise<Record<string, string>[]> {
  const { token } = (await (await fetch('/api/data-token')).json()) as { token: string };
  const response = await fetch('/api/data/v1/load', {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return ((await response.json()) as { data: Record<string, string>[] }).data;
}

const REVENUE = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;
const ORDERS = {
  measures: ['orders.count'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;
const CUSTOMERS = {
  measures: ['orders.customers_count'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;
const TREND = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'this year' }],
} as const;
const TOP = {
  measures: ['orders.total_revenue'],
  dimensions: ['orders.customer_name'],
  order: { 'orders.total_revenue': 'desc' },
  limit: 30,
} as const;

function Home() {
  return (
    <main>
      <MetricCard query={REVENUE} compare="previousPeriod" locale="en-US" />
      <MetricCard query={ORDERS} compare="previousPeriod" locale="en-US" />
      <MetricCard query={CUSTOMERS} locale="en-US" />
      <QueryChart query={TREND} title="Revenue by month" />
      <QueryTable query={TOP} pageSize={10} title="Top customers" locale="en-US" />
    </main>
  );
}

describe('a partner home page in the browser', () => {
  it('shows what the data API answers: token from the page route, data through the page proxy', async () => {
    const element = host();
    const { settings, sent } = pageSettings();
    const root = createRoot(element);
    cleanups.push(() => root.unmount());
    flushSync(() =>
      root.render(
        <ServiceProvider data={settings}>
          <Home />
        </ServiceProvider>,
      ),
    );
    await vi.waitFor(
      () => expect(element.querySelector('[data-part="chart"]')?.getAttribute('data-state')).toBe('ready'),
      { timeout: 30_000 },
    );
    await vi.waitFor(() =>
      expect(element.querySelectorAll('[data-part="metric-card"][data-state="ready"]')).toHaveLength(3),
    );
    const values = [...element.querySelectorAll('[data-part="metric-value"]')].map((value) => value.textContent);
    const [revenue, orders, customers] = await Promise.all([REVENUE, ORDERS, CUSTOMERS].map(answerOf));
    expect(values[1]).toBe(new Intl.NumberFormat('en-US').format(Number(orders![0]!['orders.count'])));
    expect(values[2]).toBe(new Intl.NumberFormat('en-US').format(Number(customers![0]!['orders.customers_count'])));
    expect(values[0]).toBe(
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
        Number(revenue![0]!['orders.total_revenue']),
      ),
    );
    // One point per month of the year, and the first page of the best customers.
    expect(element.querySelectorAll('[data-part="chart"] g.mark-symbol path')).toHaveLength(12);
    const top = await answerOf(TOP);
    const names = () => [...element.querySelectorAll('tbody tr')].map((row) => row.firstElementChild?.textContent);
    expect(names()).toEqual(top.slice(0, 10).map((row) => row['orders.customer_name']));
    element.querySelector<HTMLButtonElement>('[data-part="load-more"]')!.click();
    await vi.waitFor(() => expect(names()).toEqual(top.slice(0, 20).map((row) => row['orders.customer_name'])));
    // Three cards and two comparisons, the chart, two pages of the table.
    expect(sent.filter((request) => request.url.endsWith('/v1/load'))).toHaveLength(8);
  });

  it('a server render with prefetched data hydrates with no mismatch and no request', async () => {
    const server = pageSettings();
    const serverClient = new QueryClient();
    const previous = { ...REVENUE, timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last month' }] };
    await Promise.all(
      [REVENUE, previous, ORDERS].map((query) => serverClient.prefetchQuery(dataQueryOptions(query, server.settings))),
    );
    const tree = (client: QueryClient, data: DataSettings, state?: DehydratedState): ReactNode => (
      <QueryClientProvider client={client}>
        <HydrationBoundary state={state}>
          <ServiceProvider data={data}>
            <MetricCard query={REVENUE} compare="previousPeriod" locale="en-US" />
            <MetricCard query={ORDERS} locale="en-US" />
          </ServiceProvider>
        </HydrationBoundary>
      </QueryClientProvider>
    );
    const html = renderToString(tree(serverClient, server.settings));
    const state = JSON.parse(JSON.stringify(dehydrate(serverClient))) as DehydratedState;
    expect(html.match(/data-part="metric-card" data-state="ready"/g)).toHaveLength(2);

    const element = host();
    element.innerHTML = html;
    const browser = pageSettings();
    const recoverable = vi.fn();
    const root = hydrateRoot(element, tree(new QueryClient(), browser.settings, state), {
      onRecoverableError: recoverable,
    });
    cleanups.push(() => root.unmount());
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(recoverable).not.toHaveBeenCalled();
    expect(browser.sent).toEqual([]);
    expect(element.innerHTML).toContain('data-part="metric-comparison"');
  });

  it('unmounting a view aborts the request the browser has in flight (Continue wait included)', async () => {
    const element = host();
    const { settings, sent } = pageSettings(1000);
    function Probe() {
      const query = useDataQuery({ measures: ['orders.count'], dimensions: ['orders.store_id'] });
      return <p>{query.status}</p>;
    }
    const root = createRoot(element);
    flushSync(() =>
      root.render(
        <ServiceProvider data={settings}>
          <Probe />
        </ServiceProvider>,
      ),
    );
    await vi.waitFor(() => expect(sent.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    root.unmount();
    await vi.waitFor(() => expect(sent.at(-1)?.signal?.aborted).toBe(true));
    const count = sent.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toHaveLength(count);
  });
});
