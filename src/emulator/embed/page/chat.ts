/**
 * The AI chat of the embed page: the standalone chat surface, the "Ask AI" view of the app, and
 * the launcher panel of published dashboards. It really asks the emulator's agent through the
 * Chat API (`{ai_url}/chat/stream-chat-state`) with the viewer's deployment token, through the
 * library's own chat controller (`createAgentChat`), as a non-React partner UI would.
 *
 * Each question posts `ai-query` (6.2): `submitted`, then `completed` or `error`, with the
 * `chatId` once the service has named the thread and the `agentId`.
 *
 * @module
 */
import { createAgentChat, type AgentChatController } from '../../../core/agent-chat';
import { createChatClient, type ChatClient } from '../../../core/chat-client';
import { createSubscribable } from '../../../core/store';
import type { ChatMessage } from '../../../core/thread-store';
import { format } from '../strings';
import type { PageContext } from './context';
import { h, replaceChildren } from './dom';
import { renderMarkdown } from './markdown';

/** One thread of this page. */
interface Thread {
  /** The conversation; `undefined` when this deployment has no agent (the thread only shows the refusal). */
  chat: AgentChatController | undefined;
  /** The first question, as the thread's name in the history. */
  title: string;
  /** A failure before or outside the stream, shown under the messages. */
  error?: string;
}

/** The chat state of the page, which outlives re-renders. */
export interface ChatModel {
  /** Threads in the order they were started. */
  readonly threads: readonly Thread[];
  /** The thread on screen, `undefined` for a new chat. */
  readonly current: Thread | undefined;
  /** True while an answer streams. */
  readonly busy: boolean;
  ask(question: string): Promise<void>;
  /** Starts a new, empty chat. */
  reset(): void;
  /** Shows the thread with this chat id; false when this page has none. */
  open(chatId: string): boolean;
  /** Calls `listener` after each change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** The chat id of a thread, once known. */
  chatIdOf(thread: Thread): string | undefined;
}

/** Creates the page's chat model; `getPage` is read at each question (locale, surface may change). */
export function createChatModel(getPage: () => PageContext): ChatModel {
  const threads: Thread[] = [];
  const { subscribe, notify } = createSubscribable();
  let current: Thread | undefined;
  let busy = false;
  let client: ChatClient | undefined;

  const model: ChatModel = {
    get threads() {
      return threads;
    },
    get current() {
      return current;
    },
    get busy() {
      return busy;
    },
    chatIdOf: (thread) => thread.chat?.getSnapshot().chatId,
    subscribe,
    reset() {
      current = undefined;
      notify();
    },
    open(chatId) {
      const thread = threads.find((candidate) => candidate.chat?.getSnapshot().chatId === chatId);
      if (!thread) return false;
      current = thread;
      notify();
      return true;
    },
    async ask(question) {
      const page = getPage();
      const text = question.trim();
      if (!text || busy) return;
      const chat = page.config.chat;
      if (chat)
        client ??= createChatClient({
          url: chat.url,
          // Read on each request: `set-session` replaces the token in place.
          auth: { token: () => chat.token },
          resubscribe: false,
        });
      let thread = current;
      if (!thread) {
        thread = { chat: client && createAgentChat({ client }), title: text };
        thread.chat?.subscribe(notify);
        threads.push(thread);
        current = thread;
      }
      thread.error = undefined;
      const ids = (chatId: string | undefined) => ({
        ...(chatId ? { chatId } : {}),
        ...(chat ? { agentId: chat.agentId } : {}),
      });
      const post = (status: 'submitted' | 'completed' | 'error') =>
        page.messenger.post({
          surface: page.surface,
          type: 'service:event:ai-query',
          payload: { query: text, status, ...ids(thread.chat?.getSnapshot().chatId) },
        });
      post('submitted');
      if (!thread.chat) {
        // No agent on this deployment: the answer is a visible refusal, and the query an error.
        thread.error = page.strings.chatUnavailable;
        notify();
        post('error');
        return;
      }
      busy = true;
      notify();
      // The controller shows the question at once, streams the answer and never throws for it.
      await thread.chat.send(text).catch(() => undefined);
      const { status, error } = thread.chat.getSnapshot();
      if (status === 'error')
        thread.error = format(page.strings.chatFailed, { message: error?.message ?? String(error) });
      busy = false;
      notify();
      post(status === 'error' ? 'error' : 'completed');
    },
  };
  return model;
}

/** Text of a message as the panel shows it: the content, or a one-line account of a tool call. */
function messageText(message: ChatMessage): string {
  if (message.content.trim()) return message.content;
  const call = message.toolCall;
  if (!call) return '';
  const input = call.input as { queryTitle?: unknown; searchQuery?: unknown } | undefined;
  const label =
    typeof input?.queryTitle === 'string'
      ? input.queryTitle
      : typeof input?.searchQuery === 'string'
        ? input.searchQuery
        : '';
  return `⚙ ${call.name}${label ? `: ${label}` : ''}`;
}

