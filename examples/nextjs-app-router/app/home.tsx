'use client';
// The home page's views, in the browser: the server's results arrive as `state` and fill the
// cache before anything renders, so the cards and the chart hydrate with their figures, in the
// locale the server formatted them in. Later
// queries (a refetch, another month) get their token from /api/data-token.
import { HydrationBoundary, QueryClient, QueryClientProvider, type DehydratedState } from '@tanstack/react-query';
import { useState } from 'react';
import { MetricCard, QueryChart, ServiceProvider, fetchDataToken, type DataSettings } from '@service/react';
import '@service/react/styles.css';
import { CUSTOMERS, ORDERS, REVENUE, REVENUE_BY_MONTH } from './home-queries';

export function Home({ dataUrl, locale, state }: { dataUrl: string; locale: string; state: DehydratedState }) {
  // One client and one settings object for the page's lifetime, made in the browser.
  const [queryClient] = useState(() => new QueryClient());
  const [data] = useState<DataSettings>(() => ({ url: dataUrl, token: fetchDataToken('/api/data-token') }));
  return (
    <QueryClientProvider client={queryClient}>
      <HydrationBoundary state={state}>
        <ServiceProvider data={data}>
          <section style={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fit, minmax(220px, 1fr))' }}>
            <MetricCard query={REVENUE} compare="previousPeriod" locale={locale} />
            <MetricCard query={ORDERS} compare="previousPeriod" title="Orders" locale={locale} />
            <MetricCard query={CUSTOMERS} compare="previousPeriod" title="Customers" locale={locale} />
          </section>
          <QueryChart query={REVENUE_BY_MONTH} title="Revenue by month" />
        </ServiceProvider>
      </HydrationBoundary>
    </QueryClientProvider>
  );
}
