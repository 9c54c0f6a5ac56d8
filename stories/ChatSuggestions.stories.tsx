import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AgentChatProvider, ChatComposer, ChatSuggestions } from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

function Suggestions(args: Parameters<typeof ChatSuggestions>[0]) {
  // The answer stays open once it has started, so the story can see it running.
  const chat = useRecordedAnswer({ question: null, holdAfterLines: 3 });
  return (
    <AgentChatProvider chat={chat.chat}>
      <div style={{ display: 'grid', gap: 'var(--service-space-3)', maxWidth: 720 }}>
        <ChatSuggestions {...args} />
        <ChatComposer />
      </div>
    </AgentChatProvider>
  );
}

/**
 * Use `ChatSuggestions` for questions a reader can pick instead of typing: the empty state shows
 * the starters, and after an answer `AgentChat`'s `followUps` are shown the same way. Picked, a
 * question is sent and focus goes to the composer, for the next words.
 */
const meta = {
  title: 'Chat/Parts/ChatSuggestions',
  component: ChatSuggestions,
  tags: ['autodocs'],
  args: { suggestions: ['Who are our top 10 customers?', 'Show revenue by month in 2025'] },
  render: (args) => <Suggestions {...args} />,
} satisfies Meta<typeof ChatSuggestions>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Picked: sent, and the composer has focus. */
export const Picked: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Who are our top 10 customers?' }));
    await expect(canvas.getByRole('textbox', { name: 'Ask a question' })).toHaveFocus();
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Stop' })).toBeInTheDocument());
  },
};
