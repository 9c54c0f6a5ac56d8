/**
 * `useAgentChat`: a conversation with an agent in React. A thin hook over the core's chat
 * controller (`createAgentChat`): it adopts the controller it is given or creates one, reads it
 * through `useSyncExternalStore`, and keeps no chat state of its own.
 *
 * @module
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  createAgentChat,
  type AgentChatCallbacks,
  type AgentChatController,
  type AgentChatSnapshot,
} from '../core/agent-chat';
import { createChatClient, type ChatClient } from '../core/chat-client';
import { ServiceConfigError } from '../core/errors';
import type { ScheduleNotify } from '../core/store';
import { useOptionalServiceContext, type ChatSettings } from './context';
import { useLatest } from './use-latest';
import { useStore } from './use-store';

/** What a reader thought of an answer, as `onFeedback` receives it. */
export interface AgentChatFeedback {
  /** The thread of the answer; `undefined` only before the service named it. */
  chatId: string | undefined;
  /** The id of the rated message (the turn's final answer). */
  messageId: string;
  /** `up`: helpful; `down`: not helpful. */
  rating: 'up' | 'down';
  /** What the reader wrote, when they did. */
  comment?: string;
}

/** What {@link UseAgentChatResult.feedback} takes: the feedback without the thread, which the hook knows. */
export type AgentChatFeedbackInput = Omit<AgentChatFeedback, 'chatId'>;

/**
 * The callbacks of {@link useAgentChat}, taken with a controller of its own or an adopted one.
 * Read through a ref: inline functions are fine.
 */
export interface UseAgentChatCallbacks extends AgentChatCallbacks {
  /**
   * Called when the reader rates an answer ("Helpful", "Not helpful", with an optional comment),
   * so you can send it to your own systems: the service has no feedback endpoint. Default none
   * (`AgentChat` then shows no feedback buttons).
   */
  onFeedback?: (feedback: AgentChatFeedback) => void;
}

/** Options of {@link useAgentChat} that create its controller; each setting defaults to `ServiceProvider`'s `chat`. */
export interface UseAgentChatInit extends ChatSettings, UseAgentChatCallbacks {
  /**
   * A stored thread to open: on mount the hook reads it (the service replays it, and streams a
   * running answer live, so a page reloaded mid-answer continues it), and questions add to it.
   * Changing it opens the other thread; changing it to `undefined` starts a new conversation.
   * Default: a new conversation.
   */
  chatId?: string;
  /** Not with these options: give either a controller or the options to create one. */
  chat?: undefined;
}

/** Options of {@link useAgentChat} that adopt a controller made elsewhere (`createAgentChat`). */
export type UseAgentChatAdopt = UseAgentChatCallbacks & {
  /** The conversation to show, made with `createAgentChat`: the hook builds none of its own. */
  chat: AgentChatController;
} & { [Key in keyof ChatSettings | 'chatId']?: undefined };

/**
 * Options of {@link useAgentChat}: either the settings to create a controller
 * ({@link UseAgentChatInit}) or a controller to adopt ({@link UseAgentChatAdopt}), never both.
 */
export type UseAgentChatOptions = UseAgentChatInit | UseAgentChatAdopt;

/** What {@link useAgentChat} returns: the controller's snapshot, the controller, and its actions (stable functions). */
export interface UseAgentChatResult extends AgentChatSnapshot {
  /** The controller: give it to `AgentChat` or `AgentChatProvider` (`chat={result.chat}`). */
  chat: AgentChatController;
  /** Asks a question; refused (rejects with `StreamingInProgressError`) while an answer runs. */
  send: AgentChatController['send'];
  /** Stops the agent through the abort endpoint; `status` ends `aborted` (or `error` if refused). */
  abort: AgentChatController['abort'];
  /** Continues the thread (reads it) or resends a failed question with its same message id. */
  resume: AgentChatController['resume'];
  /** Starts a new conversation. */
  reset: AgentChatController['reset'];
  /** Reports a rating of a message to `onFeedback` (the hook adds the thread's id). */
  feedback: (feedback: AgentChatFeedbackInput) => void;
}

/**
 * Browsers notify React once per animation frame, so a fast stream costs at most one commit per
 * frame; elsewhere (server render, tests without a DOM) at once.
 */
const frameScheduler: ScheduleNotify | undefined =
  typeof requestAnimationFrame === 'function' ? (notify) => void requestAnimationFrame(notify) : undefined;

const SETTINGS = ['url', 'auth', 'sessionSettings', 'fetch', 'chatId'] as const;

