import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useRef, type ReactNode } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { AgentChat, type AgentChatViewProps } from '../src/components/chat';
import { useAgentChat, type UseAgentChatCallbacks, type UseAgentChatInit } from '../src/react';
// The emulator's fault module alone (no server code): a pure helper that runs in the browser.
import { fetchWithFaultOnce } from '../src/emulator/chat/faults';
import {
  createReplayFetch,
  replayFetchOf,
  TRANSCRIPTS,
  withReplayFetch,
  type ReplayFetchOptions,
} from '../src/testing';
import { longThreadTranscript } from '../test/helpers/transcripts';
import { STRING_LABELS } from './chat-stories';
const cannotAnswer = TRANSCRIPTS['cannot-answer'];
const marginError = TRANSCRIPTS['margin-error'];
const revenueByMonth = TRANSCRIPTS['revenue-by-month'];
const topCustomers = TRANSCRIPTS['top-customers'];

/**
 * Use `AgentChat` when you want the whole chat in one element: the message list (or the empty
 * state with its suggestions), the composer and the announcer over one conversation. Use
 * `AgentChatProvider` and the parts instead when your layout differs. Every prop and its default
 * is in the table below.
 *
 * The stories show every state: "Live" ones talk to the emulator through the partner's chat proxy
 * route (`chat={{ url: '/api/service' }}`); the others replay answers recorded from the emulator
 * (the testing kit's TRANSCRIPTS), so they look the same on every run.
 */
// The controls set what a partner tweaks; the callbacks are actions; what is code (the conversation,
// replacement views, a `fetch`, credentials) has no control.
const meta: Meta<typeof AgentChat> = {
  title: 'Chat/AgentChat',
  component: AgentChat,
  tags: ['autodocs'],
  args: {
    showThinking: false,
    disabled: false,
    autoFocus: false,
    labels: STRING_LABELS,
    onChatId: fn(),
    onFinish: fn(),
    onError: fn(),
  },
  argTypes: {
    chat: { control: false },
    components: { control: false },
    fetch: { control: false },
    auth: { control: false },
    sessionSettings: { control: false },
  },
  decorators: [
    (Story) => (
      <div style={{ height: 560, maxWidth: 760, display: 'flex', flexDirection: 'column' }}>
        <Story />
      </div>
    ),
  ],
};
export default meta;
type Story = StoryObj<typeof AgentChat>;

const SUGGESTIONS = [
  'Show revenue by month in 2025',
  'Who are our top 10 customers?',
  'How many orders are in each status?',
];

/** Asks `question` once on mount, over `options` (a recorded transcript's `fetch`, usually). */
function Asked({
  question,
  options,
  ...props
}: { question: string; options: UseAgentChatInit } & AgentChatViewProps & UseAgentChatCallbacks): ReactNode {
  const chat = useAgentChat(options);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    chat.send(question).catch(() => undefined);
  }, [chat, question]);
  return <AgentChat chat={chat.chat} {...props} />;
}

function recorded(
  transcript: string,
  options: Omit<ReplayFetchOptions, 'transcript' | 'transcripts'> = {},
): UseAgentChatInit {
  return { url: '/recorded', fetch: createReplayFetch({ transcript, chunking: 48, ...options }).fetch };
}

const finished = async (canvasElement: HTMLElement) =>
  waitFor(() => expect(canvasElement.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('ready'), {
    timeout: 15_000,
  });

/** A new conversation: the title and suggested questions (change them, and the labels, in the controls). */
export const Empty: Story = {
  args: { suggestions: SUGGESTIONS },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('textbox', { name: 'Ask a question' })).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect(canvas.getByRole('list', { name: 'Suggestions' })).toBeInTheDocument();
  },
};

/** Live: a question typed and sent with Enter, answered by the emulator through the proxy route. */
export const Live: Story = {
  args: { suggestions: SUGGESTIONS },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(
      canvas.getByRole('textbox', { name: 'Ask a question' }),
      'How many orders are in each status?{Enter}',
    );
    await finished(canvasElement);
    await expect(canvasElement.querySelector('[data-part="final-answer"]')).not.toBeNull();
    await expect(args.onChatId).toHaveBeenCalledTimes(1);
    await expect(args.onFinish).toHaveBeenCalledWith(expect.objectContaining({ status: 'ready' }));
  },
};

/** An answer mid-stream (the recorded answer, held after its first 24 lines): busy log, Stop button. */
export const Streaming: Story = {
  render: (args) => (
    <Asked
      {...args}
      question="Show revenue by month in 2025"
      options={recorded(revenueByMonth, { faults: { holdAfterLines: 24 } })}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByRole('log', { name: 'Conversation' })).toHaveAttribute('aria-busy', 'true'));
    await expect(await canvas.findByRole('button', { name: 'Stop' })).toBeInTheDocument();
  },
};

