/**
 * The chat UI in real Chromium, over recorded answers: stopping (a marker that stays, stopped
 * steps, nothing busy or moving afterwards), every turn's final answer alike, tool steps opened by
 * keyboard, the activity indicator under reduced motion, message actions and feedback, the
 * composer (one field that grows, Send and Stop in one place, focus after a suggestion, Escape
 * from anywhere), follow-up suggestions and right-to-left layout.
 */
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import '../../src/styles.css';
import { AgentChat, type AgentChatProps } from '../../src/components/chat';
import { createAgentChat, type AgentChatController } from '../../src/core/agent-chat';
import { createChatClient } from '../../src/core/chat-client';
import { createReplayFetch, TRANSCRIPTS, type ReplayFetchOptions } from '../../src/testing';

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(async () => {
  root?.unmount();
  host?.remove();
  await commands.emulateReducedMotion(null);
});

/** Renders an AgentChat over `chat` in a 720 × 760 frame; returns the frame. */
function render(chat: AgentChatController, props: Omit<AgentChatProps, 'chat'>): HTMLElement {
  host = document.createElement('div');
  Object.assign(host.style, { width: '720px', height: '760px', display: 'flex', flexDirection: 'column' });
  document.body.append(host);
  const current = createRoot(host);
  root = current;
  flushSync(() => current.render(<AgentChat {...(props as object)} chat={chat} />));
  return host;
}

function mount(
  options: Omit<ReplayFetchOptions, 'transcript'> & { transcript?: string } = {},
  props: Omit<AgentChatProps, 'chat'> = {},
): { chat: AgentChatController; frame: HTMLElement; replay: ReturnType<typeof createReplayFetch> } {
  const replay = createReplayFetch({
    chunking: 'lines',
    ...options,
    ...(options.transcripts ? {} : { transcript: options.transcript ?? TRANSCRIPTS['revenue-by-month'] }),
  });
  const chat = createAgentChat({
    client: createChatClient({ url: '/recorded', fetch: replay.fetch, resubscribe: false }),
  });
  return { chat, frame: render(chat, props), replay };
}

/** An AgentChat talking to the emulator through the chat proxy route; records the stream bodies. */
function mountLive(props: Omit<AgentChatProps, 'chat'> = {}): {
  chat: AgentChatController;
  frame: HTMLElement;
  requests: Record<string, unknown>[];
} {
  const requests: Record<string, unknown>[] = [];
  const recording: typeof fetch = (input, init) => {
    if (String(input).endsWith('/chat/stream-chat-state')) requests.push(JSON.parse(String(init?.body)));
    return fetch(input, init);
  };
  const chat = createAgentChat({ client: createChatClient({ url: '/api/service', fetch: recording }) });
  return { chat, frame: render(chat, props), requests };
}

const state = (frame: HTMLElement) => frame.querySelector('[data-part="chat"]')?.getAttribute('data-state');
const button = (frame: HTMLElement, name: string) =>
  [...frame.querySelectorAll('button')].find(
    (candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent) === name,
  );
const textbox = (frame: HTMLElement) =>
  frame.querySelector<HTMLTextAreaElement>('textarea[aria-label="Ask a question"]')!;

/** CSS animations running in the chat (spinners, dots, skeletons, carets). */
const moving = (frame: HTMLElement) =>
  document.getAnimations().filter((animation) => {
    const target = (animation.effect as KeyframeEffect | null)?.target;
    return target instanceof Element && frame.contains(target) && animation.playState === 'running';
  });

