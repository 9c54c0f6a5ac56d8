import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { ChatMessageItem, type ChatMessageProps } from '../src/components/chat';
import { RecordedChat } from './chat-stories';
import { noControls, suppliedByStory } from './story-docs';

/** The controls: every prop but `message`, which comes from the recorded conversation. */
type Args = Omit<ChatMessageProps, 'message'>;

/**
 * Use `ChatMessageItem` when you render messages yourself (`ChatMessageList` renders one per
 * message): one message by its id, a question or a step of an answer. The story renders each
 * message of a recorded answer alone inside an `AgentChatProvider`.
 */
const meta = {
  title: 'Chat/Parts/ChatMessageItem',
  component: suppliedByStory(ChatMessageItem, 'message'),
  tags: ['autodocs'],
  args: { final: true, streaming: false },
  argTypes: noControls('message'),
  render: (args) => (
    <RecordedChat>
      {(chat) => (chat.finalAnswer ? <ChatMessageItem {...args} message={chat.finalAnswer} /> : null)}
    </RecordedChat>
  ),
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<Args>;

/** The final answer: `final` sets it apart from the working messages (`data-part="final-answer"`). */
export const FinalAnswer: Story = {
  play: async ({ canvasElement, args }) => {
    await waitFor(() => expect(canvasElement.querySelector('[data-part="message"]')).not.toBeNull(), {
      timeout: 10_000,
    });
    await expect(canvasElement.querySelector('[data-part="final-answer"]') !== null).toBe(args.final);
  },
};

/** The same message as a working one (`final` off). */
export const WorkingMessage: Story = {
  args: { final: false },
  play: FinalAnswer.play,
};
