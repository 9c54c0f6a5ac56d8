/**
 * AgentChat's parts in jsdom: tool steps (human labels, collapsed, the result in view), replacement
 * views and labels, composed handlers, the composer parts, the announcer, an adopted controller,
 * and a server render.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { agentChatReducer, createAgentChat, INITIAL_AGENT_CHAT_STATE } from '../../../src/core/agent-chat';
import type { AgentChatController } from '../../../src/core/agent-chat';
import { createChatClient } from '../../../src/core/chat-client';
import type { ChatMessage } from '../../../src/core/thread-store';
import {
  AgentChat,
  AgentChatProvider,
  ChatAnnouncer,
  ChatComposer,
  ChatComposerInput,
  ChatComposerRoot,
  ChatComposerSend,
  ChatComposerStop,
  ChatMessageList,
  ChatToolCallView,
  useComposerSend,
} from '../../../src/components/chat';
import { ServiceProvider } from '../../../src/react';
import { createReplayFetch, TRANSCRIPTS } from '../../../src/testing';
import { conversation, messageLine, toolLine as tool } from '../../helpers/chat-conversation';

const META_RESULT = {
  searchQuery: 'revenue',
  cubes: [
    {
      name: 'orders',
      type: 'view',
      title: 'Orders',
      members: [{ name: 'orders.total', title: 'Total', type: 'number' }],
    },
  ],
};

describe('chat parts', () => {
  it('tool steps are collapsed one-liners with human labels; a failed query shows its error; no tool name is shown', async () => {
    const chat = await conversation([
      tool('m', 'serviceMeta', { searchQuery: 'revenue' }, META_RESULT),
      tool('e', 'serviceSqlApi', { sqlQuery: 'SELECT 1', queryTitle: 'Margin' }, { error: 'no such measure' }),
      tool('u', 'weatherTool', { city: 'Oslo' }, { temperature: 3 }),
    ]);
    const { container } = render(
      <AgentChatProvider chat={chat}>
        <ChatMessageList />
      </AgentChatProvider>,
    );
    const steps = [...container.querySelectorAll<HTMLElement>('[data-part="tool-call"]')];
    expect(steps.map((step) => [step.dataset['tool'], step.dataset['state']])).toEqual([
      ['serviceMeta', 'complete'],
      ['serviceSqlApi', 'error'],
      ['weatherTool', 'complete'],
    ]);
    const toggles = steps.map((step) => within(step).getAllByRole('button')[0]!);
    expect(toggles.map((toggle) => toggle.textContent)).toEqual([
      'Searched the data modelrevenue',
      'Ran a queryMarginFailed',
      'Used a tool',
    ]);
    expect(toggles.map((toggle) => toggle.getAttribute('aria-expanded'))).toEqual(['false', 'false', 'false']);
    // The failed query's error stays in view, outside the collapsed step (once the SQL view has loaded).
    const error = await within(steps[1]!).findByRole('alert');
    expect(error.textContent).toMatch(/no such measure/);
    expect(error.closest('[hidden]')).toBeNull();
    // Opened: the details are there (rendered once opened).
    const metaPanel = document.getElementById(toggles[0]!.getAttribute('aria-controls')!)!;
    expect(metaPanel.hidden).toBe(true);
    expect(metaPanel.textContent).toBe('');
    fireEvent.click(toggles[0]!);
    expect(toggles[0]!.getAttribute('aria-expanded')).toBe('true');
    expect(metaPanel.hidden).toBe(false);
    expect(metaPanel.textContent).toMatch(/1 view, 1 member found/);
    expect(steps[2]!.querySelectorAll('pre')).toHaveLength(0);
    fireEvent.click(toggles[2]!);
    const json = [...steps[2]!.querySelectorAll('pre')].map((pre) => pre.textContent);
    expect(json).toEqual([JSON.stringify({ city: 'Oslo' }, null, 2), JSON.stringify({ temperature: 3 }, null, 2)]);
    // Internal names stay in `data-tool`, never in what a reader sees or hears.
    const said =
      container.textContent +
      [...container.querySelectorAll('[aria-label]')].map((element) => element.getAttribute('aria-label')).join(' ');
    for (const name of ['serviceMeta', 'serviceSqlApi', 'weatherTool']) expect(said).not.toContain(name);
  });

  it('a call left without its result in an ended turn is stopped, with nothing busy', async () => {
    const chat = await conversation([
      messageLine('q', 'user', 'Revenue by month?', 1),
      tool('s', 'serviceSqlApi', { sqlQuery: 'SELECT 1', queryTitle: 'Revenue' }, undefined, 2),
    ]);
    const { container } = render(
      <AgentChatProvider chat={chat}>
        <ChatMessageList />
      </AgentChatProvider>,
    );
    const step = container.querySelector<HTMLElement>('[data-part="tool-call"]')!;
    expect(step.dataset['state']).toBe('stopped');
    expect(step.textContent).toMatch(/Ran a query.*Stopped/);
    expect(container.querySelector('[aria-busy="true"]')).toBeNull();
    expect(container.querySelector('[data-part="activity"]')).toBeNull();
    expect(container.querySelector('.service-result-spinner')).toBeNull();
  });

  it('components replace a tool by name (own properties only) and the text part; labels replace strings', async () => {
    const chat = await conversation([
      tool('u', 'weatherTool', { city: 'Oslo' }, { temperature: 3 }),
      tool('c', 'constructor', {}, { ok: true }),
      { id: 'f', role: 'assistant', graphPath: ['final'], content: 'It is cold.', isDelta: false, sort: 2 },
    ]);
    render(
      <AgentChatProvider
        chat={chat}
        labels={{ log: 'Verlauf', toolOther: 'Werkzeug benutzt' }}
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
    expect(screen.getByRole('button', { name: 'Werkzeug benutzt' })).toBeTruthy();
    expect(screen.getByText('FINAL: It is cold.')).toBeTruthy();
  });

  it('parts forward refs and run the user handler first (preventDefault skips ours)', async () => {
    const chat = await conversation([], 'streaming');
    const abort = vi.spyOn(chat, 'abort');
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
    expect(abort).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(abort).toHaveBeenCalledTimes(1);
  });

  it('Enter goes through onSubmit as the Send button does: preventDefault keeps the question', async () => {
    const chat = await conversation([]);
    const send = vi.spyOn(chat, 'send').mockResolvedValue();
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
    expect(send).not.toHaveBeenCalled();
    expect((box as HTMLTextAreaElement).value).toBe('Orders by status');
    cancel = false;
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSubmit).toHaveBeenCalledTimes(2);
    expect(send).toHaveBeenCalledWith('Orders by status');
  });

  it('the composer recomposes from its parts and its hook: a layout of your own sends and stops', async () => {
    const chat = await conversation([]);
    const send = vi.spyOn(chat, 'send').mockResolvedValue();
    function CharactersLeft() {
      const canSend = useComposerSend() !== null;
      return <span data-testid="can-send">{String(canSend)}</span>;
    }
    render(
      <AgentChatProvider chat={chat}>
        <ChatComposerRoot aria-label="Mine">
          <ChatComposerSend>Go</ChatComposerSend>
          <ChatComposerInput placeholder="Type here" />
          <ChatComposerStop>Halt</ChatComposerStop>
          <CharactersLeft />
        </ChatComposerRoot>
      </AgentChatProvider>,
    );
    const box = screen.getByPlaceholderText('Type here');
    expect(screen.getByTestId('can-send').textContent).toBe('false');
    expect(screen.getByRole('button', { name: 'Go' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Halt' })).toHaveProperty('disabled', true);
    fireEvent.change(box, { target: { value: 'Top customers' } });
    expect(screen.getByTestId('can-send').textContent).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(send).toHaveBeenCalledWith('Top customers');
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('the announcer speaks a new final answer once, even when no running status was committed', async () => {
    const asked = messageLine('u1', 'user', 'Orders by status?', 1);
    const answer = (id: string, content: string, sort: number) => messageLine(id, 'assistant', content, sort, true);
    const view = (chat: AgentChatController) => (
      <AgentChatProvider chat={chat}>
        <ChatAnnouncer />
      </AgentChatProvider>
    );
    // A reopened thread: its answer is there at mount and is not spoken.
    const first = await conversation([asked, answer('a1', 'Old answer.', 2)]);
    const { container, rerender } = render(view(first));
    const region = container.querySelector('[data-part="announcer"]')!;
    expect(region.textContent).toBe('');
    // One commit from the old answer straight to a new one (both `ready`): spoken.
    const lines = [
      asked,
      answer('a1', 'Old answer.', 2),
      { ...asked, id: 'u2', sort: 3 },
      answer('a2', '12 orders are open.', 4),
    ];
    rerender(view(await conversation(lines)));
    expect(region.textContent).toMatch(/12 orders are open\.$/);
    const spoken = region.textContent;
    // Re-rendered with the same answer: nothing new.
    rerender(view(await conversation(lines)));
    expect(region.textContent).toBe(spoken);
  });

  it('a part outside AgentChat says where it belongs', () => {
    const message = { id: 'x', role: 'assistant' } as ChatMessage;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<ChatToolCallView message={message} />)).toThrow(
      /`ChatToolCallView` must be used within <AgentChat>/,
    );
    vi.restoreAllMocks();
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
