import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { AgentChatProvider, ChatActivity } from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

function Working(args: Parameters<typeof ChatActivity>[0]) {
  // The question is on its way and nothing has come back yet: the agent is at work.
  const chat = useRecordedAnswer({ holdAfterLines: 2 });
  return (
    <AgentChatProvider chat={chat.chat}>
      <ChatActivity {...args} />
    </AgentChatProvider>
  );
}

/**
 * Use `ChatActivity` in a layout of your own to show that the agent is working when nothing new
 * is on screen: between the question and the first text, and while a tool step runs.
 * `ChatMessageList` shows it by itself. Its dots stand still under `prefers-reduced-motion`.
 */
const meta = {
  title: 'Chat/Parts/ChatActivity',
  component: ChatActivity,
  tags: ['autodocs'],
  render: (args) => <Working {...args} />,
} satisfies Meta<typeof ChatActivity>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Waiting for the first text: `data-state="waiting"`, announced politely as "Working…". */
export const Waiting: Story = {
  play: async ({ canvasElement }) => {
    const activity = canvasElement.querySelector('[data-part="activity"]')!;
    await waitFor(() => expect(activity).toHaveAttribute('data-state', 'waiting'), { timeout: 10_000 });
    await expect(activity).toHaveAttribute('role', 'status');
    await expect(activity).toHaveTextContent('Working…');
  },
};

/** With a label of your own. */
export const CustomLabel: Story = {
  args: { label: 'Looking into your data…' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-part="activity"]')).toHaveTextContent('Looking into your data…');
  },
};
