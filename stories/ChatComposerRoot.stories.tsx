import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import {
  AgentChatProvider,
  ChatComposerInput,
  ChatComposerRoot,
  ChatComposerSend,
  ChatComposerStop,
  useChatComposer,
  type ChatComposerRootProps,
} from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

/** A counter of your own, from the composer's hook. */
function Characters() {
  const { value } = useChatComposer();
  return <span style={{ color: 'var(--service-color-text-muted)', fontSize: 12 }}>{value.length} / 500</span>;
}

function Recomposed(args: ChatComposerRootProps) {
  const chat = useRecordedAnswer({ question: null });
  return (
    <AgentChatProvider chat={chat.chat}>
      <ChatComposerRoot {...args} style={{ display: 'grid', gap: 8, maxWidth: 560 }}>
        <ChatComposerInput maxLength={500} />
        <div style={{ display: 'flex', gap: 8, alignItems: 'center', justifyContent: 'flex-end' }}>
          <Characters />
          <ChatComposerStop />
          <ChatComposerSend />
        </div>
      </ChatComposerRoot>
    </AgentChatProvider>
  );
}

/**
 * Use `ChatComposerRoot` when the stock `ChatComposer`'s layout does not fit yours (a counter,
 * buttons below the field, an attachment button of your own): the form that holds the question,
 * for `ChatComposerInput`, `ChatComposerSend`, `ChatComposerStop` and your own parts through
 * `useChatComposer`, `useComposerSend` and `useComposerStop`.
 */
const meta = {
  title: 'Chat/Parts/Composer/ChatComposerRoot',
  component: ChatComposerRoot,
  tags: ['autodocs'],
  args: { disabled: false, onSubmit: fn() },
  render: (args) => <Recomposed {...args} />,
} satisfies Meta<typeof ChatComposerRoot>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Input, Stop and Send laid out your way, with a counter from `useChatComposer()`. */
export const Recomposition: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.type(canvas.getByRole('textbox', { name: 'Ask a question' }), 'Top customers');
    await expect(canvas.getByText('13 / 500')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Send' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(canvas.getByRole('textbox', { name: 'Ask a question' })).toHaveValue(''));
  },
};
