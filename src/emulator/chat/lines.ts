/**
 * The sentinel lines of a chat stream as the service writes them (protocol 2.8,
 * behaviour 1), typed by the protocol layer, plus the foreign serialisation of the thread
 * that `__state__` carries.
 *
 * @module
 */
import {
  SENTINEL_IDS,
  type AbortedLine,
  type CutoffLine,
  type StateLine,
  type StreamMessage,
  type SuspendedLine,
  type Usage,
  type UsageLine,
} from '../../core/protocol/chat';

/** `__cutoff__`: first line of every answer (sort 0). */
export function cutoffLine(chatId: string, isStreaming: boolean): CutoffLine {
  return { id: SENTINEL_IDS.cutoff, role: 'assistant', state: { isStreaming, chatId }, sort: 0 };
}

/** `__usage__`: last line of every answer. */
export function usageLine(usage: Usage): UsageLine {
  return { id: SENTINEL_IDS.usage, type: 'usage', usage };
}

/** Usage of an answer that ran no model (a thread read). */
export function emptyUsage(): Usage {
  return {
    models: [],
    llmCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    totalTokens: 0,
  };
}

/** `__aborted__`: ends an aborted run, before `__usage__`. */
export function abortedLine(): AbortedLine {
  return { id: SENTINEL_IDS.aborted, type: 'abort', code: 'chat_aborted', error: 'The chat was aborted by the user' };
}

/**
 * `__suspended__`: the service "restarted"; the same body sent again resumes the run. `messageId`
 * is the run's input (absent when a read of an idle thread is suspended).
 */
export function suspendedLine(messageId: string | undefined): SuspendedLine {
  return {
    id: SENTINEL_IDS.suspended,
    type: 'suspend',
    code: 'chat_suspended',
    retryable: true,
    ...(messageId === undefined ? {} : { messageId }),
    error: 'The chat service restarted while answering: send the same request again to resume',
  };
}

const LC_MESSAGES = ['langchain_core', 'messages'];

/** A message in the foreign (LangChain constructor) serialisation the service's `__state__` uses. */
function serialised(
  type: 'HumanMessage' | 'AIMessage' | 'ToolMessage',
  kwargs: Record<string, unknown>,
): Record<string, unknown> {
  return {
    lc: 1,
    type: 'constructor',
    id: [...LC_MESSAGES, type],
    kwargs: { additional_kwargs: {}, response_metadata: {}, ...kwargs },
  };
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The thread in the foreign serialisation (behaviour 1: clients must tolerate it): the
 * user's inputs as `HumanMessage`, tool calls as an `AIMessage` with `tool_calls` followed by a
 * `ToolMessage` with the result, answers as `AIMessage`. Reasoning-only messages are left out,
 * as the service's agent state keeps no reasoning.
 */
export function foreignMessages(messages: readonly StreamMessage[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      out.push(serialised('HumanMessage', { content: message.content ?? '', id: message.id }));
    } else if (message.toolCall) {
      const { name, input, result } = message.toolCall;
      out.push(
        serialised('AIMessage', {
          content: '',
          id: `run-${message.id}`,
          tool_calls: [{ name, args: parseJson(input) ?? {}, id: message.id, type: 'tool_call' }],
          invalid_tool_calls: [],
        }),
      );
      if (result !== undefined)
        out.push(
          serialised('ToolMessage', {
            content: result,
            tool_call_id: message.id,
            name,
            id: `tool-${message.id}`,
            status: 'success',
          }),
        );
    } else if ((message.content ?? '') !== '') {
      out.push(
        serialised('AIMessage', { content: message.content, id: message.id, tool_calls: [], invalid_tool_calls: [] }),
      );
    }
  }
  return out;
}

/** `__state__`: the thread snapshot near the end of an answer. */
export function stateLine(messages: readonly StreamMessage[], sort: number): StateLine {
  return {
    id: SENTINEL_IDS.state,
    role: 'assistant',
    state: { messages: foreignMessages(messages) },
    isDelta: false,
    sort,
  };
}
