import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AgentChatProvider, ChatEmptyState } from '../src/components/chat';
import { useAgentChat } from '../src/react';

function EmptyState(args: Parameters<typeof ChatEmptyState>[0]) {
  const chat = useAgentChat();
  return (
    <AgentChatProvider chat={chat.chat}>
      <ChatEmptyState {...args} />
    </AgentChatProvider>
  );
}

/**
 * Use `ChatEmptyState` in a layout of your own for what a new conversation shows, with its
 * starter suggestions (`AgentChat` shows it while the conversation is empty). The story runs with
 * the provider's chat settings (the emulator through the proxy route).
 */
const meta = {
  title: 'Chat/Parts/ChatEmptyState',
  component: ChatEmptyState,
  tags: ['autodocs'],
  args: { suggestions: ['Show revenue by month in 2025', 'Who are our top 10 customers?'] },
  render: (args) => <EmptyState {...args} />,
} satisfies Meta<typeof ChatEmptyState>;

export default meta;
type Story = StoryObj<typeof meta>;

/** One button per suggestion. */
export const WithSuggestions: Story = {
  play: async ({ canvasElement, args }) => {
    const list = within(canvasElement).getByRole('list', { name: 'Suggestions' });
    await expect(within(list).getAllByRole('button')).toHaveLength(args.suggestions!.length);
  },
};