describe('stopping', () => {
  it('keeps a "Stopped" marker past the next turn; its running step is stopped; nothing stays busy or moving', async () => {
    const { chat, frame } = mount({
      transcripts: [TRANSCRIPTS['revenue-by-month'], TRANSCRIPTS['cannot-answer']],
      faults: [{ holdAfterLines: 28 }],
    });
    void chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(frame.querySelector('[data-part="tool-call"][data-state="running"]')).not.toBeNull());
    expect(moving(frame).length).toBeGreaterThan(0);
    expect(frame.querySelector('[data-part="activity"]')).not.toBeNull();
    await userEvent.click(button(frame, 'Stop')!);
    await vi.waitFor(() => expect(state(frame)).toBe('aborted'));
    const stoppedStep = frame.querySelector('[data-part="tool-call"][data-tool="serviceSqlApi"]')!;
    expect(stoppedStep.getAttribute('data-state')).toBe('stopped');
    expect(frame.querySelector('[data-part="status"][data-state="aborted"]')?.textContent).toBe('Stopped');
    expect(frame.querySelector('[aria-busy="true"]')).toBeNull();
    expect(moving(frame)).toEqual([]);
    // A stopped turn offers Ask again; the next turn keeps the marker.
    const stoppedActions = frame.querySelector('[data-part="message-actions"][data-state="aborted"]')!;
    expect([...stoppedActions.querySelectorAll('button')].map((item) => item.textContent)).toEqual(['Ask again']);
    await chat.send('What is the weather tomorrow?');
    await vi.waitFor(() => expect(state(frame)).toBe('ready'));
    expect(frame.querySelector('[data-part="status"][data-state="aborted"]')?.textContent).toBe('Stopped');
    expect(frame.querySelector('[data-part="tool-call"][data-tool="serviceSqlApi"]')?.getAttribute('data-state')).toBe(
      'stopped',
    );
    expect(frame.querySelector('[aria-busy="true"]')).toBeNull();
    expect(moving(frame)).toEqual([]);
  });

  it('Escape stops the answer from anywhere in the chat, not only the composer', async () => {
    const { chat, frame, replay } = mount({ faults: { holdAfterLines: 20 } });
    void chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(frame.querySelector('[data-part="tool-call"] button')).not.toBeNull());
    frame.querySelector<HTMLElement>('[data-part="tool-call"] button')!.focus();
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(state(frame)).toBe('aborted'));
    expect(replay.aborts).toHaveLength(1);
  });
});

describe('answers and tool steps', () => {
  it('every turn has its final answer, styled as the latest (two turns of one thread, from the emulator)', async () => {
    const { chat, frame } = mountLive();
    await chat.send('How many orders are in each status?');
    await chat.send('Who are our top 10 customers?');
    await vi.waitFor(() => expect(state(frame)).toBe('ready'));
    const finals = [...frame.querySelectorAll<HTMLElement>('[data-part="final-answer"]')];
    expect(finals).toHaveLength(2);
    const look = (element: HTMLElement) => {
      const style = getComputedStyle(element);
      return [style.color, style.fontSize, style.opacity, style.fontWeight];
    };
    expect(look(finals[0]!)).toEqual(look(finals[1]!));
  });

  it('tool steps open and close with the keyboard; the query result stays in view while closed', async () => {
    const { chat, frame } = mount();
    await chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(state(frame)).toBe('ready'));
    const step = frame.querySelector<HTMLElement>('[data-part="tool-call"][data-tool="serviceSqlApi"]')!;
    const toggle = step.querySelector<HTMLButtonElement>('button[aria-expanded]')!;
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(toggle.textContent).toMatch(/^Ran a query/);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(panel.checkVisibility()).toBe(false);
    expect(step.querySelector('[data-part="chart"]')!.checkVisibility()).toBe(true);
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel.checkVisibility()).toBe(true);
    expect(panel.querySelector('[data-part="sql"]')?.textContent).toMatch(/SELECT/);
    await userEvent.keyboard(' ');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    // One line each, closed.
    for (const line of frame.querySelectorAll<HTMLElement>('[data-part="tool-call"] > button'))
      expect(line.getBoundingClientRect().height).toBeLessThan(40);
  });

  it('the activity indicator shows while the agent works and stands still under reduced motion', async () => {
    await commands.emulateReducedMotion('reduce');
    const { chat, frame } = mount({ faults: { holdAfterLines: 2 } });
    void chat.send('Show revenue by month in 2025');
    const activity = await vi.waitFor(() => {
      const found = frame.querySelector<HTMLElement>('[data-part="activity"]');
      expect(found?.dataset['state']).toBe('waiting');
      return found!;
    });
    expect(activity.getAttribute('role')).toBe('status');
    expect(moving(frame)).toEqual([]);
    await commands.emulateReducedMotion('no-preference');
    expect(moving(frame).length).toBeGreaterThan(0);
    await chat.abort();
  });
});

