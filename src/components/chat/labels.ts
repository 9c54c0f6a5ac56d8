/**
 * Every string the chat UI shows or announces, replaceable through the `labels` prop (for
 * translation or tone). Functions take what the text is about.
 *
 * @module
 */

/** Strings of `AgentChat` and its parts; give any subset through `labels`. */
export interface AgentChatLabels {
  /** Accessible name of the message list (`role="log"`). */
  log: string;
  /** Accessible name of the composer's textbox. */
  input: string;
  /** Placeholder of the composer's textbox. */
  placeholder: string;
  /** The send button. */
  send: string;
  /** The stop button, shown while an answer runs. */
  stop: string;
  /** The retry button of the error state. */
  retry: string;
  /** Heading of the error state. */
  error: string;
  /** Summary of a collapsible `thinking` part. */
  thinking: string;
  /** Status while the agent works and nothing is shown yet. */
  working: string;
  /** Status while the connection is resumed. */
  reconnecting: string;
  /** Note under an answer that was stopped. */
  aborted: string;
  /** The polite announcement once an answer is complete (the answer's text follows it). */
  answerReady: string;
  /** Accessible name of the final answer. */
  finalAnswer: string;
  /** Title of the empty state. */
  emptyTitle: string;
  /** Accessible name of the list of suggestions. */
  suggestions: string;
  /** Button shown when the user has scrolled up while an answer streams. */
  jumpToLatest: string;
  /** Button above the latest messages of a long thread, with how many earlier ones it would show. */
  showEarlier: (count: number) => string;
  /** Accessible names of the speakers. */
  user: string;
  /** Names the agent's messages for screen readers. Default `Assistant`. */
  assistant: string;
  /** Summary of a `serviceMeta` call: what was searched. */
  metaSearch: (searchQuery: string) => string;
  /** What a `serviceMeta` search found. */
  metaFound: (views: number, members: number) => string;
  /** Summary of a call still running. */
  toolRunning: (name: string) => string;
  /** Summary of a failed call. */
  toolError: (name: string) => string;
  /** Summary of a call of a tool the UI does not know. */
  toolCall: (name: string) => string;
}

/** The default (English) labels. */
export const DEFAULT_AGENT_CHAT_LABELS: AgentChatLabels = {
  log: 'Conversation',
  input: 'Ask a question',
  placeholder: 'Ask a question about your data',
  send: 'Send',
  stop: 'Stop',
  retry: 'Retry',
  error: 'The answer failed',
  thinking: 'Thinking',
  working: 'Working…',
  reconnecting: 'Connection lost, reconnecting…',
  aborted: 'Stopped',
  answerReady: 'Answer ready:',
  finalAnswer: 'Answer',
  emptyTitle: 'Ask about your data',
  suggestions: 'Suggestions',
  jumpToLatest: 'Jump to latest',
  showEarlier: (count) => `Show earlier messages (${count})`,
  user: 'You',
  assistant: 'Assistant',
  metaSearch: (searchQuery) => `Searched the data model for “${searchQuery}”`,
  metaFound: (views, members) =>
    `${views} ${views === 1 ? 'view' : 'views'}, ${members} ${members === 1 ? 'member' : 'members'} found`,
  toolRunning: (name) => `Running ${name}…`,
  toolError: (name) => `${name} failed`,
  toolCall: (name) => `Tool ${name}`,
};
