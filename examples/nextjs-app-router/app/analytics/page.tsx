// A server component: it renders on the server and hands the client component plain values.
// SERVICE_URL is not secret (the browser loads the iframes from it); the API key stays here.
import { connection } from 'next/server';
import { Suspense } from 'react';
import { env } from '@/lib/service';
import { Analytics } from './analytics';

export default function AnalyticsPage() {
  return (
    <main>
      <h1>Analytics</h1>
      <Suspense fallback={<p>Loading analytics…</p>}>
        <AnalyticsOfThisServer />
      </Suspense>
    </main>
  );
}

/**
 * Rendered for each request (`connection()`): the URLs come from the environment of the running
 * server, never from the machine that ran `next build`, whose values a prerendered page would keep.
 */
async function AnalyticsOfThisServer() {
  await connection();
  return <Analytics tenantUrl={env('SERVICE_URL')} dataUrl={env('SERVICE_DATA_URL')} />;
}
