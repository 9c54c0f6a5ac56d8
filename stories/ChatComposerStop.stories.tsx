import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { AgentChatProvider, ChatComposerInput, ChatComposerRoot, ChatComposerStop } from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

function InRoot(args: Parameters<typeof ChatComposerStop>[0]) {
  const chat = useRecordedAnswer({ question: null });
  return (
    <AgentChatProvider chat={chat.chat}>
      <ChatComposerRoot style={{ display: 'flex', gap: 8, alignItems: 'center', maxWidth: 560 }}>
        <ChatComposerInput />
        <ChatComposerStop {...args} />
      </ChatComposerRoot>
    </AgentChatProvider>
  );
}

/**
 * Use `ChatComposerStop` inside a `ChatComposerRoot` when you recompose the composer: the button
 * that stops the running answer (through the abort endpoint), disabled while none runs. See
 * `ChatComposerRoot` for a whole recomposition.
 */
const meta = {
  title: 'Chat/Parts/Composer/ChatComposerStop',
  component: ChatComposerStop,
  tags: ['autodocs'],
  render: (args) => <InRoot {...args} />,
} satisfies Meta<typeof ChatComposerStop>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The stop button, enabled only while an answer runs: here, none does. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Stop' })).toBeDisabled();
  },
};
