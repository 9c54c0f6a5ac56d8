import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AgentChatProvider, ChatMessageActions, type ChatMessageActionsProps } from '../src/components/chat';
import type { AgentChatFeedback } from '../src/react';
import { useRecordedAnswer } from './chat-stories';
import { noControls, suppliedByStory } from './story-docs';

type Args = Omit<ChatMessageActionsProps, 'messageId'>;

/** The conversation's `onFeedback` (a prop of `AgentChat` and `AgentChatProvider`, not of the part). */
const onFeedback = fn<(feedback: AgentChatFeedback) => void>();

function Actions(args: Args) {
  const chat = useRecordedAnswer({ onFeedback });
  const answer = chat.status === 'ready' ? chat.finalAnswer : undefined;
  return (
    <AgentChatProvider chat={chat.chat} onFeedback={onFeedback}>
      {answer ? <ChatMessageActions {...args} messageId={answer.id} /> : null}
    </AgentChatProvider>
  );
}

/**
 * Use `ChatMessageActions` when you lay out turns yourself: the action bar of a finished turn
 * (`ChatMessageList` shows one under every turn). Copy gives the answer as Markdown, Copy table
 * the result as tab-separated values (pastes into a spreadsheet), Ask again sends the question as
 * a new turn, and Helpful / Not helpful (with `onFeedback`) report a rating with an optional
 * comment.
 */
const meta = {
  title: 'Chat/Parts/ChatMessageActions',
  component: suppliedByStory(ChatMessageActions, 'messageId'),
  tags: ['autodocs'],
  argTypes: noControls('messageId'),
  render: (args) => <Actions {...args} />,
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<Args>;

/** A rating, then a comment: `onFeedback` hears both, with the thread and the answer's id. */
export const Feedback: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('group', { name: 'Message actions' })).toBeInTheDocument(), {
      timeout: 10_000,
    });
    for (const name of ['Copy', 'Copy table', 'Ask again', 'Helpful', 'Not helpful'])
      await expect(canvas.getByRole('button', { name })).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Not helpful' }));
    await expect(canvas.getByRole('button', { name: 'Not helpful' })).toHaveAttribute('aria-pressed', 'true');
    await expect(onFeedback).toHaveBeenCalledWith(expect.objectContaining({ rating: 'down' }));
    await userEvent.type(canvas.getByRole('textbox', { name: 'Tell us more (optional)' }), 'Missing Q4');
    await userEvent.click(canvas.getByRole('button', { name: 'Send feedback' }));
    await expect(onFeedback).toHaveBeenLastCalledWith(
      expect.objectContaining({ rating: 'down', comment: 'Missing Q4' }),
    );
    await expect(canvas.getByRole('status')).toHaveTextContent('Thanks for the feedback');
  },
};
