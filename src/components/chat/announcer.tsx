/**
 * `ChatAnnouncer`: a visually hidden polite live region that speaks once per completed answer
 * (the log itself stays quiet, or a screen reader would read every token).
 *
 * @module
 */
import { useState, type ComponentPropsWithoutRef } from 'react';
import { isRunning, type AgentChatStatus } from '../../core/agent-chat';
import { createPart } from '../part';
import { useAgentChatConfig, useAgentChatSelector } from './context';

/** How much of the answer is spoken; the rest is in the log. */
const SPOKEN_CHARACTERS = 400;

/** Props of {@link ChatAnnouncer}; other props go to its root `<div>`. */
export type ChatAnnouncerProps = ComponentPropsWithoutRef<'div'>;

/** The announcement region: `role="status"`, `data-part="announcer"`. */
export const ChatAnnouncer = /*#__PURE__*/ createPart(
  'ChatAnnouncer',
  'div',
  'announcer',
  'service-visually-hidden',
  function ChatAnnouncer(props: ChatAnnouncerProps) {
    const status = useAgentChatSelector((snapshot) => snapshot.status);
    const finalAnswer = useAgentChatSelector((snapshot) =>
      snapshot.status === 'ready' ? snapshot.finalAnswer : undefined,
    );
    const { labels } = useAgentChatConfig('ChatAnnouncer');
    const answerId = finalAnswer?.id;
    // What was last seen; an answer already there at mount (a reopened thread) is not spoken.
    const [seen, setSeen] = useState<{ status: AgentChatStatus; answerId: string | undefined; text: string }>({
      status,
      answerId,
      text: '',
    });
    if (seen.status !== status || seen.answerId !== answerId) {
      // Derived during render (React's pattern for state that follows a prop): once per answer. A
      // new final answer counts even when no running status was ever committed: commits come once
      // per animation frame, so a short answer can go from `idle` to `ready` in one.
      const completed =
        status === 'ready' && (isRunning(seen.status) || (answerId !== undefined && answerId !== seen.answerId));
      const answer = finalAnswer?.content.slice(0, SPOKEN_CHARACTERS) ?? '';
      setSeen({ status, answerId, text: completed ? `${labels.answerReady} ${answer}`.trim() : seen.text });
    }
    return { rest: props, props: { role: 'status', 'aria-live': 'polite' }, children: seen.text };
  },
);
