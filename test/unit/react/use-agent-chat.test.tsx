/**
 * useAgentChat in jsdom over recorded transcripts: settings from the provider, one request per
 * question under StrictMode, a missing url as a typed error in `error`, stable actions, and a
 * stored thread opened once.
 */
import { act, render, renderHook, waitFor } from '@testing-library/react';
import * as React from 'react';
import { StrictMode, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createAgentChat } from '../../../src/core/agent-chat';
import { createChatClient } from '../../../src/core/chat-client';
import { ServiceConfigError, StreamingInProgressError } from '../../../src/core/errors';
import { ServiceProvider } from '../../../src/react';
import { useAgentChat, type UseAgentChatOptions } from '../../../src/react/use-agent-chat';
import { createReplayFetch, TRANSCRIPTS } from '../../../src/testing';

describe('useAgentChat', () => {
  it('takes url and fetch from ServiceProvider, answers, and calls onChatId and onFinish (latest callbacks)', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['top-customers'], chunking: 64 });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <ServiceProvider chat={{ url: '/api/service', fetch: fake.fetch }}>{children}</ServiceProvider>
    );
    const first = vi.fn();
    const latest = vi.fn();
    const onChatId = vi.fn();
    const { result, rerender } = renderHook(({ onFinish }) => useAgentChat({ onFinish, onChatId }), {
      wrapper,
      initialProps: { onFinish: first },
    });
    const actions = [result.current.send, result.current.abort, result.current.resume, result.current.reset];
    rerender({ onFinish: latest });
    await act(() => result.current.send('Who are our top 10 customers?'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.finalAnswer?.content).toMatch(/top 10 customers/);
    expect(onChatId).toHaveBeenCalledWith(result.current.chatId);
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledTimes(1);
    expect([result.current.send, result.current.abort, result.current.resume, result.current.reset]).toEqual(actions);
  });

  it('StrictMode: one request per question and one read of a stored thread', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'] });
    const wrapper = ({ children }: { children: ReactNode }) => <StrictMode>{children}</StrictMode>;
    const { result } = renderHook(
      () => useAgentChat({ url: '/api/service', fetch: fake.fetch, chatId: 'stored-chat' }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(fake.streams).toEqual([{ chatId: 'stored-chat' }]);
    await act(() => result.current.send('hello'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(fake.streams).toHaveLength(2);
  });

  it('a second question while one runs is refused with StreamingInProgressError', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'], faults: { holdAfterLines: 5 } });
    const { result } = renderHook(() => useAgentChat({ url: '/api/service', fetch: fake.fetch }));
    act(() => void result.current.send('first'));
    await expect(result.current.send('second')).rejects.toBeInstanceOf(StreamingInProgressError);
    // The replay fetch records a request once it has read its body; the refused one never comes.
    await waitFor(() => expect(fake.requests.map((request) => request.body['input'])).toEqual(['first']));
    act(() => result.current.reset());
  });

  it('without a url: a ServiceConfigError in `error` (and onError) when asked, never a throw in render', async () => {
    const onError = vi.fn();
    const { result } = renderHook(() => useAgentChat({ onError }));
    expect(result.current.status).toBe('idle');
    await act(() => result.current.send('hello'));
    // Notified on the next animation frame, as in browsers.
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(ServiceConfigError.isInstance(result.current.error)).toBe(true);
    expect(result.current.error?.message).toMatch(/url/);
    expect(onError).toHaveBeenCalledWith(result.current.error);
  });

  it('renders on the server and in tests without starting anything', () => {
    const fetch = vi.fn();
    function Probe() {
      const chat = useAgentChat({ url: '/api/service', fetch });
      return <p>{chat.status}</p>;
    }
    const { container } = render(<Probe />);
    expect(container.textContent).toBe('idle');
    expect(fetch).not.toHaveBeenCalled();
  });

  // React 19's <Activity>; React 18 has none (the unit-react18 project skips this test).
  const Activity = (React as { Activity?: React.ComponentType<{ mode: 'visible' | 'hidden'; children?: ReactNode }> })
    .Activity;

  it.skipIf(!Activity)('hidden in <Activity> and shown again, the chat still works', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'] });
    let latest: ReturnType<typeof useAgentChat> | undefined;
    function Probe() {
      latest = useAgentChat({ url: '/api/service', fetch: fake.fetch });
      return <p>{latest.status}</p>;
    }
    const Shown = Activity!;
    const view = (mode: 'visible' | 'hidden') => (
      <Shown mode={mode}>
        <Probe />
      </Shown>
    );
    const { rerender, container } = render(view('visible'));
    rerender(view('hidden'));
    // Long enough for any timer a hook might have set on the effects' cleanup.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    rerender(view('visible'));
    await act(() => latest!.send('What is the weather tomorrow?'));
    await waitFor(() => expect(container.textContent).toBe('ready'));
    expect(latest!.error).toBeUndefined();
    expect(fake.streams).toHaveLength(1);
  });

  it('chatId changed to undefined starts a new conversation; changed to another id opens that thread', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'] });
    const { result, rerender } = renderHook(
      ({ chatId }: { chatId: string | undefined }) => useAgentChat({ url: '/api/service', fetch: fake.fetch, chatId }),
      { initialProps: { chatId: 'stored-chat' as string | undefined } },
    );
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(fake.streams).toEqual([{ chatId: 'stored-chat' }]);
    rerender({ chatId: undefined });
    await waitFor(() => expect(result.current.messages).toEqual([]));
    expect(result.current.chatId).toBeUndefined();
    await act(() => result.current.send('A new question'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(fake.streams.at(-1)).not.toHaveProperty('chatId');
    rerender({ chatId: 'other-chat' });
    await waitFor(() => expect(fake.streams.at(-1)).toEqual({ chatId: 'other-chat' }));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('adopts a controller given as `chat` (building none of its own) and tells its errors to onError', async () => {
    const fake = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'], faults: { status: 503 } });
    const chat = createAgentChat({ client: createChatClient({ url: '/api/service', fetch: fake.fetch }) });
    const onError = vi.fn();
    const { result } = renderHook(() => useAgentChat({ chat, onError }));
    expect(result.current.chat).toBe(chat);
    await act(() => chat.send('hello'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(onError).toHaveBeenCalledWith(chat.getSnapshot().error);
    expect(fake.streams).toHaveLength(1);
  });

  it('refuses a controller and the options to create one together', () => {
    const chat = createAgentChat({ client: createChatClient({ url: '/api/service' }) });
    const both = { chat, url: '/api/service' } as unknown as UseAgentChatOptions;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useAgentChat(both))).toThrow(/either `chat`.*not both/);
    vi.restoreAllMocks();
  });
});