/** A controller made from the hook's latest settings (its client is rebuilt only when one changes). */
function createOwnController(
  latest: { readonly current: { options: UseAgentChatOptions; provided: ChatSettings | undefined } },
  chatId: string | undefined,
): AgentChatController {
  let client: { key: unknown[]; value: ChatClient } | undefined;
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
  const controller = createAgentChat({
    client: {
      stream: (request, streamOptions) => current().stream(request, streamOptions),
      abort: (chatId, abortOptions) => current().abort(chatId, abortOptions),
    },
    chatId,
    scheduleNotify: frameScheduler,
  });
  return controller;
}

/**
 * The controller behind {@link useAgentChat}, `AgentChat` and `AgentChatProvider`, without reading
 * its snapshot: the one given as `chat`, else one of the hook's own made from the options (and
 * `ServiceProvider`'s `chat`), created once. Wires the callbacks and the `chatId` option. Throws a
 * `ServiceConfigError` when given both a controller and options to create one.
 */
export function useChatController(options: UseAgentChatOptions = {}): {
  chat: AgentChatController;
  feedback: (feedback: AgentChatFeedbackInput) => void;
} {
  const provided = useOptionalServiceContext()?.chat;
  const latest = useLatest({ options, provided });
  const adopted = options.chat;
  if (adopted && SETTINGS.some((key) => options[key] !== undefined)) {
    throw new ServiceConfigError(
      `useAgentChat: pass either \`chat\` (a controller from createAgentChat) or the options to create one (${SETTINGS.join(', ')}), not both`,
    );
  }
  // Made on first need only: a hook that adopts a controller builds none.
  const [own, setOwn] = useState(() => (adopted ? undefined : createOwnController(latest, options.chatId)));
  let chat = adopted ?? own;
  if (!chat) {
    // Adopted at first, now asked to create: state derived during render, kept from now on.
    chat = createOwnController(latest, options.chatId);
    setOwn(chat);
  }

  // Callbacks follow the mounted component (an adopted controller's errors reach its `onError`).
  useEffect(
    () =>
      chat.listen({
        onChatId: (chatId) => latest.current.options.onChatId?.(chatId),
        onFinish: (snapshot) => latest.current.options.onFinish?.(snapshot),
        onError: (error) => latest.current.options.onError?.(error),
      }),
    [chat, latest],
  );

  // The `chatId` option: each new value once (StrictMode's second run and a return from
  // `<Activity mode="hidden">` see the value they handled and do nothing).
  const handled = useRef<{ chatId: string | undefined } | undefined>(undefined);
  const chatId = adopted ? undefined : options.chatId;
  useEffect(() => {
    if (adopted) return;
    const previous = handled.current;
    if (previous && previous.chatId === chatId) return;
    handled.current = { chatId };
    if (chatId === undefined) {
      // Back to no thread: a new conversation (the next question posts no chatId).
      if (previous) chat.reset();
      return;
    }
    // The id the hook already shows (a new thread's id given back through `onChatId`): nothing to read.
    if (previous && chat.getSnapshot().chatId === chatId) return;
    if (previous) chat.reset(chatId);
    chat.resume().catch(() => undefined);
  }, [adopted, chat, chatId]);

  const feedback = useMemo(
    () => (input: AgentChatFeedbackInput) =>
      latest.current.options.onFeedback?.({ chatId: chat.getSnapshot().chatId, ...input }),
    [chat, latest],
  );
  return useMemo(() => ({ chat, feedback }), [chat, feedback]);
}

/**
 * A conversation with the service's analytics agent.
 *
 * ```tsx
 * const { messages, finalAnswer, status, send, abort } = useAgentChat({ url: '/api/service' });
 * ```
 *
 * Settings come from the options, else from `ServiceProvider`'s `chat` prop (no provider
 * needed when `url` is given); or give `{ chat }`, a controller made with `createAgentChat`, and
 * the hook reads that one (never both). A missing `url` is reported as a `ServiceConfigError` in
 * `error` when a question is sent, never thrown during render. The controller's work follows the
 * component: unmounted (or hidden in `<Activity>`), a running answer's request is cut and picked
 * up again on return; under StrictMode a question is still one request.
 */
export function useAgentChat(options: UseAgentChatOptions = {}): UseAgentChatResult {
  const { chat, feedback } = useChatController(options);
  return useAgentChatResult(chat, feedback);
}

/** The whole snapshot of `chat` and its actions, the same object until the snapshot changes. */
export function useAgentChatResult(
  chat: AgentChatController,
  feedback: (feedback: AgentChatFeedbackInput) => void,
): UseAgentChatResult {
  const snapshot = useStore(chat);
  return useMemo(
    () => ({
      ...snapshot,
      chat,
      send: chat.send,
      abort: chat.abort,
      resume: chat.resume,
      reset: chat.reset,
      feedback,
    }),
    [snapshot, chat, feedback],
  );
}
