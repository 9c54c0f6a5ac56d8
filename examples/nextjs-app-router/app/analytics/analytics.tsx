'use client';
// The client boundary: the provider, the embed and the chat run in the browser. They import
// `@service/react` (itself a 'use client' module) and never `@service/react/server`.
import {
  AgentChat,
  EmbeddedDashboard,
  ServiceError,
  ServiceProvider,
  fetchEmbedSession,
  type EmbedErrorInfo,
} from '@service/react';
import '@service/react/styles.css';

async function dataToken(): Promise<string> {
  const response = await fetch('/api/data-token', { cache: 'no-store' });
  if (!response.ok) throw new Error(`No data token (HTTP ${response.status})`);
  return ((await response.json()) as { token: string }).token;
}

/** `onError` gets the embed's own error events and the failures on this side, told apart here. */
function reportEmbedError(error: EmbedErrorInfo) {
  if (ServiceError.isInstance(error)) {
    // Here: the session route failed, no `ready` came in time, or an option is wrong.
    console.warn(`Dashboard: ${error.code}: ${error.message}`);
  } else {
    // The dashboard's page sent `service:event:error`.
    console.warn(`Dashboard page: ${error.payload.message}${error.payload.fatal ? ' (fatal)' : ''}`);
  }
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
      <EmbeddedDashboard publicId="sales-overview" height={640} onError={reportEmbedError} />
      <div style={{ height: 560 }}>
        <AgentChat suggestions={['Show revenue by month in 2025', 'Who are our top 10 customers?']} />
      </div>
    </ServiceProvider>
  );
}
