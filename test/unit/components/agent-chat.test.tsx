/**
 * AgentChat's parts in jsdom: tool calls by kind (views found, error card, unknown tool as JSON),
 * replacement views and labels, refs and composed handlers, and a server render.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { agentChatReducer, createAgentChat, INITIAL_AGENT_CHAT_STATE } from '../../../src/core/agent-chat';
import { createChatClient } from '../../../src/core/chat-client';
import { createReplayFetch, TRANSCRIPTS } from '../../../src/testing';
import { createThreadStore, type ChatMessage } from '../../../src/core/thread-store';
import {
  AgentChat,
  AgentChatProvider,
  ChatAnnouncer,
  ChatComposer,
  ChatMessageList,
  ChatToolCallView,
} from '../../../src/components/chat';
import { ServiceProvider, type UseAgentChatResult } from '../../../src/react';

/** A conversation snapshot holding `lines`, with no transport behind it. */
function conversation(lines: unknown[], status: UseAgentChatResult['status'] = 'ready'): UseAgentChatResult {
  const store = createThreadStore();
  store.applyMany(lines);
  const reject = () => Promise.reject(new Error('not in this test'));
  return {
    ...store.getSnapshot(),
    status,
    reconnect: undefined,
    send: vi.fn(reject),
    abort: vi.fn(() => Promise.resolve()),
    resume: vi.fn(reject),
    reset: vi.fn(),
    chat: undefined as never,
    feedback: vi.fn(),
  };
}

const tool = (id: string, name: string, input: unknown, result?: unknown) => ({
  id,
  role: 'assistant',
  graphPath: ['agent', 'tools'],
  isDelta: false,
  toolCall: { name, input: JSON.stringify(input), ...(result === undefined ? {} : { result: JSON.stringify(result) }) },
  sort: 1,
});

