import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { ChatAnnouncer } from '../src/components/chat';
import { RecordedChat } from './chat-stories';

/**
 * Use `ChatAnnouncer` in a layout of your own so that screen readers hear each final answer once
 * (`AgentChat` includes it). It is visually hidden: the story shows the final answer next to it,
 * and its play reads what a screen reader would hear.
 */
const meta = {
  title: 'Chat/Parts/ChatAnnouncer',
  component: ChatAnnouncer,
  tags: ['autodocs'],
  render: (args) => (
    <RecordedChat chunkDelayMs={4}>
      {(chat) => (
        <>
          <p>
            {chat.status === 'ready' ? 'The answer is ready; the announcer has spoken it.' : 'The agent is answering…'}
          </p>
          <ChatAnnouncer {...args} />
        </>
      )}
    </RecordedChat>
  ),
} satisfies Meta<typeof ChatAnnouncer>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Speaks once, when the answer completes: "Answer ready:" and its beginning. */
export const AnswerReady: Story = {
  play: async ({ canvasElement }) => {
    const region = canvasElement.querySelector('[data-part="announcer"]')!;
    await expect(region).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(region.textContent).toMatch(/^Answer ready: \S/), { timeout: 10_000 });
  },
};
