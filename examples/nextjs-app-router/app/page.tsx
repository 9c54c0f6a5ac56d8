// The home page, rendered on the server for each request with its figures in it: the server asks
// the data API as the viewer (with a token it signs itself), renders the cards and the chart with
// the results, and hands them to the browser, which shows them at once and asks again only once
// they are a minute old.
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { headers } from 'next/headers';
import { Suspense } from 'react';
import { dataQueryOptions } from '@service/react/core';
import { createDataToken } from '@service/react/server';
import { currentUser } from '@/lib/auth';
import { dataClaims, dataSecret } from '@/lib/data';
import { env } from '@/lib/service';
import { Home } from './home';
import { homeQueries } from './home-queries';

export default function HomePage() {
  return (
    <main>
      <h1>Home</h1>
      <Suspense fallback={<p>Loading your figures…</p>}>
        <PrefetchedHome />
      </Suspense>
    </main>
  );
}

/**
 * The viewer's locale from their browser's `Accept-Language`: the server formats the figures in
 * it, so the browser hydrates the same text (its own default could differ from the server's).
 */
function localeOf(request: Headers): string {
  const tag = request.get('accept-language')?.split(',')[0]?.split(';')[0]?.trim();
  try {
    return Intl.getCanonicalLocales(tag || 'en-US')[0]!;
  } catch {
    return 'en-US'; // not a BCP-47 tag
  }
}

async function PrefetchedHome() {
  const requestHeaders = await headers();
  const user = await currentUser({ headers: requestHeaders });
  if (!user) return <p>Sign in to see your figures.</p>;
  const dataUrl = env('SERVICE_DATA_URL');
  // A client for this request alone: one viewer's rows never reach another viewer's render.
  const queryClient = new QueryClient();
  const { token } = await createDataToken({ secret: dataSecret(), claims: dataClaims(user) });
  await Promise.all(
    homeQueries().map((query) => queryClient.prefetchQuery(dataQueryOptions(query, { url: dataUrl, token }))),
  );
  return <Home dataUrl={dataUrl} locale={localeOf(requestHeaders)} state={dehydrate(queryClient)} />;
}
