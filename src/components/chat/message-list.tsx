/**
 * `ChatMessageList`: the conversation as a `role="log"`, busy while an answer streams. It sticks
 * to the bottom as the answer grows and lets go as soon as the user scrolls up (a button brings
 * them back). The list reads only the order of the messages: a streamed delta re-renders the one
 * message it changed, not the list. Each message is `content-visibility: auto`, so a long thread
 * lays out only what is on screen.
 *
 * @module
 */
import { flushSync } from 'react-dom';
import { memo, useEffect, useRef, useState, type ComponentPropsWithoutRef, type ReactNode, type UIEvent } from 'react';
import { createPart } from '../part';
import { sameEntries, useFormatNumber } from '../view-settings';
import { useAgentChatConfig, useAgentChatSelector, useThreadSelector } from './context';
import { ChatActivity } from './activity';
import { ChatMessageItem } from './message';
import { ChatTurnEnd } from './turn-end';
import { sameItems, type ThreadView } from './thread-view';

/** How close to the bottom (px) still counts as "at the bottom". */
const STICK_THRESHOLD_PX = 24;

/** Props of {@link ChatMessageList}; other props go to its root `<div>`. */
export interface ChatMessageListProps extends ComponentPropsWithoutRef<'div'> {
  /**
   * How many of the latest messages are in the page; a "show earlier" button adds as many again.
   * Default 50: a thread of any length keeps a small DOM, so scrolling, streaming and assistive
   * technology stay fast (a 1,000-message DOM takes axe a minute to walk, and screen readers too).
   */
  windowSize?: number;
}

const selectRows = (view: ThreadView) => view.rows;
const selectRunning = (view: ThreadView) => view.running;
const selectActivity = (view: ThreadView) => view.activity;

/** What one message row shows, from the thread view. */
function itemOf(view: ThreadView, id: string) {
  const turn = view.turnOf.get(id);
  const message = turn?.messages.find((candidate) => candidate.id === id);
  return {
    message,
    final: turn !== undefined && turn.final === message,
    streaming: view.running && view.last === message,
    settled: turn !== undefined && turn.state !== 'running',
  };
}

/** One message of the list, re-rendered only when what it shows changed. */
const MessageRow = /*#__PURE__*/ memo(function MessageRow({ id }: { id: string }): ReactNode {
  const item = useThreadSelector('ChatMessageList', (view) => itemOf(view, id), sameEntries);
  if (!item.message) return null;
  return (
    <ChatMessageItem message={item.message} final={item.final} streaming={item.streaming} settled={item.settled} />
  );
});

/** The messages: `role="log"`, `data-part="message-list"`, `data-state` `streaming` or `idle`, `aria-busy` while streaming. */
export const ChatMessageList = /*#__PURE__*/ createPart(
  'ChatMessageList',
  'div',
  'message-list',
  'service-chat-list',
  function ChatMessageList(props: ChatMessageListProps) {
    const { windowSize = 50, children, ...rest } = props;
    const { labels } = useAgentChatConfig('ChatMessageList');
    const format = useFormatNumber();
    const rows = useThreadSelector('ChatMessageList', selectRows, sameItems);
    const running = useThreadSelector('ChatMessageList', selectRunning);
    const activity = useThreadSelector('ChatMessageList', selectActivity);
    const reconnecting = useAgentChatSelector((snapshot) => snapshot.status === 'reconnecting');
    const element = useRef<HTMLDivElement | null>(null);
    const stuck = useRef(true);
    const [away, setAway] = useState(false);
    const [limit, setLimit] = useState(windowSize);

    // Follow the answer as what is in the list grows (a delta, a chart drawn, a message laid out
    // lazily), unless the user scrolled away: every row's size is watched, and new rows join.
    useEffect(() => {
      const node = element.current;
      if (!node || typeof ResizeObserver !== 'function') return;
      const follow = () => {
        if (stuck.current) node.scrollTop = node.scrollHeight;
      };
      const sizes = new ResizeObserver(follow);
      const watch = () => {
        for (const row of node.children) sizes.observe(row);
        follow();
      };
      watch();
      const rows = new MutationObserver(watch);
      rows.observe(node, { childList: true });
      return () => {
        rows.disconnect();
        sizes.disconnect();
      };
    }, []);

    /** Where the list was at the last scroll event, to tell the user's scrolling from layout's. */
    const position = useRef({ top: 0, height: 0 });
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

    // The window: the latest `limit` messages, with the ends of their turns.
    let start = rows.length;
    let shownMessages = 0;
    while (start > 0 && (shownMessages < limit || !rows[start - 1]!.startsWith('m:'))) {
      if (rows[start - 1]!.startsWith('m:')) shownMessages++;
      start--;
    }
    // A turn's end stays with its turn: never the first row of the window.
    while (start < rows.length && rows[start]!.startsWith('t:')) start++;
    const earlier = rows.slice(0, start).filter((row) => row.startsWith('m:')).length;

    const showEarlier = () => {
      // Earlier messages go in above what the user reads: keep it where it is on screen.
      const node = element.current;
      const fromBottom = node ? node.scrollHeight - node.scrollTop : 0;
      stuck.current = false;
      flushSync(() => setLimit((current) => current + windowSize));
      if (node) node.scrollTop = node.scrollHeight - fromBottom;
    };

    return {
      rest,
      state: running ? 'streaming' : 'idle',
      props: {
        ref: element,
        role: 'log',
        // One announcement per completed answer comes from the announcer: the log itself stays quiet.
        'aria-live': 'off',
        'aria-label': labels.log,
        'aria-busy': running,
        tabIndex: 0,
        onScroll: handleScroll,
      },
      children: (
        <>
          {earlier > 0 && (
            <button
              type="button"
              className="service-chat-button service-chat-earlier"
              data-part="show-earlier"
              onClick={showEarlier}
            >
              {labels.showEarlier(earlier, format)}
            </button>
          )}
          {rows
            .slice(start)
            .map((row) =>
              row.startsWith('m:') ? (
                <MessageRow key={row} id={row.slice(2)} />
              ) : (
                <ChatTurnEnd key={row} turnKey={row.slice(2)} />
              ),
            )}
          {reconnecting && (
            <p className="service-chat-note" data-part="status" data-state="reconnecting" role="status">
              {labels.reconnecting}
            </p>
          )}
          {activity && !reconnecting && <ChatActivity />}
          {children}
          {away && running && (
            <button type="button" className="service-chat-jump" data-part="jump-to-latest" onClick={jump}>
              {labels.jumpToLatest}
            </button>
          )}
        </>
      ),
    };
  },
);
