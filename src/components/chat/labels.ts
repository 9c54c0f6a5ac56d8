/**
 * Every string the chat UI shows or announces, replaceable through the `labels` prop (for
 * translation or tone): plain strings, or functions of what the text is about (counts as numbers,
 * with `format` for the chat's locale). The chat's labels include those of the views nested in it
 * (the SQL view, table, chart and markdown), so one `labels` object translates the whole chat.
 *
 * @module
 */
import { DEFAULT_MARKDOWN_LABELS, type StreamingMarkdownLabels } from '../markdown/streaming-markdown';
import { DEFAULT_SQL_TOOL_LABELS, type FormatNumber, type SqlToolLabels } from '../results/labels';

/** Strings of the chat's own parts (the nested views' are in `SqlToolLabels` and `StreamingMarkdownLabels`). */
export interface ChatLabels {
  /** Accessible name of the message list (`role="log"`). */
  log: string;
  /** Accessible name of the composer's textbox. */
  input: string;
  /** Placeholder of the composer's textbox. */
  placeholder: string;
  /** The send button. */
  send: string;
  /** The stop button, in the send button's place while an answer runs. */
  stop: string;
  /** Heading of the error of a failed answer. */
  error: string;
  /** Summary of a collapsible `thinking` part. */
  thinking: string;
  /** The activity indicator while the agent works and shows nothing yet. */
  working: string;
  /** Status while the connection is resumed. */
  reconnecting: string;
  /** Marker of a turn that was stopped, and the state of a tool step it cut short. */
  aborted: string;
  /** The polite announcement once an answer is complete (the answer's text follows it). */
  answerReady: string;
  /** Accessible name of a final answer. */
  finalAnswer: string;
  /** Title of the empty state. */
  emptyTitle: string;
  /** The line under the empty state's title. */
  emptyDescription: string;
  /** Accessible name of the list of suggested questions. */
  suggestions: string;
  /** Accessible name of the list of follow-up questions after an answer. */
  followUps: string;
  /** Button shown when the user has scrolled up while an answer streams. */
  jumpToLatest: string;
  /** Button above the latest messages of a long thread, with how many earlier ones it would show. */
  showEarlier: (count: number, format: FormatNumber) => string;
  /** Accessible name of the user's messages. */
  user: string;
  /** Accessible name of the agent's working messages. */
  assistant: string;
  /** A finished search of the data model (the `serviceMeta` tool). */
  toolMeta: string;
  /** A search of the data model under way. */
  toolMetaRunning: string;
  /** A finished query (the `serviceSqlApi` tool). */
  toolSql: string;
  /** A query under way. */
  toolSqlRunning: string;
  /** A finished step of any other tool. */
  toolOther: string;
  /** A step of any other tool under way. */
  toolOtherRunning: string;
  /** The state of a tool step that failed. */
  toolFailed: string;
  /** What a search of the data model found: how many views and members. */
  metaFound: (views: number, members: number, format: FormatNumber) => string;
  /** Heading of a tool's input in an expanded step of another tool. */
  toolInput: string;
  /** Heading of a tool's result in an expanded step of another tool. */
  toolResult: string;
  /** Accessible name of an answer's action bar. */
  messageActions: string;
  /** Copies the answer as Markdown. */
  copy: string;
  /** Copies the answer's result table as tab-separated values (pastes into a spreadsheet). */
  copyTable: string;
  /** Asks the turn's question again, as a new turn. */
  askAgain: string;
  /** Rates the answer as helpful. */
  helpful: string;
  /** Rates the answer as not helpful. */
  notHelpful: string;
  /** Accessible name and placeholder of the optional comment after a rating. */
  feedbackComment: string;
  /** Sends the comment. */
  feedbackSend: string;
  /** Said once a rating (or its comment) was sent. */
  feedbackThanks: string;
}

/**
 * Every string of `AgentChat`, its parts and the views nested in it (SQL view, table, chart,
 * markdown); give any subset through `labels`. Keys shared by two views (`retry`, `copied`) mean
 * the same in both.
 */
export interface AgentChatLabels extends ChatLabels, SqlToolLabels, StreamingMarkdownLabels {}

/** The chat's own English defaults. */
const CHAT_LABELS: ChatLabels = {
  log: 'Conversation',
  input: 'Ask a question',
  placeholder: 'Ask a question about your data',
  send: 'Send',
  stop: 'Stop',
  error: 'The answer failed',
  thinking: 'Thinking',
  working: 'Working…',
  reconnecting: 'Connection lost, reconnecting…',
  aborted: 'Stopped',
  answerReady: 'Answer ready:',
  finalAnswer: 'Answer',
  emptyTitle: 'Ask about your data',
  emptyDescription: 'Answers come with the query, the table and a chart behind them.',
  suggestions: 'Suggestions',
  followUps: 'Follow-up questions',
  jumpToLatest: 'Jump to latest',
  showEarlier: (count, format) => `Show earlier messages (${format(count)})`,
  user: 'You',
  assistant: 'Assistant',
  toolMeta: 'Searched the data model',
  toolMetaRunning: 'Searching the data model…',
  toolSql: 'Ran a query',
  toolSqlRunning: 'Running a query…',
  toolOther: 'Used a tool',
  toolOtherRunning: 'Using a tool…',
  toolFailed: 'Failed',
  metaFound: (views, members, format) =>
    `${format(views)} ${views === 1 ? 'view' : 'views'}, ${format(members)} ${members === 1 ? 'member' : 'members'} found`,
  toolInput: 'Input',
  toolResult: 'Result',
  messageActions: 'Message actions',
  copy: 'Copy',
  copyTable: 'Copy table',
  askAgain: 'Ask again',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  feedbackComment: 'Tell us more (optional)',
  feedbackSend: 'Send feedback',
  feedbackThanks: 'Thanks for the feedback',
};

/** The default (English) labels of the chat and the views nested in it. */
// Object.assign in a pure call, not a spread: bundlers keep a spread's objects even when the result
// is unused (a spread may run getters), and the chat's strings would ride along with StreamingMarkdown.
export const DEFAULT_AGENT_CHAT_LABELS: Readonly<AgentChatLabels> = /*#__PURE__*/ Object.freeze(
  /*#__PURE__*/ Object.assign({}, DEFAULT_SQL_TOOL_LABELS, DEFAULT_MARKDOWN_LABELS, CHAT_LABELS),
);
