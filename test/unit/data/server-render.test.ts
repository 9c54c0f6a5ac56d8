// @vitest-environment node
/**
 * The data views in a server render, in plain Node: no client is shared between requests, so rows
 * one viewer's render put in a cache never reach another viewer's render, and nothing is fetched
 * on the server unless the page prefetched it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement as h, Fragment } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MetricCard, QueryTable } from '../../../src/components/data';
import { dataQueryOptions, type DataQueryResult, type DataSettings } from '../../../src/core/data-query';
import { ServiceProvider } from '../../../src/react';
import { useServiceQueryClient } from '../../../src/react/use-service-query-client';

const QUERY = { measures: ['orders.total_revenue'] } as const;

/** A settings object whose fetch records every call: a server render must make none. */
function serverSettings(viewer: string): { settings: DataSettings; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    settings: {
      url: 'https://data.example/data/1',
      token: `token-of-${viewer}`,
      fetch: (input) => {
        calls.push(String(input));
        return new Promise<Response>(() => {});
      },
    },
  };
}

function revenue(value: string): DataQueryResult {
  return {
    data: [{ 'orders.total_revenue': value }],
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
    query: { measures: ['orders.total_revenue'] },
  };
}

/** Puts a viewer's result in whatever client the views below would use (as a prefetch in that client would). */
function Seed({ result, settings }: { result: DataQueryResult; settings: DataSettings }): null {
  const client = useServiceQueryClient();
  client.setQueryData(dataQueryOptions(QUERY, settings).queryKey, result);
  return null;
}

describe('server renders of the data views', () => {
  it("one request's rows never reach the next request's render (no client outlives a render)", () => {
    const ann = serverSettings('ann');
    // Request 1: Ann's rows land in the client of a view rendered outside any provider.
    const first = renderToString(
      h(
        Fragment,
        null,
        h(Seed, { result: revenue('1000.5'), settings: ann.settings }),
        h(MetricCard, { query: QUERY, settings: ann.settings, locale: 'en-US' }),
      ),
    );
    expect(first).toContain('data-state="loading"');
    // Request 2: Bob's render of the same query, also outside any provider, must not see them.
    const bob = serverSettings('bob');
    const second = renderToString(h(MetricCard, { query: QUERY, settings: bob.settings, locale: 'en-US' }));
    expect(second).not.toContain('$1,000.50');
    expect(second).toContain('data-state="loading"');
    // Under one provider (one request), the views share its client.
    const shared = renderToString(
      h(
        ServiceProvider,
        { data: ann.settings },
        h(Seed, { result: revenue('1000.5'), settings: ann.settings }),
        h(MetricCard, { query: QUERY, locale: 'en-US' }),
      ),
    );
    expect(shared).toContain('$1,000.50');
    expect([...ann.calls, ...bob.calls]).toEqual([]);
  });

  it("renders a prefetched result from the request's own client, and loading states with nothing fetched otherwise", () => {
    const { settings, calls } = serverSettings('ann');
    const client = new QueryClient();
    client.setQueryData(dataQueryOptions(QUERY, settings).queryKey, revenue('1234567.891'));
    const html = renderToString(
      h(
        QueryClientProvider,
        { client },
        h(
          ServiceProvider,
          { data: settings },
          h(MetricCard, { query: QUERY, locale: 'en-US' }),
          h(QueryTable, { query: { measures: ['orders.count'] } }),
        ),
      ),
    );
    expect(html).toContain('data-part="metric-value">$1,234,567.89<');
    expect(html).toContain('data-part="query-table" data-state="loading"');
    expect(calls).toEqual([]);
  });
});
