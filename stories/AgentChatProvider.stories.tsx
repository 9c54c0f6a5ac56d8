import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ReactNode } from 'react';
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
  type AgentChatDisplayProps,
  type ChatToolViewProps,
} from '../src/components/chat';
import { STRING_LABELS, useRecordedAnswer } from './chat-stories';
import { noControls, suppliedByStory } from './story-docs';

/** The controls: the provider's display settings; the conversation and the layout are the story's. */
type Args = AgentChatDisplayProps;

/**
 * Use `AgentChatProvider` when the stock `AgentChat` layout does not fit yours: it gives the
 * parts (`ChatMessageList`, `ChatComposer`, `ChatEmptyState`...) one conversation (`chat`, from
 * `useAgentChat` or `createAgentChat`), its `labels`, replacement views (`components`) and
 * `onFeedback`; place the parts anywhere inside it.
 */
const meta = {
  title: 'Chat/Parts/AgentChatProvider',
  component: suppliedByStory(AgentChatProvider, 'chat', 'children'),
  tags: ['autodocs'],
  args: { showThinking: false, labels: { ...STRING_LABELS, input: 'Your question', send: 'Ask', log: 'Answers' } },
  argTypes: noControls('chat', 'components', 'children'),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A replacement view of `serviceMeta`: only the names of the views found. */
function ViewsFound({ call }: ChatToolViewProps): ReactNode {
  const views =
    call.status === 'complete' && call.result.kind === 'serviceMeta'
      ? call.result.value.cubes.map((cube) => cube.title)
      : [];
  return <p data-testid="views-found">Looked in: {views.join(', ') || '…'}</p>;
}

const COMPONENTS: AgentChatComponents = { tools: { serviceMeta: ViewsFound } };

function Composed(args: Args): ReactNode {
  const chat = useRecordedAnswer();
  return (
    <AgentChatProvider {...args} chat={chat.chat} components={COMPONENTS}>
      <div
        style={{
          display: 'grid',
          gridTemplateRows: 'auto 1fr',
          gap: 'var(--service-space-3)',
          height: 520,
          maxWidth: 720,
        }}
      >
        <ChatComposer />
        <ChatMessageList />
        <ChatAnnouncer />
      </div>
    </AgentChatProvider>
  );
}

/** The composer above the answers, a custom `serviceMeta` view, relabelled strings. */
export const ComposedLayout: Story = {
  render: (args) => <Composed {...args} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('log', { name: 'Answers' })).toHaveAttribute('aria-busy', 'false'), {
      timeout: 10_000,
    });
    await expect(canvas.getByTestId('views-found')).toHaveTextContent(/Customers|Orders/);
    await expect(canvas.getByRole('textbox', { name: 'Your question' })).toBeInTheDocument();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Your question' }), 'x');
    await expect(canvas.getByRole('button', { name: 'Ask' })).toBeEnabled();
  },
};

/** One recorded answer's messages, each part rendered on its own outside the list. */
function Individual(args: Args): ReactNode {
  const chat = useRecordedAnswer();
  const thinking = chat.messages.find((message) => message.thinking !== '');
  const sqlCall = chat.messages.find((message) => message.toolCall?.name === 'serviceSqlApi');
  return (
    <AgentChatProvider {...args} chat={chat.chat}>
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
export const IndividualParts: Story = {
  args: { showThinking: true, labels: STRING_LABELS },
  render: (args) => <Individual {...args} />,
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector('[data-part="final-answer"], [data-final]')).not.toBeNull(),
      { timeout: 10_000 },
    );
    await expect(canvasElement.querySelector('[data-part="thinking"]')).not.toBeNull();
    await expect(canvasElement.querySelector('[data-part="tool-call"][data-tool="serviceSqlApi"]')).not.toBeNull();
    await expect(within(canvasElement).getByRole('button', { name: 'Revenue by region in 2025' })).toBeInTheDocument();
  },
};
