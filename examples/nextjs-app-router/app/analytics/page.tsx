// A server component: it renders on the server and hands the client component plain values.
// SERVICE_URL is not secret (the browser loads the iframes from it); the API key stays here.
import { Analytics } from './analytics';

export default function AnalyticsPage() {
  return (
    <main>
      <h1>Analytics</h1>
      <Analytics tenantUrl={process.env.SERVICE_URL ?? ''} dataUrl={process.env.SERVICE_DATA_URL ?? ''} />
    </main>
  );
}
