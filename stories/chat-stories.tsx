/**
 * What the chat part stories share: a conversation replaying the recorded answer to one question
 * (the testing kit's transcript, asked once on mount), given to the part through an
 * `AgentChatProvider`, as a partner's own layout would.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { AgentChatProvider, DEFAULT_AGENT_CHAT_LABELS, type AgentChatLabels } from '../src/components/chat';
import { useAgentChat, type UseAgentChatCallbacks, type UseAgentChatResult } from '../src/react';
import { createReplayFetch, TRANSCRIPTS } from '../src/testing';

/** The recorded answer to "Who are our top 10 customers?": thinking, two tool calls, a final answer. */
export const TOP_CUSTOMERS = TRANSCRIPTS['top-customers'];

/**
 * A conversation replaying the recorded answer, asking `question` once on mount (none: it waits
 * for one). `chunkDelayMs` spreads the answer over frames, as a network would.
 */
export function useRecordedAnswer({
  question = 'Who are our top 10 customers?',
  chunkDelayMs = 0,
  holdAfterLines,
  onFeedback,
}: {
  question?: string | null;
  chunkDelayMs?: number;
  /** Keeps the answer running after this many lines (until stopped). */
  holdAfterLines?: number;
  /** The conversation's `onFeedback`. */
  onFeedback?: UseAgentChatCallbacks['onFeedback'];
} = {}): UseAgentChatResult {
  const [fetch] = useState(
    () =>
      createReplayFetch({
        transcript: TOP_CUSTOMERS,
        chunking: 48,
        delayMs: chunkDelayMs,
        ...(holdAfterLines === undefined ? {} : { faults: { holdAfterLines } }),
      }).fetch,
  );
  const chat = useAgentChat({ url: '/recorded', fetch, onFeedback });
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || question === null) return;
    asked.current = true;
    chat.send(question).catch(() => undefined);
  }, [chat, question]);
  return chat;
}

/** Renders `children(chat)` inside an `AgentChatProvider` over the recorded answer. */
export function RecordedChat({
  chunkDelayMs,
  children,
}: {
  chunkDelayMs?: number;
  children: (chat: UseAgentChatResult) => ReactNode;
}): ReactNode {
  const chat = useRecordedAnswer({ chunkDelayMs });
  return (
    <AgentChatProvider chat={chat.chat}>
      <div style={{ display: 'grid', gap: 'var(--service-space-3)', maxWidth: 720 }}>{children(chat)}</div>
    </AgentChatProvider>
  );
}

type StringLabel = {
  [K in keyof AgentChatLabels]: AgentChatLabels[K] extends string ? K : never;
}[keyof AgentChatLabels];

/**
 * The plain-string entries of `DEFAULT_AGENT_CHAT_LABELS`, as the `labels` control starts: the
 * rest are functions (counts and names go into them), which a control cannot edit.
 */
export const STRING_LABELS = Object.fromEntries(
  Object.entries(DEFAULT_AGENT_CHAT_LABELS).filter(([, value]) => typeof value === 'string'),
) as Pick<AgentChatLabels, StringLabel>;