describe('message actions', () => {
  it('Copy gives the answer as Markdown, Copy table the rows as TSV; Ask again sends the question again; feedback reaches onFeedback', async () => {
    const copied: string[] = [];
    // The clipboard needs a user-granted permission in Chromium: record what would be written.
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text) => void copied.push(text));
    const onFeedback = vi.fn();
    const { chat, frame, replay } = mount({ transcript: TRANSCRIPTS['top-customers'] }, { onFeedback });
    await chat.send('Who are our top 10 customers?');
    await vi.waitFor(() => expect(state(frame)).toBe('ready'));
    const bar = frame.querySelector<HTMLElement>('[data-part="message-actions"]')!;
    expect(bar.getAttribute('role')).toBe('group');
    await userEvent.click(button(bar, 'Copy')!);
    await vi.waitFor(() => expect(copied).toHaveLength(1));
    expect(copied[0]).toBe(chat.getSnapshot().finalAnswer!.content);
    expect(copied[0]).toMatch(/\*\*Priya F\. Okafor\*\*/);
    await userEvent.click(button(bar, 'Copy table')!);
    await vi.waitFor(() => expect(copied).toHaveLength(2));
    const lines = copied[1]!.trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[1]!.split('\t')).toContain('Priya F. Okafor');
    await userEvent.click(button(bar, 'Helpful')!);
    expect(onFeedback).toHaveBeenCalledWith({
      chatId: chat.getSnapshot().chatId,
      messageId: chat.getSnapshot().finalAnswer!.id,
      rating: 'up',
    });
    await userEvent.type(bar.querySelector('textarea')!, 'Exactly what I needed');
    await userEvent.click(button(bar, 'Send feedback')!);
    expect(onFeedback).toHaveBeenLastCalledWith(
      expect.objectContaining({ rating: 'up', comment: 'Exactly what I needed' }),
    );
    await userEvent.click(button(bar, 'Ask again')!);
    await vi.waitFor(() => expect(replay.streams).toHaveLength(2));
    expect(replay.streams[1]).toMatchObject({ input: 'Who are our top 10 customers?' });
    expect(textbox(frame)).toBe(document.activeElement);
  });

  it('a failed turn offers Ask again', async () => {
    const { chat, frame } = mount({ faults: { status: 503 } });
    await chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(state(frame)).toBe('error'));
    const bar = frame.querySelector<HTMLElement>('[data-part="message-actions"][data-state="error"]')!;
    expect(button(bar, 'Ask again')).toBeDefined();
  });
});