describe('chat parts', () => {
  it('serviceMeta lists views and members; a tool error is a card; an unknown tool is readable JSON', () => {
    const chat = conversation([
      tool(
        'm',
        'serviceMeta',
        { searchQuery: 'revenue' },
        {
          searchQuery: 'revenue',
          cubes: [
            {
              name: 'orders',
              type: 'view',
              title: 'Orders',
              members: [{ name: 'orders.total', title: 'Total', type: 'number' }],
            },
          ],
        },
      ),
      tool('e', 'serviceSqlApi', { sqlQuery: 'SELECT 1' }, { error: 'no such measure' }),
      tool('u', 'weatherTool', { city: 'Oslo' }, { temperature: 3 }),
    ]);
    const { container } = render(
      <AgentChatProvider chat={chat}>
        <ChatMessageList />
      </AgentChatProvider>,
    );
    expect(screen.getByText('Searched the data model for “revenue”')).toBeTruthy();
    expect(screen.getByText('1 view, 1 member found')).toBeTruthy();
    expect(container.querySelector('[data-tool="serviceSqlApi"][data-state="error"]')?.textContent).toMatch(
      /no such measure/,
    );
    expect(screen.getByRole('group', { name: 'serviceSqlApi failed' })).toBeTruthy();
    const json = [...container.querySelectorAll('[data-tool="weatherTool"] pre')].map((pre) => pre.textContent);
    expect(json).toEqual([JSON.stringify({ city: 'Oslo' }, null, 2), JSON.stringify({ temperature: 3 }, null, 2)]);
  });

  it('components replace a tool by name and the text part; labels replace strings', () => {
    const chat = conversation([
      tool('u', 'weatherTool', { city: 'Oslo' }, { temperature: 3 }),
      { id: 'f', role: 'assistant', graphPath: ['final'], content: 'It is cold.', isDelta: false, sort: 2 },
    ]);
    render(
      <AgentChatProvider
        chat={chat}
        labels={{ log: 'Verlauf' }}
        components={{
          tools: { weatherTool: ({ call }) => <p>weather for {(call.input as { city: string }).city}</p> },
          content: ({ message, final }) => (
            <p>
              {final ? 'FINAL: ' : ''}
              {message.content}
            </p>
          ),
        }}
      >
        <ChatMessageList />
      </AgentChatProvider>,
    );
    expect(screen.getByRole('log', { name: 'Verlauf' })).toBeTruthy();
    expect(screen.getByText('weather for Oslo')).toBeTruthy();
    expect(screen.getByText('FINAL: It is cold.')).toBeTruthy();
  });

  it('parts forward refs and run the user handler first (preventDefault skips ours)', () => {
    const chat = conversation([], 'streaming');
    const ref = createRef<HTMLFormElement>();
    const onKeyDown = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
    render(
      <AgentChatProvider chat={chat}>
        <ChatComposer ref={ref} onKeyDown={onKeyDown} />
      </AgentChatProvider>,
    );
    expect(ref.current?.getAttribute('data-part')).toBe('composer');
    expect(ref.current?.getAttribute('data-state')).toBe('running');
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Ask a question' }), { key: 'Escape' });
    expect(onKeyDown).toHaveBeenCalledTimes(1);
    expect(chat.abort).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(chat.abort).toHaveBeenCalledTimes(1);
  });

  it('Enter goes through onSubmit as the Send button does: preventDefault keeps the question', () => {
    const chat = conversation([]);
    let cancel = true;
    const onSubmit = vi.fn((event: { preventDefault(): void }) => {
      if (cancel) event.preventDefault();
    });
    const { container } = render(
      <AgentChatProvider chat={chat}>
        <ChatComposer onSubmit={onSubmit} />
      </AgentChatProvider>,
    );
    const box = within(container).getByRole('textbox', { name: 'Ask a question' });
    fireEvent.change(box, { target: { value: 'Orders by status' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(chat.send).not.toHaveBeenCalled();
    expect((box as HTMLTextAreaElement).value).toBe('Orders by status');
    cancel = false;
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSubmit).toHaveBeenCalledTimes(2);
    expect(chat.send).toHaveBeenCalledWith('Orders by status');
  });

  it('the announcer speaks a new final answer once, even when no running status was committed', () => {
    const asked = { id: 'u1', role: 'user', graphPath: [], content: 'Orders by status?', isDelta: false, sort: 1 };
    const answer = (id: string, content: string, sort: number) => ({
      id,
      role: 'assistant',
      graphPath: ['final'],
      content,
      isDelta: false,
      sort,
    });
    // A reopened thread: its answer is there at mount and is not spoken.
    const view = (chat: UseAgentChatResult) => (
      <AgentChatProvider chat={chat}>
        <ChatAnnouncer />
      </AgentChatProvider>
    );
    const first = conversation([asked, answer('a1', 'Old answer.', 2)]);
    const { container, rerender } = render(view(first));
    const region = container.querySelector('[data-part="announcer"]')!;
    expect(region.textContent).toBe('');
    // One commit from the old answer straight to a new one (both `ready`): spoken.
    rerender(
      view(
        conversation([
          asked,
          answer('a1', 'Old answer.', 2),
          { ...asked, id: 'u2', sort: 3 },
          answer('a2', '12 orders are open.', 4),
        ]),
      ),
    );
    expect(region.textContent).toMatch(/12 orders are open\.$/);
    const spoken = region.textContent;
    // Re-rendered with the same answer: nothing new.
    rerender(
      view(
        conversation([
          asked,
          answer('a1', 'Old answer.', 2),
          { ...asked, id: 'u2', sort: 3 },
          answer('a2', '12 orders are open.', 4),
        ]),
      ),
    );
    expect(region.textContent).toBe(spoken);
  });

  it('a part outside AgentChat says where it belongs', () => {
    const message = { id: 'x', role: 'assistant' } as ChatMessage;
    expect(() => render(<ChatToolCallView message={message} />)).toThrow(
      /`ChatToolCallView` must be used within <AgentChat>/,
    );
  });

  it('AgentChat adopts a controller given as `chat`: its state shows, and its errors reach onError', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'], faults: { status: 503 } });
    const external = createAgentChat({ client: createChatClient({ url: '/api/service', fetch: fake.fetch }) });
    const onError = vi.fn();
    const { container } = render(<AgentChat chat={external} onError={onError} />);
    await act(() => external.send('hello'));
    await waitFor(() =>
      expect(container.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('error'),
    );
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(external.getSnapshot().error);
  });

  it('renders on the server: the empty state, no request, no window', () => {
    const html = renderToString(
      <ServiceProvider chat={{ url: '/api/service' }}>
        <AgentChat suggestions={['Revenue by month']} />
      </ServiceProvider>,
    );
    expect(html).toContain('data-part="empty-state"');
    expect(html).toContain('aria-label="Ask a question"');
    expect(agentChatReducer(INITIAL_AGENT_CHAT_STATE, { type: 'reset' })).toBe(INITIAL_AGENT_CHAT_STATE);
  });
});
