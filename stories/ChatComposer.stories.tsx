import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AgentChatProvider, ChatComposer } from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

function Composer(args: Parameters<typeof ChatComposer>[0]) {
  const chat = useRecordedAnswer({ question: null });
  return (
    <AgentChatProvider chat={chat.chat}>
      <div style={{ maxWidth: 720 }}>
        <ChatComposer {...args} />
      </div>
    </AgentChatProvider>
  );
}

/**
 * Use `ChatComposer` for the stock composer in a layout of your own (`AgentChat` includes it):
 * one rounded field that grows with its text, Send turning into Stop while an answer runs, Enter
 * to send and Shift+Enter for a new line. When its layout does not fit yours, recompose it from
 * `ChatComposerRoot`, `ChatComposerInput`, `ChatComposerSend` and `ChatComposerStop`. The story
 * answers any question with a recorded answer.
 */
const meta = {
  title: 'Chat/Parts/ChatComposer',
  component: ChatComposer,
  tags: ['autodocs'],
  args: { disabled: false, autoFocus: false, onSubmit: fn() },
  render: (args) => <Composer {...args} />,
} satisfies Meta<typeof ChatComposer>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A question typed and sent with the Send button: `onSubmit` (an action) hears it first. */
export const Idle: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const composer = canvasElement.querySelector('[data-part="composer"]')!;
    await expect(composer).toHaveAttribute('data-state', 'idle');
    await userEvent.type(canvas.getByRole('textbox', { name: 'Ask a question' }), 'Who are our top 10 customers?');
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(composer).toHaveAttribute('data-state', 'idle'), { timeout: 10_000 });
    await expect(canvas.getByRole('textbox', { name: 'Ask a question' })).toHaveValue('');
  },
};

/** `disabled`: nothing can be typed or sent. */
export const Disabled: Story = {
  args: { disabled: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('textbox', { name: 'Ask a question' })).toBeDisabled();
    await expect(canvasElement.querySelector('[data-part="composer"]')).toHaveAttribute('data-state', 'disabled');
  },
};