describe('the composer', () => {
  it('grows with its text up to a maximum; Send and Stop take the same place; disabled looks disabled', async () => {
    const { chat, frame } = mount({ faults: { holdAfterLines: 5 } });
    const box = textbox(frame);
    const oneLine = box.getBoundingClientRect().height;
    await userEvent.click(box);
    await userEvent.keyboard('a{Shift>}{Enter}{/Shift}b{Shift>}{Enter}{/Shift}c');
    expect(box.getBoundingClientRect().height).toBeGreaterThan(oneLine * 1.8);
    await userEvent.keyboard('{Shift>}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{/Shift}');
    const tall = box.getBoundingClientRect().height;
    expect(tall).toBeLessThanOrEqual(parseFloat(getComputedStyle(box).maxHeight));
    const field = box.closest<HTMLElement>('.service-chat-field')!;
    expect(parseFloat(getComputedStyle(field).borderTopLeftRadius)).toBeGreaterThanOrEqual(16);
    await userEvent.clear(box);
    await userEvent.keyboard('Show revenue by month in 2025');
    const send = button(frame, 'Send')!.getBoundingClientRect();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(button(frame, 'Stop')).toBeDefined());
    const stop = button(frame, 'Stop')!.getBoundingClientRect();
    expect([stop.x, stop.y, stop.width, stop.height]).toEqual([send.x, send.y, send.width, send.height]);
    await chat.abort();
    const disabled = mount({}, { disabled: true });
    expect(Number(getComputedStyle(disabled.frame.querySelector('.service-chat-field')!).opacity)).toBeLessThan(1);
    expect(getComputedStyle(textbox(disabled.frame)).cursor).toBe('not-allowed');
  });

  it('after a suggestion is sent, focus is in the composer', async () => {
    const { frame } = mount({}, { suggestions: ['Show revenue by month in 2025'] });
    await userEvent.click(frame.querySelector<HTMLElement>('[data-part="suggestion"]')!);
    await vi.waitFor(() => expect(textbox(frame)).toBe(document.activeElement));
  });
});

describe('follow-up suggestions', () => {
  it('are computed from the finished answer, offered after it, and sent when picked', async () => {
    const followUps = vi.fn(({ question }: { question: string }) =>
      question.includes('top 10') ? ['Orders by status', 'Only 2025?'] : [],
    );
    const { chat, frame, requests } = mountLive({ followUps });
    await chat.send('Who are our top 10 customers?');
    await vi.waitFor(() => expect(state(frame)).toBe('ready'));
    const list = frame.querySelector<HTMLElement>('[data-part="suggestions"][data-kind="follow-up"]')!;
    expect(list.getAttribute('aria-label')).toBe('Follow-up questions');
    expect([...list.querySelectorAll('button')].map((item) => item.textContent)).toEqual([
      'Orders by status',
      'Only 2025?',
    ]);
    expect(followUps).toHaveBeenCalledWith(
      expect.objectContaining({ question: 'Who are our top 10 customers?', answer: chat.getSnapshot().finalAnswer }),
    );
    await userEvent.click(list.querySelector('button')!);
    await vi.waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]).toMatchObject({ input: 'Orders by status' });
    // Only after the latest answer, and that one has none.
    await vi.waitFor(() => expect(state(frame)).toBe('ready'), { timeout: 15_000 });
    expect(frame.querySelectorAll('[data-kind="follow-up"]')).toHaveLength(0);
  });
});

describe('right to left', () => {
  it('messages and the composer read their own direction, and the layout mirrors', async () => {
    const { chat, frame } = mountLive({ dir: 'rtl' });
    await chat.send('ما هو الطقس غداً؟');
    await vi.waitFor(() => expect(state(frame)).toBe('ready'));
    const question = frame.querySelector<HTMLElement>('[data-role="user"]')!;
    const text = question.querySelector<HTMLElement>('[data-part="markdown"]')!;
    expect(text.getAttribute('dir')).toBe('auto');
    expect(text.matches(':dir(rtl)')).toBe(true);
    expect(textbox(frame).getAttribute('dir')).toBe('auto');
    // The user's question sits at the start side: the left in right-to-left.
    const list = frame.querySelector<HTMLElement>('[data-part="message-list"]')!.getBoundingClientRect();
    const bubble = question.getBoundingClientRect();
    expect(bubble.left - list.left).toBeLessThan(list.right - bubble.right);
    // Send sits at the field's end: the left.
    const field = frame.querySelector<HTMLElement>('.service-chat-field')!.getBoundingClientRect();
    const send = frame.querySelector<HTMLElement>('[data-part="send"]')!.getBoundingClientRect();
    expect(send.left - field.left).toBeLessThan(field.right - send.right);
  });
});
