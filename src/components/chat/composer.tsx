/**
 * The composer, as parts a partner can recompose over one small hook (assistant-ui's composer
 * primitives): `ChatComposerRoot` (the form, which holds the text), `ChatComposerInput`,
 * `ChatComposerSend` and `ChatComposerStop`. The stock `ChatComposer` is built from them: one
 * rounded field that grows with its text, Send turning into Stop in the same place while an answer
 * runs. Enter sends, Shift+Enter adds a line, Escape stops.
 *
 * @module
 */
import {
  createContext,
  forwardRef,
  useContext,
  useId,
  useMemo,
  type ComponentPropsWithoutRef,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { isRunning } from '../../core/agent-chat';
import { useIsomorphicLayoutEffect } from '../../react/use-latest';
import { ServiceConfigError } from '../../core/errors';
import { useControllableState } from '../../react/use-controllable-state';
import { createPart, named } from '../part';
import { useAgentChatConfig, useAgentChatSelector } from './context';

/** What the composer parts share: the text and what can be done with it. Read it with {@link useChatComposer}. */
export interface ChatComposerState {
  /** The text being written. */
  value: string;
  /** Replaces the text. */
  setValue: (value: string) => void;
  /** True while an answer runs: Stop instead of Send. */
  running: boolean;
  /** The composer is disabled (its `disabled` prop). */
  disabled: boolean;
  /** Sends the text as a question (and clears it), or does nothing when it cannot be sent. */
  send: () => void;
  /** Stops the running answer (through the abort endpoint), or does nothing when none runs. */
  stop: () => void;
  /** The id of the composer's error message while the last answer failed (for `aria-describedby`). */
  errorId: string | undefined;
}

const ComposerContext = /*#__PURE__*/ named(
  /*#__PURE__*/ createContext<ChatComposerState | null>(null),
  'ChatComposerContext',
);

/** The nearest composer's state; throws outside a `ChatComposerRoot` (or `ChatComposer`). */
export function useChatComposer(): ChatComposerState {
  const value = useContext(ComposerContext);
  if (!value)
    throw new ServiceConfigError('`useChatComposer` must be used within <ChatComposerRoot> or <ChatComposer>');
  return value;
}

/** Sends the composer's text: a handler, or `null` when there is nothing to send (empty, running, disabled). */
export function useComposerSend(): (() => void) | null {
  const { value, running, disabled, send } = useChatComposer();
  return value.trim() === '' || running || disabled ? null : send;
}

/** Stops the running answer: a handler, or `null` when no answer runs. */
export function useComposerStop(): (() => void) | null {
  const { running, stop } = useChatComposer();
  return running ? stop : null;
}

/** Props of {@link ChatComposerRoot}; other props go to its root `<form>`. */
export interface ChatComposerRootProps extends ComponentPropsWithoutRef<'form'> {
  /** Disables typing and sending (for example while the host is signing the user in). Default `false`. */
  disabled?: boolean;
  /**
   * The question being written, when you hold it (to pre-fill a question, such as "Ask about
   * this" from a dashboard's drilldown); pair it with `onInputChange`. Default: the composer holds it.
   */
  input?: string;
  /** The first text of a composer that holds its own question. Default `''`. */
  defaultInput?: string;
  /** Every change of the question: typing, and clearing it once sent. */
  onInputChange?: (input: string) => void;
}

/**
 * The composer's form: `data-part="composer"`, `data-state` `idle`, `running`, `error` or
 * `disabled`. Holds the text for the parts inside; submitting sends it (the caller's `onSubmit`
 * runs first and may `preventDefault()`), Enter in its textbox submits, Escape stops the answer.
 */
export const ChatComposerRoot = /*#__PURE__*/ createPart(
  'ChatComposerRoot',
  'form',
  'composer',
  'service-chat-composer',
  function ChatComposerRoot(props: ChatComposerRootProps) {
    const { disabled = false, input, defaultInput = '', onInputChange, children, ...rest } = props;
    const { chat } = useAgentChatConfig('ChatComposerRoot');
    const status = useAgentChatSelector((snapshot) => snapshot.status);
    const [value, setValue] = useControllableState({
      prop: input,
      defaultProp: defaultInput,
      onChange: onInputChange,
      name: 'ChatComposer input',
    });
    const errorId = useId();
    const running = isRunning(status);
    const failed = status === 'error';
    const state = useMemo<ChatComposerState>(
      () => ({
        value,
        setValue,
        running,
        disabled,
        send: () => {
          const text = value.trim();
          if (!text || running || disabled) return;
          setValue('');
          // Refusals cannot happen here (nothing is sent while running); failures are in the snapshot.
          chat.send(text).catch(() => undefined);
        },
        // A refused abort shows as the chat's `error` status; nothing to await here.
        stop: () => void chat.abort(),
        errorId: failed ? errorId : undefined,
      }),
      [value, setValue, running, disabled, chat, failed, errorId],
    );
    return {
      rest,
      state: disabled ? 'disabled' : running ? 'running' : failed ? 'error' : 'idle',
      props: {
        onSubmit: (event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          state.send();
        },
        onKeyDown: (event: KeyboardEvent<HTMLFormElement>) => {
          if (event.key === 'Escape' && running) {
            event.preventDefault();
            state.stop();
          } else if (
            event.key === 'Enter' &&
            !event.shiftKey &&
            !event.nativeEvent.isComposing &&
            event.target instanceof HTMLTextAreaElement &&
            event.target.dataset['part'] === 'composer-input'
          ) {
            event.preventDefault();
            // Through the form's submit event, so the host's `onSubmit` sees (and may cancel) Enter too.
            event.currentTarget.requestSubmit();
          }
        },
      },
      children: <ComposerContext.Provider value={state}>{children}</ComposerContext.Provider>,
    };
  },
);

/** Props of {@link ChatComposerInput}; other props go to its `<textarea>`. */
export type ChatComposerInputProps = ComponentPropsWithoutRef<'textarea'>;

/**
 * The composer's textbox: `data-part="composer-input"`, named by `labels.input` ("Ask a
 * question"), `dir="auto"`. It grows with its text up to the height the stylesheet allows.
 */
export const ChatComposerInput = /*#__PURE__*/ createPart(
  'ChatComposerInput',
  'textarea',
  'composer-input',
  'service-chat-input',
  function ChatComposerInput(props: ChatComposerInputProps) {
    const { labels, composer } = useAgentChatConfig('ChatComposerInput');
    const { value, setValue, disabled, errorId } = useChatComposer();
    // The stylesheet grows the field with its text (`field-sizing`); where a browser cannot, this does.
    useIsomorphicLayoutEffect(() => {
      const node = composer.current;
      if (!node || (typeof CSS === 'object' && CSS.supports('field-sizing', 'content'))) return;
      node.style.height = 'auto';
      node.style.height = `${node.scrollHeight}px`;
    }, [value, composer]);
    return {
      rest: props,
      props: {
        ref: composer,
        name: 'question',
        rows: 1,
        dir: 'auto',
        'aria-label': labels.input,
        'aria-describedby': errorId,
        placeholder: labels.placeholder,
        value,
        disabled,
        onChange: (event) => setValue(event.currentTarget.value),
      },
    };
  },
);

/** Props of {@link ChatComposerSend} and {@link ChatComposerStop}; other props go to their `<button>`. */
export type ChatComposerButtonProps = ComponentPropsWithoutRef<'button'>;

/** The send button: `data-part="send"`, named "Send" (`labels.send`), disabled while there is nothing to send. */
export const ChatComposerSend = /*#__PURE__*/ createPart(
  'ChatComposerSend',
  'button',
  'send',
  'service-chat-send',
  function ChatComposerSend(props: ChatComposerButtonProps) {
    const { children, ...rest } = props;
    const { labels } = useAgentChatConfig('ChatComposerSend');
    const send = useComposerSend();
    return {
      rest,
      props: { type: 'submit', disabled: !send },
      children: children ?? (
        <>
          <svg viewBox="0 0 16 16" aria-hidden="true">
            <path d="M8 13V3M3.5 7.5 8 3l4.5 4.5" />
          </svg>
          <span className="service-visually-hidden">{labels.send}</span>
        </>
      ),
    };
  },
);

/** The stop button: `data-part="stop"`, named "Stop" (`labels.stop`); stops the running answer. */
export const ChatComposerStop = /*#__PURE__*/ createPart(
  'ChatComposerStop',
  'button',
  'stop',
  'service-chat-send',
  function ChatComposerStop(props: ChatComposerButtonProps) {
    const { children, ...rest } = props;
    const { labels, composer } = useAgentChatConfig('ChatComposerStop');
    const stop = useComposerStop();
    return {
      rest,
      props: {
        type: 'button',
        disabled: !stop,
        onClick: () => {
          stop?.();
          composer.current?.focus();
        },
      },
      children: children ?? (
        <>
          <svg viewBox="0 0 16 16" aria-hidden="true">
            <rect x="4" y="4" width="8" height="8" rx="1.5" />
          </svg>
          <span className="service-visually-hidden">{labels.stop}</span>
        </>
      ),
    };
  },
);

/** Props of {@link ChatComposer}; other props go to its root `<form>`. */
export interface ChatComposerProps extends Omit<ChatComposerRootProps, 'children'> {
  /** Focuses the textbox on mount. Default `false`. */
  autoFocus?: boolean;
}

/** The failed answer's error with Retry, shown above the field (internal to the stock composer). */
function ComposerError() {
  const { chat, labels } = useAgentChatConfig('ChatComposer');
  const error = useAgentChatSelector((snapshot) => (snapshot.status === 'error' ? snapshot.error : undefined));
  const { errorId } = useChatComposer();
  if (!error || !errorId) return null;
  return (
    <div role="alert" id={errorId} className="service-chat-error" data-part="error">
      <p>
        <strong>{labels.error}</strong> {error.message}
      </p>
      <button type="button" className="service-chat-button" onClick={() => void chat.resume().catch(() => undefined)}>
        {labels.retry}
      </button>
    </div>
  );
}

/** Send, or Stop in its place while an answer runs (internal to the stock composer). */
function SendOrStop() {
  const { running } = useChatComposer();
  return running ? <ChatComposerStop /> : <ChatComposerSend />;
}

/**
 * The stock composer, built from the composer parts: a failed answer's error with Retry, then one
 * rounded field with Send (Stop while an answer runs) inside it. Its root is `ChatComposerRoot`'s
 * form (`data-part="composer"`), which gets the ref and other props.
 */
export const ChatComposer = /*#__PURE__*/ named(
  /*#__PURE__*/ forwardRef<HTMLFormElement, ChatComposerProps>(function ChatComposer(
    { autoFocus = false, ...props },
    ref,
  ) {
    return (
      <ChatComposerRoot ref={ref} {...props}>
        <ComposerError />
        <div className="service-chat-field">
          <ChatComposerInput autoFocus={autoFocus} />
          <SendOrStop />
        </div>
      </ChatComposerRoot>
    );
  }),
  'ChatComposer',
);
