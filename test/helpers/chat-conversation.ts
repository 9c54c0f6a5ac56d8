/**
 * A chat controller holding a conversation made of given stream lines, for tests of the chat
 * parts: a scripted client (no HTTP) streams the lines for a read of the thread, then ends
 * (`ready`) or stays open until stopped (`streaming`).
 */
import { createAgentChat, type AgentChatController } from '../../src/core/agent-chat';
import type { ChatClient } from '../../src/core/chat-client';
import type { ChatStreamLine as StreamLine } from '../../src/core/chat-client';
import { emptyUsage, usageLine } from '../../src/emulator/chat/lines';

/** A line of a tool call (start without `result`, else complete), as the service sends it. */
export function toolLine(id: string, name: string, input: unknown, result?: unknown, sort = 1) {
  return {
    id,
    role: 'assistant',
    graphPath: ['agent', 'tools'],
    isDelta: false,
    toolCall: {
      name,
      input: JSON.stringify(input),
      ...(result === undefined ? {} : { result: JSON.stringify(result) }),
    },
    sort,
  };
}

/** A message line. */
export function messageLine(id: string, role: 'user' | 'assistant', content: string, sort: number, final = false) {
  return { id, role, content, isDelta: false, sort, graphPath: final ? ['final'] : role === 'user' ? [] : ['agent'] };
}

/** A client answering every request with `lines` (after a `__cutoff__`), then the end or a hold until aborted. */
export function scriptedClient(
  lines: readonly unknown[],
  ending: 'ready' | 'hold' = 'ready',
  onHold?: () => void,
): ChatClient {
  return {
    async *stream(_request, options) {
      yield {
        id: '__cutoff__',
        role: 'assistant',
        state: { isStreaming: true, chatId: 'chat-1' },
        sort: 0,
      } as StreamLine;
      for (const line of lines) yield line as StreamLine;
      if (ending === 'hold') {
        onHold?.();
        await new Promise((_, reject) => {
          const signal = options?.signal;
          if (signal?.aborted) reject(signal.reason);
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      yield usageLine(emptyUsage()) as StreamLine;
    },
    abort: () => Promise.resolve(),
  };
}

/**
 * A controller showing the conversation of `lines` (read as a stored thread): `ready` once it
 * resolves, or `streaming` with the stream held open (`abort()` ends it).
 */
export async function conversation(
  lines: readonly unknown[],
  status: 'ready' | 'streaming' = 'ready',
): Promise<AgentChatController> {
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const client = scriptedClient(lines, status === 'ready' ? 'ready' : 'hold', held);
  const chat = createAgentChat({ client, chatId: 'chat-1' });
  const done = chat.resume();
  await (status === 'ready' ? done : holding);
  return chat;
}
