import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { AgentChatProvider, ChatMessageList } from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

function List(args: Parameters<typeof ChatMessageList>[0]) {
  const chat = useRecordedAnswer();
  return (
    <AgentChatProvider chat={chat.chat}>
      <div style={{ height: 480, maxWidth: 720, display: 'flex', flexDirection: 'column' }}>
        <ChatMessageList {...args} />
      </div>
    </AgentChatProvider>
  );
}

/**
 * Use `ChatMessageList` in a layout of your own for the conversation itself (`AgentChat` includes
 * it): every turn with its tool steps, final answer, action bar and stopped marker, the activity
 * indicator while the agent works, kept at the newest message. The story shows a recorded answer:
 * question, thinking, tool calls, final answer.
 */
const meta = {
  title: 'Chat/Parts/ChatMessageList',
  component: ChatMessageList,
  tags: ['autodocs'],
  args: { windowSize: 50 },
  render: (args) => <List {...args} />,
} satisfies Meta<typeof ChatMessageList>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Every message in the page (the thread is shorter than `windowSize`). */
export const Conversation: Story = {
  play: async ({ canvasElement }) => {
    const log = within(canvasElement).getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(canvasElement.querySelector('[data-part="final-answer"]')).not.toBeNull(), {
      timeout: 10_000,
    });
    await waitFor(() => expect(log).toHaveAttribute('aria-busy', 'false'), { timeout: 10_000 });
  },
};

/** A `windowSize` of 2: the latest two messages, the earlier ones behind a button. */
export const SmallWindow: Story = {
  args: { windowSize: 2 },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const more = await canvas.findByRole('button', { name: /^Show earlier messages/ }, { timeout: 10_000 });
    await waitFor(() => expect(canvas.getByRole('log')).toHaveAttribute('aria-busy', 'false'), { timeout: 10_000 });
    await expect(canvasElement.querySelectorAll('[data-part="message"]')).toHaveLength(2);
    await userEvent.click(more);
    await expect(canvasElement.querySelectorAll('[data-part="message"]').length).toBeGreaterThan(2);
  },
};
