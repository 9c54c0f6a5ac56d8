/**
 * `ChatToolCallView`: one step the agent took, as a one-line disclosure, collapsed until opened
 * (by click or keyboard): a human label ("Searched the data model", "Ran a query"), what it was
 * about, and its state. Opened, it shows the details: the views and members found, the SQL, a
 * tool's input and result. The result of a query (its table or chart) stays in view below the
 * line. `components.tools[name]` replaces the view of one tool, `components.toolCall` of every
 * other.
 *
 * @module
 */
import { useEffect, useId, useState, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { ServiceMetaResult } from '../../core/protocol/tools';
import type { ChatMessage, ChatToolCall } from '../../core/thread-store';
import { createPart } from '../part';
import { useFormatNumber } from '../view-settings';
import { Skeleton } from './activity';
import { useAgentChatConfig, useThreadSelector, type AgentChatComponents } from './context';
import { sameItems, type ThreadView } from './thread-view';
import type { AgentChatLabels } from './labels';
import { preloadSqlView, useSqlView } from './sql-view-loader';

/** Props of {@link ChatToolCallView}; other props go to its root `<div>`. */
export interface ChatToolCallProps extends ComponentPropsWithoutRef<'div'> {
  /** The message that carries the call (`message.toolCall` is set; without one nothing renders). */
  message: ChatMessage;
  /** True once the turn has ended: a call still without its result shows as stopped. Default `false`. */
  settled?: boolean;
}

/** The state a step shows: a call left without a result in an ended turn was stopped. */
export type ChatToolCallState = 'running' | 'complete' | 'error' | 'stopped';

function json(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** A replacement view of a tool, looked up as an own property (a tool named `constructor` is no method). */
function customView(components: AgentChatComponents, name: string) {
  const tools = components.tools;
  return (tools && Object.hasOwn(tools, name) ? tools[name] : undefined) ?? components.toolCall;
}

function MetaView({ result, labels }: { result: ServiceMetaResult; labels: AgentChatLabels }): ReactNode {
  const format = useFormatNumber();
  const members = result.cubes.reduce((sum, cube) => sum + cube.members.length, 0);
  return (
    <>
      <p className="service-chat-step-summary">{labels.metaFound(result.cubes.length, members, format)}</p>
      <ul className="service-chat-meta">
        {result.cubes.map((cube) => (
          <li key={cube.name}>
            <strong>{cube.title || cube.name}</strong>
            <ul>
              {cube.members.map((member) => (
                <li key={member.name} title={member.description}>
                  {member.title || member.name} <code>{member.name}</code>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}

/** A tool's input and, once it has one, its result or error, as JSON. */
function InputOutputView({ call, labels }: { call: ChatToolCall; labels: AgentChatLabels }): ReactNode {
  return (
    <dl className="service-chat-step-io">
      <dt>{labels.toolInput}</dt>
      <dd>
        <pre className="service-chat-json">{json(call.input)}</pre>
      </dd>
      {call.status !== 'running' && (
        <>
          <dt>{labels.toolResult}</dt>
          <dd>
            <pre className="service-chat-json">{call.status === 'error' ? call.error : json(call.result.value)}</pre>
          </dd>
        </>
      )}
    </dl>
  );
}

const NO_METADATA: readonly ServiceMetaResult[] = [];

/** The `serviceMeta` results of the turn of `messageId`, in order. */
function turnMetadata(view: ThreadView, messageId: string): readonly ServiceMetaResult[] {
  const results = view.turnOf
    .get(messageId)
    ?.messages.flatMap((message) =>
      message.toolCall?.status === 'complete' && message.toolCall.result.kind === 'serviceMeta'
        ? [message.toolCall.result.value]
        : [],
    );
  return results && results.length > 0 ? results : NO_METADATA;
}

/** The text field `key` of a tool input, when it is a non-empty string. */
function inputText(input: unknown, key: string): string | undefined {
  const value = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * One tool step: `data-part="tool-call"`, `data-state` `running`, `complete`, `error` or
 * `stopped`, `data-tool` the tool's name (never shown: the labels are human). Its toggle is a
 * button with `aria-expanded`; the details render once opened. A query's result takes its headers
 * from what the turn's searches of the data model found.
 */
export const ChatToolCallView = /*#__PURE__*/ createPart(
  'ChatToolCallView',
  'div',
  'tool-call',
  'service-chat-tool',
  function ChatToolCallView(props: ChatToolCallProps) {
    const { message, settled = false, ...rest } = props;
    const { labels, components } = useAgentChatConfig('ChatToolCallView');
    const [open, setOpen] = useState(false);
    const panelId = useId();
    // The data model's titles for the result's headers: what the turn's searches found.
    const metadata = useThreadSelector('ChatToolCallView', (view) => turnMetadata(view, message.id), sameItems);
    const call = message.toolCall;
    const name = call?.name;
    // The SQL view is a chunk of its own: its load starts as soon as a query step appears.
    useEffect(() => {
      if (name === 'serviceSqlApi') void preloadSqlView();
    }, [name]);
    const sqlView = useSqlView();
    if (!call) return null;
    const state: ChatToolCallState = call.status === 'running' ? (settled ? 'stopped' : 'running') : call.status;
    const root = { rest, state, props: { 'data-tool': call.name } };
    const Custom = customView(components, call.name);
    if (Custom) return { ...root, children: <Custom call={call} message={message} /> };

    const kind = call.name === 'serviceSqlApi' ? 'sql' : call.name === 'serviceMeta' ? 'meta' : 'other';
    const running = state === 'running';
    const label = {
      sql: running ? labels.toolSqlRunning : labels.toolSql,
      meta: running ? labels.toolMetaRunning : labels.toolMeta,
      other: running ? labels.toolOtherRunning : labels.toolOther,
    }[kind];
    // Until the SQL view has loaded, grey lines stand where it will be (as while the query runs);
    // if it cannot load, the step shows what any other tool's shows.
    const SqlView = sqlView.view;
    const sqlFailed = kind === 'sql' && sqlView.status === 'failed';
    const detail =
      kind === 'sql'
        ? inputText(call.input, 'queryTitle')
        : kind === 'meta'
          ? inputText(call.input, 'searchQuery')
          : undefined;
    let panel: ReactNode;
    if (!open) panel = null;
    else if (kind === 'sql' && !sqlFailed) panel = SqlView ? <SqlView call={call} parts="query" /> : <Skeleton />;
    else if (call.status === 'complete' && call.result.kind === 'serviceMeta')
      panel = <MetaView result={call.result.value} labels={labels} />;
    else if (call.status === 'error' && kind !== 'other')
      panel = <p className="service-chat-step-error">{call.error}</p>;
    else panel = <InputOutputView call={call} labels={labels} />;
    return {
      ...root,
      children: (
        <>
          <button
            type="button"
            className="service-chat-step"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen(!open)}
          >
            <span className="service-chat-step-icon" aria-hidden="true" />
            <span className="service-chat-step-label">{label}</span>
            {detail && (
              <span className="service-chat-step-detail" dir="auto">
                {detail}
              </span>
            )}
            {(state === 'error' || state === 'stopped') && (
              <span className="service-chat-step-badge">{state === 'error' ? labels.toolFailed : labels.aborted}</span>
            )}
          </button>
          <div id={panelId} className="service-chat-step-panel" hidden={!open}>
            {panel}
          </div>
          {kind === 'sql' &&
            !sqlFailed &&
            (call.status !== 'running' ? (
              SqlView ? (
                <SqlView call={call} parts="result" metadata={metadata} />
              ) : (
                <Skeleton />
              )
            ) : (
              running && <Skeleton />
            ))}
        </>
      ),
    };
  },
);
