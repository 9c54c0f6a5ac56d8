import { AgentChat, EmbeddedDashboard, ServiceProvider, fetchEmbedSession } from '@service/react';
import '@service/react/styles.css';

export function App() {
  return (
    <ServiceProvider
      tenantUrl="http://127.0.0.1:4010"
      getEmbedSession={fetchEmbedSession()}
      chat={{ url: '/api/service' }}
    >
      <EmbeddedDashboard publicId="sales-overview" height={600} />
      <div style={{ height: 480 }}>
        <AgentChat />
      </div>
    </ServiceProvider>
  );
}
