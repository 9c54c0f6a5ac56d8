import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import { ChatToolCallView, type ChatToolCallProps } from '../src/components/chat';
import { RecordedChat } from './chat-stories';
import { noControls, suppliedByStory } from './story-docs';

/** The controls: `tool` picks which call of the recorded conversation is the `message`. */
type Args = Omit<ChatToolCallProps, 'message'> & { tool?: 'serviceSqlApi' | 'serviceMeta' };

/**
 * Use `ChatToolCallView` when you render messages yourself: one tool step as a one-line
 * disclosure ("Searched the data model", "Ran a query") whose query result stays in view while it
 * is closed. To change only how one tool looks inside `AgentChat`, replace its view through
 * `components.tools` instead. The stories show each call of a recorded answer alone.
 */
const meta = {
  title: 'Chat/Parts/ChatToolCallView',
  component: suppliedByStory(ChatToolCallView, 'message'),
  tags: ['autodocs'],
  argTypes: {
    ...noControls('message'),
    tool: {
      control: 'inline-radio',
      options: ['serviceSqlApi', 'serviceMeta'],
      description: 'Which tool call of the recorded answer to show (a story control, not a prop).',
    },
  },
  args: { tool: 'serviceSqlApi' },
  render: ({ tool = 'serviceSqlApi', ...args }) => (
    <RecordedChat>
      {(chat) => {
        const message = chat.messages.find((candidate) => candidate.toolCall?.name === tool);
        return message ? <ChatToolCallView {...args} message={message} /> : null;
      }}
    </RecordedChat>
  ),
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<Args>;

/** `serviceSqlApi`: title, SQL, the result as a chart or table. */
export const SqlCall: Story = {
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector('[data-part="tool-call"][data-tool="serviceSqlApi"]')).not.toBeNull(),
      { timeout: 10_000 },
    );
  },
};

/** `serviceMeta`: the views and members the agent found. */
export const MetaCall: Story = {
  args: { tool: 'serviceMeta' },
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector('[data-part="tool-call"][data-tool="serviceMeta"]')).not.toBeNull(),
      { timeout: 10_000 },
    );
  },
};
