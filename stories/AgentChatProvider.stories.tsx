import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useRef, type ReactNode } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  AgentChatProvider,
  ChatAnnouncer,
  ChatComposer,
  ChatEmptyState,
  ChatMessageItem,
  ChatMessageList,
  ChatThinking,
  ChatToolCallView,
  type AgentChatComponents,
  type ChatToolViewProps,
} from '../src/components/chat';
import { useAgentChat } from '../src/react';
import { transcriptFetch } from '../test/helpers/transcript-fetch';
import { TRANSCRIPTS } from '../src/testing';
const topCustomers = TRANSCRIPTS['top-customers'];

/**
 * The chat's parts composed into a layout of one's own: `AgentChatProvider` over a `useAgentChat`
 * conversation, the list and composer placed freely, a tool's view replaced through `components`,
 * the strings through `labels`.
 */
const meta: Meta = { title: 'Chat/Parts' };
export default meta;

/** A conversation replaying the recorded answer to one question, asked once on mount. */
function useRecordedAnswer() {
  const chat = useAgentChat({ url: '/recorded', fetch: transcriptFetch(topCustomers, { chunking: [48] }).fetch });
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    chat.send('Who are our top 10 customers?').catch(() => undefined);
  }, [chat]);
  return chat;
}

/** A replacement view of `serviceMeta`: only the names of the views found. */
function ViewsFound({ call }: ChatToolViewProps): ReactNode {
  const views = call.status === 'complete' && call.result.kind === 'serviceMeta' ? call.result.value.cubes.map((cube) => cube.title) : [];
  return <p data-testid="views-found">Looked in: {views.join(', ') || '…'}</p>;
}

const COMPONENTS: AgentChatComponents = { tools: { serviceMeta: ViewsFound } };

function Composed(): ReactNode {
  const chat = useRecordedAnswer();
  return (
    <AgentChatProvider chat={chat} components={COMPONENTS} labels={{ input: 'Your question', send: 'Ask', log: 'Answers' }}>
      <div style={{ display: 'grid', gridTemplateRows: 'auto 1fr', gap: 'var(--service-space-3)', height: 520, maxWidth: 720 }}>
        <ChatComposer />
        <ChatMessageList />
        <ChatAnnouncer />
      </div>
    </AgentChatProvider>
  );
}

/** The composer above the answers, a custom `serviceMeta` view, relabelled strings. */
export const ComposedLayout: StoryObj = {
  render: () => <Composed />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('log', { name: 'Answers' })).toHaveAttribute('aria-busy', 'false'), { timeout: 10_000 });
    await expect(canvas.getByTestId('views-found')).toHaveTextContent(/Customers|Orders/);
    await expect(canvas.getByRole('textbox', { name: 'Your question' })).toBeInTheDocument();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Your question' }), 'x');
    await expect(canvas.getByRole('button', { name: 'Ask' })).toBeEnabled();
  },
};

/** One recorded answer's messages, each part rendered on its own outside the list. */
function Individual(): ReactNode {
  const chat = useRecordedAnswer();
  const thinking = chat.messages.find((message) => message.thinking !== '');
  const sqlCall = chat.messages.find((message) => message.toolCall?.name === 'serviceSqlApi');
  return (
    <AgentChatProvider chat={chat} showThinking>
      <div style={{ display: 'grid', gap: 'var(--service-space-3)', maxWidth: 720 }}>
        <ChatEmptyState suggestions={['Revenue by region in 2025']} />
        {chat.finalAnswer ? <ChatMessageItem message={chat.finalAnswer} final /> : null}
        {thinking ? <ChatThinking message={thinking} /> : null}
        {sqlCall ? <ChatToolCallView message={sqlCall} /> : null}
      </div>
    </AgentChatProvider>
  );
}

/** `ChatEmptyState`, `ChatMessageItem` (a final answer), `ChatThinking` and `ChatToolCallView`, each alone. */
export const IndividualParts: StoryObj = {
  render: () => <Individual />,
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('[data-part="final-answer"], [data-final]')).not.toBeNull(), { timeout: 10_000 });
    await expect(canvasElement.querySelector('[data-part="thinking"]')).not.toBeNull();
    await expect(canvasElement.querySelector('[data-part="tool-call"][data-tool="serviceSqlApi"]')).not.toBeNull();
    await expect(within(canvasElement).getByRole('button', { name: 'Revenue by region in 2025' })).toBeInTheDocument();
  },
};
