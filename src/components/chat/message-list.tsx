/**
 * `ChatMessageList`: the conversation as a `role="log"`, busy while an answer streams. It sticks
 * to the bottom as the answer grows and lets go as soon as the user scrolls up (a button brings
 * them back). Messages are memoized by identity, so a delta re-renders only its own message, and
 * each message is `content-visibility: auto`, so a long thread lays out only what is on screen.
 *
 * @module
 */
import { flushSync } from 'react-dom';
import {
  forwardRef,
  useCallback,
  useRef,
  useState,
  type ComponentPropsWithoutRef,
  type ForwardedRef,
  type UIEvent,
} from 'react';
import { isRunning } from '../../core/agent-chat';
import { useIsomorphicLayoutEffect } from '../../react/use-latest';
import { composeEventHandlers, cx } from './compose';
import { useAgentChatConfig, useAgentChatState } from './context';
import { ChatMessageItem, isVisibleMessage } from './message';

/** How close to the bottom (px) still counts as "at the bottom". */
const STICK_THRESHOLD_PX = 24;

/** Props of {@link ChatMessageList}. */
export interface ChatMessageListProps extends ComponentPropsWithoutRef<'div'> {
  /**
   * How many of the latest messages are in the page; a "show earlier" button adds as many again.
   * Default 50: a thread of any length keeps a small DOM, so scrolling, streaming and assistive
   * technology stay fast (a 1,000-message DOM takes axe a minute to walk, and screen readers too).
   */
  windowSize?: number;
}

function setRef<T>(ref: ForwardedRef<T>, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

/** The messages: `role="log"`, `data-part="message-list"`, `data-state` `streaming` or `idle`, `aria-busy` while streaming. */
export const ChatMessageList = /*#__PURE__*/ forwardRef<HTMLDivElement, ChatMessageListProps>(function ChatMessageList(
  { windowSize = 50, className, onScroll, children, ...props },
  ref,
) {
  const chat = useAgentChatState('ChatMessageList');
  const { labels, showThinking } = useAgentChatConfig('ChatMessageList');
  const { messages, finalAnswer, status } = chat;
  const running = isRunning(status);
  const element = useRef<HTMLDivElement | null>(null);
  const stuck = useRef(true);
  const [away, setAway] = useState(false);
  const [limit, setLimit] = useState(windowSize);

  const attach = useCallback(
    (node: HTMLDivElement | null) => {
      element.current = node;
      setRef(ref, node);
    },
    [ref],
  );

  /** Where the list was at the last scroll event, to tell the user's scrolling from layout's. */
  const position = useRef({ top: 0, height: 0 });

  // After each commit: follow the answer, unless the user scrolled away. Once more a frame later:
  // messages laid out lazily (`content-visibility`) take their real height only then.
  useIsomorphicLayoutEffect(() => {
    const node = element.current;
    if (!node || !stuck.current) return;
    node.scrollTop = node.scrollHeight;
    const frame = requestAnimationFrame(() => {
      if (stuck.current) node.scrollTop = node.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [messages, status]);

  const handleScroll = (event: UIEvent<HTMLDivElement>) => {
    const node = event.currentTarget;
    const { scrollTop, scrollHeight, clientHeight } = node;
    const previous = position.current;
    if (scrollHeight - scrollTop - clientHeight <= STICK_THRESHOLD_PX) stuck.current = true;
    // The content changed height under us (lazy layout): still following, so back to the bottom.
    else if (stuck.current && scrollHeight !== previous.height) node.scrollTop = scrollHeight;
    // Moved up with the content unchanged: the user scrolled away.
    else if (scrollTop < previous.top) stuck.current = false;
    position.current = { top: node.scrollTop, height: node.scrollHeight };
    setAway(!stuck.current);
  };

  const jump = () => {
    const node = element.current;
    if (!node) return;
    stuck.current = true;
    setAway(false);
    node.scrollTop = node.scrollHeight;
  };

  const visible = messages.filter((message) => isVisibleMessage(message, showThinking));
  const last = visible.at(-1);
  const earlier = Math.max(0, visible.length - limit);
  const shown = earlier > 0 ? visible.slice(earlier) : visible;

  const showEarlier = () => {
    // Earlier messages go in above what the user reads: keep it where it is on screen.
    const node = element.current;
    const fromBottom = node ? node.scrollHeight - node.scrollTop : 0;
    stuck.current = false;
    flushSync(() => setLimit((current) => current + windowSize));
    if (node) node.scrollTop = node.scrollHeight - fromBottom;
  };
  // Something to say while the agent works and shows nothing yet.
  const waiting = status === 'submitted' || (status === 'streaming' && (last === undefined || last.role === 'user'));
  return (
    <div
      ref={attach}
      role="log"
      // One announcement per completed answer comes from the announcer: the log itself stays quiet.
      aria-live="off"
      aria-label={labels.log}
      aria-busy={running}
      tabIndex={0}
      data-part="message-list"
      data-state={running ? 'streaming' : 'idle'}
      className={cx('service-chat-list', className)}
      onScroll={composeEventHandlers(onScroll, handleScroll)}
      {...props}
    >
      {earlier > 0 && (
        <button
          type="button"
          className="service-chat-button service-chat-earlier"
          data-part="show-earlier"
          onClick={showEarlier}
        >
          {labels.showEarlier(earlier)}
        </button>
      )}
      {shown.map((message) => (
        <ChatMessageItem
          key={message.id}
          message={message}
          final={message === finalAnswer}
          streaming={running && message === last}
        />
      ))}
      {status === 'reconnecting' && (
        <p className="service-chat-note" data-part="status" data-state="reconnecting" role="status">
          {labels.reconnecting}
        </p>
      )}
      {waiting && (
        <p className="service-chat-note" data-part="status" data-state="working">
          {labels.working}
        </p>
      )}
      {status === 'aborted' && (
        <p className="service-chat-note" data-part="status" data-state="aborted">
          {labels.aborted}
        </p>
      )}
      {children}
      {away && running && (
        <button type="button" className="service-chat-jump" data-part="jump-to-latest" onClick={jump}>
          {labels.jumpToLatest}
        </button>
      )}
    </div>
  );
});
