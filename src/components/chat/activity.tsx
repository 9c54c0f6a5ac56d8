/**
 * `ChatActivity`: the sign that the agent is at work, between the question and the first text and
 * while a tool step runs. Three dots that pulse, still under `prefers-reduced-motion`.
 *
 * @module
 */
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import { createPart } from '../part';
import { useAgentChatConfig, useThreadSelector } from './context';

/** Grey lines where text is coming (hidden from assistive technology: the label says it). */
export function Skeleton(): ReactNode {
  return (
    <span className="service-chat-skeleton" aria-hidden="true">
      <span />
      <span />
      <span />
    </span>
  );
}

/** Props of {@link ChatActivity}; other props go to its root `<div>`. */
export interface ChatActivityProps extends ComponentPropsWithoutRef<'div'> {
  /** What it says (to screen readers too). Default `labels.working` ("Working…"). */
  label?: string;
}

/**
 * The activity indicator: `data-part="activity"`, `role="status"`, `data-state` `waiting` (no
 * text yet: with grey lines where it will come), `tool` (a tool step runs) or `idle`. `ChatMessageList` shows it only while the agent works.
 */
export const ChatActivity = /*#__PURE__*/ createPart(
  'ChatActivity',
  'div',
  'activity',
  'service-chat-activity',
  function ChatActivity(props: ChatActivityProps) {
    const { label, ...rest } = props;
    const { labels } = useAgentChatConfig('ChatActivity');
    const activity = useThreadSelector('ChatActivity', (view) => view.activity);
    return {
      rest,
      state: activity ?? 'idle',
      props: { role: 'status' },
      children: (
        <>
          <span className="service-chat-dots" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          <span className="service-chat-activity-label">{label ?? labels.working}</span>
          {activity === 'waiting' && <Skeleton />}
        </>
      ),
    };
  },
);
