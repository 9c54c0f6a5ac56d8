/**
 * The chat's view of a query step loads on demand: until it has, the step shows its one-line
 * shell and grey lines where the result will be (on the server too); it loads as soon as the chat
 * mounts or a query step appears; a chunk that cannot load leaves the generic tool view, not a
 * broken chat. Each test imports the chat afresh, so the view starts unloaded.
 */
import { act, fireEvent, render, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { conversation, toolLine as tool } from '../../helpers/chat-conversation';

const RESULT = {
  schema: [{ name: 'revenue', column_type: 'DOUBLE' }],
  data: [{ revenue: 1200.5 }],
};
const LINES = [tool('q', 'serviceSqlApi', { sqlQuery: 'SELECT 1', queryTitle: 'Revenue' }, RESULT)];

afterEach(() => {
  vi.doUnmock('../../../src/components/results/SqlToolView');
  vi.resetModules();
});

/** A fresh copy of the chat parts and of the loader, with the view not loaded yet. */
async function freshChat() {
  vi.resetModules();
  const parts = await import('../../../src/components/chat');
  const loader = await import('../../../src/components/chat/sql-view-loader');
  return { ...parts, loader };
}

/** The conversation of `LINES` in a message list of `parts` (no AgentChat: nothing loads the view on mount). */
async function renderThread(parts: Awaited<ReturnType<typeof freshChat>>): Promise<HTMLElement> {
  const { AgentChatProvider, ChatMessageList } = parts;
  const chat = await conversation(LINES);
  return render(
    <AgentChatProvider chat={chat}>
      <ChatMessageList />
    </AgentChatProvider>,
  ).container;
}

function sqlStep(container: HTMLElement): HTMLElement {
  const step = container.querySelector<HTMLElement>('[data-tool="serviceSqlApi"]');
  if (!step) throw new Error('no query step');
  return step;
}

describe('the chat loads the view of a query step on demand', () => {
  it('shows the step shell and grey lines while the view loads, then the result, without a table up front', async () => {
    const container = await renderThread(await freshChat());
    const step = sqlStep(container);
    expect(step.dataset['state']).toBe('complete');
    expect(within(step).getAllByRole('button')[0]!.textContent).toBe('Ran a queryRevenue');
    expect(step.querySelector('.service-chat-skeleton')).not.toBeNull();
    expect(step.querySelector('table')).toBeNull();
    // The step asked for the view when it appeared (no AgentChat here to ask on mount).
    await within(step).findByRole('table');
    expect(step.querySelector('.service-chat-skeleton')).toBeNull();
    expect(step.textContent).toMatch(/1200\.5/);
  });

  it('renders the shell with grey lines on the server, where nothing loads', async () => {
    const { AgentChatProvider, ChatMessageList } = await freshChat();
    const chat = await conversation(LINES);
    const html = renderToString(
      <AgentChatProvider chat={chat}>
        <ChatMessageList />
      </AgentChatProvider>,
    );
    expect(html).toContain('data-tool="serviceSqlApi"');
    expect(html).toContain('data-state="complete"');
    expect(html).toContain('Ran a query');
    expect(html).toContain('service-chat-skeleton');
    expect(html).not.toContain('<table');
  });

  it('starts loading when AgentChat mounts, before any query step', async () => {
    const { AgentChat, loader } = await freshChat();
    const states: string[] = [];
    function Probe() {
      states.push(loader.useSqlView().status);
      return null;
    }
    const chat = await conversation([]);
    render(
      <>
        <AgentChat chat={chat} />
        <Probe />
      </>,
    );
    expect(states[0]).toBe('loading');
    await vi.waitFor(() => expect(states.at(-1)).toBe('ready'));
  });

  it('once loaded, a new step renders its result at once', async () => {
    const parts = await freshChat();
    await parts.loader.preloadSqlView();
    const container = await renderThread(parts);
    expect(within(sqlStep(container)).getByRole('table')).toBeTruthy();
  });

  it('shows the generic tool view when the view cannot load, and a later chat tries again', async () => {
    vi.doMock('../../../src/components/results/SqlToolView', () => {
      throw new Error('chunk failed to load');
    });
    const parts = await freshChat();
    const { loader } = parts;
    const container = await renderThread(parts);
    const step = sqlStep(container);
    await vi.waitFor(() => expect(step.querySelector('.service-chat-skeleton')).toBeNull());
    // The shell stays: the same label, state and tool; the result is behind the toggle, as JSON.
    expect(step.dataset['state']).toBe('complete');
    const toggle = within(step).getAllByRole('button')[0]!;
    expect(toggle.textContent).toBe('Ran a queryRevenue');
    expect(step.querySelector('table')).toBeNull();
    fireEvent.click(toggle);
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(panel.querySelector('dl.service-chat-step-io')).not.toBeNull();
    expect(panel.textContent).toMatch(/SELECT 1/);
    expect(panel.textContent).toMatch(/1200\.5/);

    // The failure is not kept: once the chunk can load, the next attempt shows the view.
    vi.doUnmock('../../../src/components/results/SqlToolView');
    await act(() => loader.preloadSqlView());
    expect(within(step).getByRole('table')).toBeTruthy();
  });
});
