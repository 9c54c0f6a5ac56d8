/**
 * `ChatToolCall`: one tool call of the agent. `serviceMeta` shows the views and members found,
 * `serviceSqlApi` the SQL view (title, SQL, result table, chart), a failed call an error card,
 * any other tool its input and result as readable JSON. `components.tools[name]` replaces the
 * view of one tool, `components.toolCall` of every other.
 *
 * @module
 */
import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import type { ServiceMetaResult } from '../../core/protocol/tools';
import type { ChatMessage } from '../../core/thread-store';
import { SqlToolView } from '../results';
import { cx } from './compose';
import { useAgentChatConfig } from './context';
import type { AgentChatLabels } from './labels';

/** Props of {@link ChatToolCallView}. */
export interface ChatToolCallProps extends ComponentPropsWithoutRef<'div'> {
  /** The message that carries the call (`message.toolCall` is set). */
  message: ChatMessage;
}

function json(value: unknown): string {
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

function MetaView({ result, labels }: { result: ServiceMetaResult; labels: AgentChatLabels }): ReactNode {
  const members = result.cubes.reduce((sum, cube) => sum + cube.members.length, 0);
  return (
    <>
      <p className="service-chat-tool-summary">{labels.metaFound(result.cubes.length, members)}</p>
      <ul className="service-chat-meta">
        {result.cubes.map((cube) => (
          <li key={cube.name}>
            <strong>{cube.title || cube.name}</strong>
            <ul>
              {cube.members.map((member) => (
                <li key={member.name} title={member.description}>
                  <code>{member.name}</code> {member.title}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}

/** One tool call: `data-part="tool-call"`, `data-state` `running`, `complete` or `error`, `data-tool` its name. */
export const ChatToolCallView = /*#__PURE__*/ forwardRef<HTMLDivElement, ChatToolCallProps>(function ChatToolCallView(
  { message, className, ...props },
  ref,
) {
  const { labels, components } = useAgentChatConfig('ChatToolCallView');
  const call = message.toolCall;
  if (!call) return null;
  // The name comes off the wire: `tools.constructor` would be Object, `tools.__proto__` the prototype.
  const { tools } = components;
  const Custom = (tools && Object.hasOwn(tools, call.name) ? tools[call.name] : undefined) ?? components.toolCall;
  let body: ReactNode;
  if (Custom) body = <Custom call={call} message={message} />;
  else if (call.status === 'error') {
    body = (
      <div role="group" aria-label={labels.toolError(call.name)} className="service-chat-tool-error">
        <p className="service-chat-tool-summary">{labels.toolError(call.name)}</p>
        <p>{call.error}</p>
      </div>
    );
  } else if (call.name === 'serviceSqlApi') {
    // The SQL view is a whole tool-call part of its own (it also stands alone): no second wrapper.
    return <SqlToolView ref={ref} call={call} className={cx('service-chat-tool', className)} {...props} />;
  } else if (call.status === 'complete' && call.result.kind === 'serviceMeta') {
    const input = call.input as { searchQuery?: unknown } | undefined;
    body = (
      <>
        <p className="service-chat-tool-title">
          {labels.metaSearch(
            typeof input?.searchQuery === 'string' ? input.searchQuery : call.result.value.searchQuery,
          )}
        </p>
        <MetaView result={call.result.value} labels={labels} />
      </>
    );
  } else if (call.status === 'running')
    body = <p className="service-chat-tool-summary">{labels.toolRunning(call.name)}</p>;
  else {
    body = (
      <>
        <p className="service-chat-tool-title">{labels.toolCall(call.name)}</p>
        <pre className="service-chat-json">{json(call.input)}</pre>
        <pre className="service-chat-json">{json(call.result.value)}</pre>
      </>
    );
  }
  return (
    <div
      ref={ref}
      data-part="tool-call"
      data-state={call.status}
      data-tool={call.name}
      className={cx('service-chat-tool', className)}
      {...props}
    >
      {body}
    </div>
  );
});
