import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { AgentChatProvider, ChatComposerInput, ChatComposerRoot, ChatComposerSend } from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

function InRoot(args: Parameters<typeof ChatComposerSend>[0]) {
  const chat = useRecordedAnswer({ question: null });
  return (
    <AgentChatProvider chat={chat.chat}>
      <ChatComposerRoot style={{ display: 'flex', gap: 8, alignItems: 'center', maxWidth: 560 }}>
        <ChatComposerInput />
        <ChatComposerSend {...args} />
      </ChatComposerRoot>
    </AgentChatProvider>
  );
}

/**
 * Use `ChatComposerSend` inside a `ChatComposerRoot` when you recompose the composer: the button
 * that sends the question, disabled while there is nothing to send. Show `ChatComposerStop` in
 * its place while an answer runs, as the stock composer does. See `ChatComposerRoot` for a whole
 * recomposition.
 */
const meta = {
  title: 'Chat/Parts/Composer/ChatComposerSend',
  component: ChatComposerSend,
  tags: ['autodocs'],
  render: (args) => <InRoot {...args} />,
} satisfies Meta<typeof ChatComposerSend>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The send button, disabled until there is text to send. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Ask a question' }), 'Top customers');
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeEnabled();
  },
};
