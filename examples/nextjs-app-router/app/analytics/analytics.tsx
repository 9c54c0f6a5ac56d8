'use client';
// The client boundary: the provider, the embed and the chat run in the browser. They import
// `@service/react` (itself a 'use client' module) and never `@service/react/server`.
import { AgentChat, EmbeddedDashboard, ServiceProvider, fetchEmbedSession } from '@service/react';
import '@service/react/styles.css';

async function dataToken(): Promise<string> {
  const response = await fetch('/api/data-token', { cache: 'no-store' });
  if (!response.ok) throw new Error(`No data token (HTTP ${response.status})`);
  return ((await response.json()) as { token: string }).token;
}

export function Analytics({ tenantUrl, dataUrl }: { tenantUrl: string; dataUrl: string }) {
  return (
    <ServiceProvider
      tenantUrl={tenantUrl}
      getEmbedSession={fetchEmbedSession('/api/embed-session')}
      chat={{ url: '/api/service' }}
      data={{ url: dataUrl, token: dataToken }}
      colorScheme="auto"
    >
      <EmbeddedDashboard publicId="sales-overview" height={640} onError={(error) => console.warn(error)} />
      <div style={{ height: 560 }}>
        <AgentChat suggestions={['Show revenue by month in 2025', 'Who are our top 10 customers?']} />
      </div>
    </ServiceProvider>
  );
}
