import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { AgentChatProvider, ChatComposerInput, ChatComposerRoot } from '../src/components/chat';
import { useRecordedAnswer } from './chat-stories';

function InRoot(args: Parameters<typeof ChatComposerInput>[0]) {
  const chat = useRecordedAnswer({ question: null });
  return (
    <AgentChatProvider chat={chat.chat}>
      <ChatComposerRoot style={{ maxWidth: 560 }}>
        <ChatComposerInput {...args} />
      </ChatComposerRoot>
    </AgentChatProvider>
  );
}

/**
 * Use `ChatComposerInput` inside a `ChatComposerRoot` when you recompose the composer: the
 * textbox that holds the question (Enter submits through the root, Shift+Enter adds a line). See
 * `ChatComposerRoot` for a whole recomposition.
 */
const meta = {
  title: 'Chat/Parts/Composer/ChatComposerInput',
  component: ChatComposerInput,
  tags: ['autodocs'],
  render: (args) => <InRoot {...args} />,
} satisfies Meta<typeof ChatComposerInput>;

export default meta;
type Story = StoryObj<typeof meta>;

/** It grows with its text (up to a maximum), reads `dir="auto"`, and Shift+Enter adds a line. */
export const Default: Story = {
  play: async ({ canvasElement }) => {
    const box = within(canvasElement).getByRole('textbox', { name: 'Ask a question' });
    const height = box.getBoundingClientRect().height;
    await userEvent.type(box, 'first line{Shift>}{Enter}{/Shift}second line{Shift>}{Enter}{/Shift}third');
    await expect(box).toHaveValue('first line\nsecond line\nthird');
    await expect(box.getBoundingClientRect().height).toBeGreaterThan(height);
  },
};

/** Right-to-left text is written right to left. */
export const RightToLeft: Story = {
  play: async ({ canvasElement }) => {
    const box = within(canvasElement).getByRole('textbox', { name: 'Ask a question' });
    await userEvent.type(box, 'ما هي الإيرادات حسب الشهر؟');
    await expect(getComputedStyle(box).direction).toBe('rtl');
  },
};
