/**
 * `useAgentChat`: a conversation with an agent in React. A thin hook over the core's chat
 * controller (`createAgentChat`): it creates the controller once, reads it through
 * `useSyncExternalStore`, and keeps no chat state of its own.
 *
 * @module
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { createAgentChat, type AgentChatController, type AgentChatSnapshot } from '../core/agent-chat';
import { createChatClient, type ChatClient } from '../core/chat-client';
import { ServiceConfigError } from '../core/errors';
import type { ScheduleNotify } from '../core/store';
import { useOptionalServiceContext, type ChatSettings } from './context';
import { useLatest } from './use-latest';
import { useStore } from './use-store';

/** Options of {@link useAgentChat}; each setting defaults to the `chat` prop of `ServiceProvider`. */
export interface UseAgentChatOptions extends ChatSettings {
  /**
   * A stored thread to open: on mount the hook reads it (the service replays it, and streams a
   * running answer live, so a page reloaded mid-answer continues it), and questions add to it.
   * Changing it opens the other thread. Default: a new conversation.
   */
  chatId?: string;
  /** Called once the service has named a new thread: store the id to reopen it later. */
  onChatId?: (chatId: string) => void;
  /** Called when an answer ends, `ready` or `aborted`. Read through a ref: inline functions are fine. */
  onFinish?: (snapshot: AgentChatSnapshot) => void;
  /** Called with every failure (stream, abort refused, resume). Read through a ref. */
  onError?: (error: Error) => void;
}

/** What {@link useAgentChat} returns: the controller's snapshot and its actions (stable functions). */
export interface UseAgentChatResult extends AgentChatSnapshot {
  /** Asks a question; refused (rejects with `StreamingInProgressError`) while an answer runs. */
  send: AgentChatController['send'];
  /** Stops the agent through the abort endpoint; `status` ends `aborted` (or `error` if refused). */
  abort: AgentChatController['abort'];
  /** Continues the thread (reads it) or resends a failed question with its same message id. */
  resume: AgentChatController['resume'];
  /** Starts a new conversation. */
  reset: AgentChatController['reset'];
}

/**
 * Browsers notify React once per animation frame, so a fast stream costs at most one commit per
 * frame; elsewhere (server render, tests without a DOM) at once.
 */
const frameScheduler: ScheduleNotify | undefined =
  typeof requestAnimationFrame === 'function' ? (notify) => void requestAnimationFrame(notify) : undefined;

/**
 * A conversation with the service's analytics agent.
 *
 * ```tsx
 * const { messages, finalAnswer, status, send, abort } = useAgentChat({ url: '/api/service' });
 * ```
 *
 * Settings come from the options, else from `ServiceProvider`'s `chat` prop (no provider
 * needed when `url` is given). A missing `url` is reported as a `ServiceConfigError` in `error`
 * when a question is sent, never thrown during render. Under StrictMode a question is still one
 * request.
 */
export function useAgentChat(options: UseAgentChatOptions = {}): UseAgentChatResult {
  const provided = useOptionalServiceContext()?.chat;
  const latest = useLatest({ options, provided });

  const [chat] = useState(() => {
    let client: { key: unknown[]; value: ChatClient } | undefined;
    /** The client of the latest settings, rebuilt only when one of them changed. */
    const current = (): ChatClient => {
      const { options: own, provided: shared } = latest.current;
      const url = own.url ?? shared?.url;
      const auth = own.auth ?? shared?.auth;
      const sessionSettings = own.sessionSettings ?? shared?.sessionSettings;
      const key = [url, auth, sessionSettings];
      if (client && key.every((value, index) => value === client!.key[index])) return client.value;
      if (!url)
        throw new ServiceConfigError(
          'useAgentChat: `url` is required: pass it, or `chat={{ url }}` to <ServiceProvider> (your proxy route, e.g. /api/service)',
        );
      const value = createChatClient({
        url,
        auth,
        sessionSettings,
        // Looked up per request, so a new `fetch` option needs no new client.
        fetch: (input, init) =>
          (latest.current.options.fetch ?? latest.current.provided?.fetch ?? globalThis.fetch)(input, init),
        onResubscribe: (event) => controller.reconnecting(event),
      });
      client = { key, value };
      return value;
    };
    const controller: AgentChatController = createAgentChat({
      client: {
        stream: (request, streamOptions) => current().stream(request, streamOptions),
        abort: (chatId, abortOptions) => current().abort(chatId, abortOptions),
      },
      chatId: options.chatId,
      scheduleNotify: frameScheduler,
      onChatId: (chatId) => latest.current.options.onChatId?.(chatId),
      onFinish: (snapshot) => latest.current.options.onFinish?.(snapshot),
      onError: (error) => latest.current.options.onError?.(error),
    });
    return controller;
  });

  // Opening a stored thread, once per id: StrictMode's second effect run must not read it twice.
  const opened = useRef<string | undefined>(undefined);
  const initialChatId = useRef(options.chatId);
  const { chatId } = options;
  useEffect(() => {
    if (chatId === undefined || opened.current === chatId) return;
    const initial = opened.current === undefined && chatId === initialChatId.current;
    opened.current = chatId;
    // The id the hook already shows (a new thread's id given back through `onChatId`): nothing to read.
    if (!initial && chat.getSnapshot().chatId === chatId) return;
    if (!initial) chat.reset(chatId);
    chat.resume().catch(() => undefined);
  }, [chat, chatId]);

  // Dispose on a real unmount only: StrictMode unmounts and mounts again at once.
  const disposeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(disposeTimer.current);
    return () => {
      disposeTimer.current = setTimeout(() => chat.dispose(), 0);
    };
  }, [chat]);

  const snapshot = useStore(chat);
  return useMemo(
    () => ({ ...snapshot, send: chat.send, abort: chat.abort, resume: chat.resume, reset: chat.reset }),
    [snapshot, chat],
  );
}
