import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { ChatThinking, type ChatThinkingProps } from '../src/components/chat';
import { RecordedChat } from './chat-stories';
import { noControls, suppliedByStory } from './story-docs';

/** The controls: every prop but `message`, which comes from the recorded conversation. */
type Args = Omit<ChatThinkingProps, 'message'>;

/**
 * Use `ChatThinking` when you render messages yourself and want to show the agent's reasoning
 * (`AgentChat` shows it, collapsed, with `showThinking`). The story shows the reasoning of a
 * recorded answer alone.
 */
const meta = {
  title: 'Chat/Parts/ChatThinking',
  component: suppliedByStory(ChatThinking, 'message'),
  tags: ['autodocs'],
  args: { streaming: false },
  argTypes: noControls('message'),
  render: (args) => (
    <RecordedChat>
      {(chat) => {
        const message = chat.messages.find((candidate) => candidate.thinking !== '');
        return message ? <ChatThinking {...args} message={message} /> : null;
      }}
    </RecordedChat>
  ),
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<Args>;

/** Collapsed until opened: `data-state` follows. */
export const Collapsed: Story = {
  play: async ({ canvasElement }) => {
    const thinking = await waitFor(
      () => {
        const element = canvasElement.querySelector<HTMLDetailsElement>('[data-part="thinking"]');
        if (!element) throw new Error('no thinking yet');
        return element;
      },
      { timeout: 10_000 },
    );
    await expect(thinking).toHaveAttribute('data-state', 'closed');
    await userEvent.click(thinking.querySelector('summary')!);
    // data-state follows the toggle event, which the browser fires in a later task.
    await waitFor(() => expect(thinking).toHaveAttribute('data-state', 'open'));
  },
};
