/**
 * "Ask about this": a dashboard, the agent chat beside it and the creator-mode app under them.
 * A drilldown in the dashboard pre-fills the chat with a question about what was clicked and the
 * filters the host set (`drilldownQuestion`, `AgentChat`'s `input`); the viewer edits and sends
 * it; the answer offers to open the app at the widget drilled into (`navigate` on the app's
 * handle). Shared by the story and by the browser test that drives it in real Chromium.
 */
import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  AgentChat,
  EmbeddedApp,
  EmbeddedDashboard,
  StreamingMarkdown,
  drilldownQuestion,
  type AgentChatComponents,
  type ChatPartViewProps,
  type EmbedFilters,
  type EmbedHandle,
} from '../src';

/** Where the app should open for the last drilldown, for the answers' button. */
const OpenInApp = createContext<(() => void) | null>(null);

/** An answer's text, and on the final answer a button opening the app where the viewer drilled. */
function AnswerWithAppLink({ message, streaming, final }: ChatPartViewProps): ReactNode {
  const open = useContext(OpenInApp);
  return (
    <>
      <StreamingMarkdown text={message.content} streaming={streaming} className="service-chat-text" />
      {final && !streaming && open && (
        <button type="button" className="service-chat-button" data-testid="open-in-app" onClick={open}>
          Open in the app
        </button>
      )}
    </>
  );
}

const COMPONENTS: AgentChatComponents = { content: AnswerWithAppLink };

/** The app path of a dashboard's widget (the workbook of `sales-overview` in the emulator). */
const widgetPath = (widgetId: string | undefined) =>
  widgetId ? `/workbooks/sales-overview/widgets/${encodeURIComponent(widgetId)}` : '/workbooks/sales-overview';

/** The whole flow; `onAppPath` hears where the app went (for tests and the story's log). */
export function AskAboutThis({ onAppPath }: { onAppPath?: (path: string) => void }): ReactNode {
  const app = useRef<EmbedHandle>(null);
  const [region, setRegion] = useState('EMEA');
  const filters = useMemo<EmbedFilters>(() => ({ 'orders.region': region || undefined }), [region]);
  const [input, setInput] = useState('');
  const [widgetId, setWidgetId] = useState<string>();
  const open = useMemo(
    () => (widgetId === undefined ? null : () => app.current?.navigate(widgetPath(widgetId))),
    [widgetId],
  );
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', gap: 16 }}>
      <section aria-label="Dashboard">
        <label style={{ display: 'block', marginBottom: 8 }}>
          Region{' '}
          <select value={region} onChange={(event) => setRegion(event.target.value)}>
            <option value="">All</option>
            <option value="EMEA">EMEA</option>
            <option value="NA">NA</option>
          </select>
        </label>
        <EmbeddedDashboard
          publicId="sales-overview"
          height={520}
          filters={filters}
          onDrilldown={(event) => {
            setInput(drilldownQuestion(event, { filters }));
            setWidgetId(event.payload.widgetId);
          }}
        />
      </section>
      <OpenInApp.Provider value={open}>
        <AgentChat
          aria-label="Ask about this"
          style={{ height: 560 }}
          input={input}
          onInputChange={setInput}
          components={COMPONENTS}
        />
      </OpenInApp.Provider>
      <section aria-label="Creator-mode app" style={{ gridColumn: '1 / -1' }}>
        <EmbeddedApp ref={app} deploymentId={1} height={520} onView={(event) => onAppPath?.(event.payload.path)} />
      </section>
    </div>
  );
}
