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

// A button of the composer, inside a `ChatComposerRoot` (see its page for a whole recomposition).
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
