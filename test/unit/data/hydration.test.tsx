/**
 * A partner home page rendered on a server with prefetched data, then hydrated (React 19 and 18):
 * the server prefetches with the query options (real HTTP to the emulator), renders the data into
 * the HTML, sends the dehydrated cache as JSON; the browser hydrates the same markup without a
 * mismatch and without asking the data API again.
 */
import {
  HydrationBoundary,
  QueryClient,
  QueryClientProvider,
  dehydrate,
  type DehydratedState,
} from '@tanstack/react-query';
import { act, cleanup } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetricCard, QueryChart, QueryTable } from '../../../src/components/data';
import {
  dataInfiniteQueryOptions,
  dataQueryOptions,
  sqlQueryOptions,
  type DataSettings,
} from '../../../src/core/data-query';
import { ServiceProvider } from '../../../src/react';
import { encodeInThisRealm, recordingFetch, startTestEmulator } from './helpers';

encodeInThisRealm();
afterEach(cleanup);

const env = startTestEmulator();

const REVENUE = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;
const ORDERS = {
  measures: ['orders.count'],
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
} as const;
const STATUS_SQL = 'SELECT status, MEASURE(orders.count) AS orders FROM orders GROUP BY 1';

function Home() {
  return (
    <main>
      <MetricCard query={REVENUE} compare="previousPeriod" locale="en-US" />
      <MetricCard query={ORDERS} locale="en-US" />
      <QueryChart query={TREND} title="Revenue this year" />
      <QueryTable query={TOP} pageSize={20} locale="en-US" title="Top customers" />
      <QueryTable query={STATUS_SQL} locale="en-US" title="Orders by status" />
    </main>
  );
}

/** The page's tree: the host's QueryClientProvider, the server's state, the service provider. */
function page(client: QueryClient, data: DataSettings, state?: DehydratedState) {
  return (
    <QueryClientProvider client={client}>
      <HydrationBoundary state={state}>
        <ServiceProvider data={data}>
          <Home />
        </ServiceProvider>
      </HydrationBoundary>
    </QueryClientProvider>
  );
}

describe('server render with prefetched data, then hydration', () => {
  it('the server HTML holds the data; the browser hydrates it with no mismatch and no request', async () => {
    // The server: one QueryClient for this request, the same query options the components use.
    const server = recordingFetch();
    const serverData: DataSettings = { url: env.emulator.dataUrl, token: env.token, fetch: server.fetch };
    const serverClient = new QueryClient();
    const previous = { ...REVENUE, timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last month' }] };
    await Promise.all([
      serverClient.prefetchQuery(dataQueryOptions(REVENUE, serverData)),
      serverClient.prefetchQuery(dataQueryOptions(previous, serverData)),
      serverClient.prefetchQuery(dataQueryOptions(ORDERS, serverData)),
      serverClient.prefetchQuery(dataQueryOptions(TREND, serverData)),
      serverClient.prefetchInfiniteQuery(dataInfiniteQueryOptions(TOP, serverData, { pageSize: 20 })),
      serverClient.prefetchQuery(sqlQueryOptions(STATUS_SQL, serverData)),
    ]);
    expect(server.sent).toHaveLength(6);
    const html = renderToString(page(serverClient, serverData));
    // What crosses the wire: JSON text.
    const state = JSON.parse(JSON.stringify(dehydrate(serverClient))) as DehydratedState;
    expect(JSON.stringify(state)).not.toContain(env.token);

    // The views are ready; only the chart's drawing waits for Vega, in the browser.
    expect(html).not.toMatch(/data-part="(?:metric-card|query-chart|query-table)" data-state="loading"/);
    expect(html).toContain('data-part="chart" data-state="loading"');
    expect(html.match(/data-part="metric-card" data-state="ready"/g)).toHaveLength(2);
    expect(html).toMatch(/data-part="metric-value">\$[\d,]+\.\d\d</);
    expect(html).toContain('data-part="metric-comparison"');
    expect(html).toContain('data-part="query-chart" data-state="ready"');
    expect(html.match(/data-part="query-table" data-state="ready"/g)).toHaveLength(2);
    expect(html).toContain('20 rows loaded');

    // The browser: its own client and token function, the server's HTML and state.
    const browser = recordingFetch();
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const browserClient = new QueryClient();
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(
        container,
        page(browserClient, { url: env.emulator.dataUrl, token: () => env.token, fetch: browser.fetch }, state),
        { onRecoverableError: recoverable },
      );
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(recoverable).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
    expect(browser.sent).toEqual([]);
    expect(container.querySelectorAll('[data-part="metric-card"][data-state="ready"]')).toHaveLength(2);
    expect(container.querySelectorAll('[data-part="query-table"] tbody tr').length).toBeGreaterThan(20);
    act(() => root!.unmount());
    container.remove();
  });

  it('without a prefetch the server renders every loading state and sends nothing; the browser then loads', async () => {
    const server = recordingFetch();
    const html = renderToString(
      page(new QueryClient(), { url: env.emulator.dataUrl, token: env.token, fetch: server.fetch }),
    );
    expect(html.match(/data-state="loading"/g)).toHaveLength(5);
    expect(server.sent).toEqual([]);

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const browser = recordingFetch();
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(
        container,
        page(new QueryClient(), { url: env.emulator.dataUrl, token: env.token, fetch: browser.fetch }),
      );
    });
    await vi.waitFor(() => expect(container.querySelectorAll('[data-state="loading"]')).toHaveLength(0), {
      timeout: 10_000,
    });
    // Two cards (one with its comparison), the chart, the table's first page and the SQL.
    expect(browser.sent).toHaveLength(6);
    act(() => root!.unmount());
    container.remove();
  });
});