/** The messages of the current thread: the questions and what the agent said and did. */
export function visibleMessages(model: ChatModel): { role: 'user' | 'assistant'; text: string }[] {
  const messages = model.current?.chat?.getSnapshot().messages ?? [];
  return messages
    .map((message) => ({ role: message.role, text: messageText(message) }))
    .filter((message) => message.text !== '');
}

/** Options of {@link renderChatPanel}. */
export interface ChatPanelOptions {
  /** Heading level of the panel's title: `h1` on the chat surface, `h2` inside other views. */
  headingLevel: 'h1' | 'h2';
  /** Shows the history and the new-chat button (chat surface), subject to the URL switches. */
  withHistory: boolean;
  /** Called when the viewer picks a thread of the history or a new chat (chat surface navigation). */
  onOpen?(chatId: string | undefined): void;
  /** Adds a close button (dashboard launcher panel). */
  onClose?(): void;
}

/**
 * Renders the chat panel. It redraws its message list itself as answers stream; the input keeps
 * what the viewer typed. Returns the element and a function that detaches it from the model.
 */
export function renderChatPanel(
  page: PageContext,
  model: ChatModel,
  options: ChatPanelOptions,
): { element: HTMLElement; dispose(): void } {
  const { strings, switches } = page;
  const log = h('div', {
    attrs: { class: 'svc-chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': strings.chatTitle },
  });
  const status = h('p', { attrs: { class: 'svc-muted', role: 'status', 'data-part': 'chat-status' } });

  const drawLog = (): void => {
    const items = visibleMessages(model).map((message) =>
      h(
        'div',
        { attrs: { class: `svc-chat-message svc-chat-${message.role}`, 'data-role': message.role } },
        message.role === 'assistant' ? renderMarkdown(message.text, 'svc-text') : h('p', {}, message.text),
      ),
    );
    const error = model.current?.error;
    replaceChildren(log, ...items, error ? h('p', { attrs: { role: 'alert', class: 'svc-error-text' } }, error) : null);
    status.textContent = model.busy ? strings.thinking : '';
    if (submit) submit.disabled = model.busy;
  };

  let submit: HTMLButtonElement | undefined;
  let form: HTMLFormElement | null = null;
  if (switches.chatInput) {
    const inputId = `svc-question-${options.headingLevel}`;
    const input = h('input', {
      attrs: {
        id: inputId,
        name: 'question',
        type: 'text',
        autocomplete: 'off',
        placeholder: strings.questionPlaceholder,
        'data-focus-key': inputId,
      },
    });
    submit = h('button', { attrs: { type: 'submit', class: 'svc-button svc-primary' } }, strings.send);
    form = h(
      'form',
      {
        attrs: { class: 'svc-chat-form', 'data-part': 'chat-input' },
        on: {
          submit: (event) => {
            event.preventDefault();
            const question = input.value;
            input.value = '';
            void model.ask(question);
          },
        },
      },
      h('label', { attrs: { for: inputId } }, strings.questionLabel),
      h('div', { attrs: { class: 'svc-chat-row' } }, input, submit),
    );
  }

  const newChat =
    options.withHistory && switches.newChat
      ? h(
          'button',
          {
            attrs: { type: 'button', class: 'svc-button', 'data-part': 'new-chat', 'data-focus-key': 'new-chat' },
            on: { click: () => options.onOpen?.(undefined) },
          },
          strings.newChat,
        )
      : null;
  const history =
    options.withHistory && switches.chatHistory
      ? h(
          'nav',
          { attrs: { class: 'svc-chat-history', 'aria-label': strings.chatHistory, 'data-part': 'chat-history' } },
          h('h2', { attrs: { class: 'svc-subtitle' } }, strings.chatHistory),
          model.threads.length
            ? h(
                'ul',
                {},
                ...model.threads.map((thread) => {
                  const chatId = model.chatIdOf(thread);
                  return h(
                    'li',
                    {},
                    h(
                      'button',
                      {
                        attrs: {
                          type: 'button',
                          class: 'svc-link',
                          'aria-current': thread === model.current ? 'true' : undefined,
                          disabled: !chatId,
                        },
                        on: { click: () => chatId && options.onOpen?.(chatId) },
                      },
                      thread.title,
                    ),
                  );
                }),
              )
            : h('p', { attrs: { class: 'svc-muted' } }, strings.noChats),
        )
      : null;

  const heading = h(options.headingLevel, { attrs: { class: 'svc-title' } }, strings.chatTitle);
  const close = options.onClose
    ? h(
        'button',
        {
          attrs: { type: 'button', class: 'svc-button', 'data-focus-key': 'close-chat' },
          on: { click: () => options.onClose?.() },
        },
        strings.closeChat,
      )
    : null;
  const main = h(
    'div',
    { attrs: { class: 'svc-chat-main' } },
    h('div', { attrs: { class: 'svc-chat-header' } }, heading, newChat, close),
    log,
    status,
    form,
  );
  const element = h('div', { attrs: { class: 'svc-chat', 'data-part': 'chat' } }, history, main);
  drawLog();
  const unsubscribe = model.subscribe(drawLog);
  return { element, dispose: unsubscribe };
}