/** A finished answer with its tool calls (views and members found, SQL and its result) and the agent's thinking. */
export const ToolCalls: Story = {
  args: { showThinking: true },
  render: (args) => <Asked {...args} question="Who are our top 10 customers?" options={recorded(topCustomers)} />,
  play: async ({ canvasElement }) => {
    await finished(canvasElement);
    await expect(canvasElement.querySelectorAll('[data-part="tool-call"]').length).toBe(2);
    await expect(canvasElement.querySelectorAll('[data-part="thinking"]').length).toBeGreaterThan(0);
  },
};

/** The same, in the dark theme. */
export const ToolCallsDark: Story = {
  ...ToolCalls,
  globals: { theme: 'dark' },
};

/** An answer with a chart: the SQL result carries a Vega-Lite spec. */
export const Chart: Story = {
  render: (args) => <Asked {...args} question="Show revenue by month in 2025" options={recorded(revenueByMonth)} />,
  play: async ({ canvasElement }) => {
    await finished(canvasElement);
    await expect(canvasElement.querySelector('[data-part="tool-call"][data-tool="serviceSqlApi"]')).not.toBeNull();
  },
};

/** A tool that failed (the SQL names a measure the model lacks): an error card, then the agent's explanation. */
export const ToolError: Story = {
  render: (args) => <Asked {...args} question="What is our gross margin?" options={recorded(marginError)} />,
  play: async ({ canvasElement }) => {
    await finished(canvasElement);
    await expect(canvasElement.querySelector('[data-part="tool-call"][data-state="error"]')).not.toBeNull();
  },
};

/** A question the agent cannot answer: a metadata search and a polite reply. */
export const CannotAnswer: Story = {
  render: (args) => <Asked {...args} question="What is the weather tomorrow?" options={recorded(cannotAnswer)} />,
  play: async ({ canvasElement }) => finished(canvasElement),
};

/** Replayed by the testing kit's Storybook decorator (`withReplayFetch`): a question typed, the recorded answer streamed. */
export const ReplayedByDecorator: Story = {
  decorators: [withReplayFetch({ transcript: cannotAnswer, chunking: 48, delayMs: 5 })],
  play: async ({ canvasElement, id }) => {
    const canvas = within(canvasElement);
    await userEvent.type(
      canvas.getByRole('textbox', { name: 'Ask a question' }),
      'What is the weather tomorrow?{Enter}',
    );
    await finished(canvasElement);
    await expect(replayFetchOf(id)?.streams.at(-1)).toMatchObject({ input: 'What is the weather tomorrow?' });
  },
};

/** Live: the service failed (HTTP 503): the error with Retry, which asks again with the same message id. */
export const ErrorWithRetry: Story = {
  render: (args) => (
    <Asked
      {...args}
      question="How many orders are in each status?"
      options={{ fetch: fetchWithFaultOnce('status=503') }}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(/503|failed/i);
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await finished(canvasElement);
  },
};

/** Live: stopped with the Stop button; the emulator's agent really stops (abort endpoint). */
export const Aborted: Story = {
  tags: ['!autodocs'],
  render: (args) => (
    <Asked {...args} question="Show revenue by region" options={{ fetch: fetchWithFaultOnce('hold-after=6') }} />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Stop' }, { timeout: 10_000 }));
    await waitFor(
      () => expect(canvasElement.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('aborted'),
      { timeout: 10_000 },
    );
  },
};

/** The connection dropped mid-answer and the resend has not answered yet: "reconnecting". */
export const Reconnecting: Story = {
  tags: ['!autodocs'],
  render: (args) => (
    <Asked
      {...args}
      question="Who are our top 10 customers?"
      options={recorded(topCustomers, { faults: [{ dropAfterLines: 20 }, { holdAfterLines: 0 }] })}
    />
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(
      await canvas.findByText('Connection lost, reconnecting…', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  },
};

/** A stored thread of 1,000 messages, opened by its `chatId` (read from the recorded transport): the latest 50 in the page, earlier ones on demand. */
export const LongThread: Story = {
  tags: ['!autodocs'],
  args: { chatId: '00000000-0000-4000-8000-000000001000' },
  render: (args) => {
    const { chatId, ...rest } = args as UseAgentChatInit & AgentChatViewProps;
    return (
      <AgentChat {...rest} {...recorded(longThreadTranscript(1000, chatId), { chunking: 'whole' })} chatId={chatId} />
    );
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await finished(canvasElement);
    await expect(canvasElement.querySelectorAll('[data-part="message"]').length).toBe(50);
    await userEvent.click(canvas.getByRole('button', { name: 'Show earlier messages (950)' }));
    await expect(canvasElement.querySelectorAll('[data-part="message"]').length).toBe(100);
  },
};
