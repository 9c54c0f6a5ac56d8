import { AgentChat, EmbeddedDashboard, ServiceProvider, fetchEmbedSession } from '@service/react';
import '@service/react/styles.css';

// Where the iframes load from: your tenant's URL, here the emulator's. Not a secret (the browser
// loads the embeds from it); set VITE_SERVICE_URL when you build for another service.
const TENANT_URL = import.meta.env.VITE_SERVICE_URL ?? 'http://127.0.0.1:4010';

export default function App() {
  return (
    <ServiceProvider tenantUrl={TENANT_URL} getEmbedSession={fetchEmbedSession()} chat={{ url: '/api/service' }}>
      <EmbeddedDashboard publicId="sales-overview" height={600} />
      <div style={{ height: 480 }}>
        <AgentChat />
      </div>
    </ServiceProvider>
  );
}
