/**
 * The chat parts read slices of the controller: a streamed delta re-renders the message it
 * changed, and neither the other messages nor the composer, the announcer or the actions.
 */
import { act, render } from '@testing-library/react';
import { Profiler, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createAgentChat } from '../../../src/core/agent-chat';
import type { ChatClient, ChatStreamLine } from '../../../src/core/chat-client';
import {
  AgentChatProvider,
  ChatAnnouncer,
  ChatComposer,
  ChatMessageList,
  type ChatPartViewProps,
} from '../../../src/components/chat';
import { messageLine } from '../../helpers/chat-conversation';

/** A client whose stream yields the lines the test pushes, one at a time. */
function pushedClient() {
  const queue: ChatStreamLine[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const client: ChatClient = {
    async *stream() {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    abort: () => Promise.resolve(),
  };
  const push = (line: unknown) => {
    queue.push(line as ChatStreamLine);
    wake?.();
  };
  const end = () => {
    ended = true;
    wake?.();
  };
  return { client, push, end };
}

const tick = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('chat parts read slices of the controller', () => {
  it('a delta re-renders the message it changed, not the other messages, the composer or the announcer', async () => {
    const { client, push, end } = pushedClient();
    const chat = createAgentChat({ client, chatId: 'chat-1' });
    const renders = new Map<string, number>();
    const commits = { composer: 0, announcer: 0 };
    function Content({ message }: ChatPartViewProps): ReactNode {
      renders.set(message.id, (renders.get(message.id) ?? 0) + 1);
      return <p>{message.content}</p>;
    }
    render(
      <AgentChatProvider chat={chat} components={{ content: Content }}>
        <ChatMessageList />
        <Profiler id="composer" onRender={() => void (commits.composer += 1)}>
          <ChatComposer />
        </Profiler>
        <Profiler id="announcer" onRender={() => void (commits.announcer += 1)}>
          <ChatAnnouncer />
        </Profiler>
      </AgentChatProvider>,
    );
    act(() => void chat.resume());
    push({ id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId: 'chat-1' }, sort: 0 });
    push(messageLine('q1', 'user', 'First question', 1));
    push(messageLine('a1', 'assistant', 'The first answer.', 2, true));
    push(messageLine('q2', 'user', 'Second question', 3));
    push({ ...messageLine('a2', 'assistant', 'The', 4, true), isDelta: true });
    await tick();
    expect(renders.get('a2')).toBeGreaterThan(0);
    const before: Record<string, number> = { ...Object.fromEntries(renders), ...commits };

    for (let index = 0; index < 20; index++) {
      push({ id: 'a2', role: 'assistant', content: ` word${index}`, isDelta: true, graphPath: ['final'], sort: 4 });
      await tick();
    }
    // Twenty deltas, twenty renders of the message they changed...
    expect(renders.get('a2')! - before['a2']!).toBe(20);
    // ...and none of anything else.
    expect(renders.get('q1')).toBe(before['q1']);
    expect(renders.get('a1')).toBe(before['a1']);
    expect(renders.get('q2')).toBe(before['q2']);
    expect(commits.composer).toBe(before.composer);
    expect(commits.announcer).toBe(before.announcer);

    end();
    await tick();
    expect(chat.getSnapshot().status).toBe('ready');
  });
});
