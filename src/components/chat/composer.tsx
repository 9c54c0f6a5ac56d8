/**
 * `ChatComposer`: the question box. Enter sends, Shift+Enter adds a line, Escape (or the Stop
 * button, shown instead of Send while an answer runs) stops the agent. A failed answer shows its
 * error with a Retry button.
 *
 * @module
 */
import { forwardRef, useId, useRef, type ComponentPropsWithoutRef, type FormEvent, type KeyboardEvent } from 'react';
import { isRunning } from '../../core/agent-chat';
import { useControllableState } from '../../react/use-controllable-state';
import { composeEventHandlers, cx } from './compose';
import { useAgentChatConfig, useAgentChatState } from './context';

/** Props of {@link ChatComposer}. */
export interface ChatComposerProps extends Omit<ComponentPropsWithoutRef<'form'>, 'onSubmit'> {
  /** Disables typing and sending (for example while the host is signing the user in). Default `false`. */
  disabled?: boolean;
  /** Focuses the textbox on mount. Default `false`. */
  autoFocus?: boolean;
  /** Called before a question is sent; `preventDefault()` on the event stops it. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
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
 * The composer: `data-part="composer"`, `data-state` `idle`, `running`, `error` or `disabled`;
 * a textbox named "Ask a question", buttons named "Send" and "Stop" (all from `labels`).
 */
export const ChatComposer = /*#__PURE__*/ forwardRef<HTMLFormElement, ChatComposerProps>(function ChatComposer(
  {
    disabled = false,
    autoFocus = false,
    className,
    onSubmit,
    onKeyDown,
    input: inputProp,
    defaultInput = '',
    onInputChange,
    ...props
  },
  ref,
) {
  const chat = useAgentChatState('ChatComposer');
  const { labels } = useAgentChatConfig('ChatComposer');
  const [value, setValue] = useControllableState({
    prop: inputProp,
    defaultProp: defaultInput,
    onChange: onInputChange,
    name: 'ChatComposer input',
  });
  const input = useRef<HTMLTextAreaElement>(null);
  const errorId = useId();
  const running = isRunning(chat.status);
  const failed = chat.status === 'error';

  const send = () => {
    const text = value.trim();
    if (!text || running || disabled) return;
    setValue('');
    // Refusals cannot happen here (the button is hidden while running); failures are in `chat.error`.
    chat.send(text).catch(() => undefined);
  };

  const stop = () => {
    // A refused abort shows as the chat's `error` status; nothing to await here.
    void chat.abort();
    input.current?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Escape' && running) {
      event.preventDefault();
      stop();
    } else if (
      event.key === 'Enter' &&
      !event.shiftKey &&
      !event.nativeEvent.isComposing &&
      event.target === input.current
    ) {
      event.preventDefault();
      // Through the form's submit event, so the host's `onSubmit` sees (and may cancel) Enter too.
      event.currentTarget.requestSubmit();
    }
  };

  return (
    <form
      ref={ref}
      data-part="composer"
      data-state={disabled ? 'disabled' : running ? 'running' : failed ? 'error' : 'idle'}
      className={cx('service-chat-composer', className)}
      onSubmit={composeEventHandlers(onSubmit, (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        send();
      })}
      onKeyDown={composeEventHandlers(onKeyDown, handleKeyDown)}
      {...props}
    >
      {failed && (
        <div role="alert" id={errorId} className="service-chat-error" data-part="error">
          <p>
            <strong>{labels.error}</strong> {chat.error?.message}
          </p>
          <button
            type="button"
            className="service-chat-button"
            onClick={() => void chat.resume().catch(() => undefined)}
          >
            {labels.retry}
          </button>
        </div>
      )}
      <div className="service-chat-row">
        <textarea
          ref={input}
          name="question"
          rows={1}
          aria-label={labels.input}
          aria-describedby={failed ? errorId : undefined}
          placeholder={labels.placeholder}
          value={value}
          disabled={disabled}
          autoFocus={autoFocus}
          onChange={(event) => setValue(event.target.value)}
          className="service-chat-input"
        />
        {running ? (
          <button type="button" className="service-chat-button" data-part="stop" onClick={stop}>
            {labels.stop}
          </button>
        ) : (
          <button
            type="submit"
            className="service-chat-button service-chat-primary"
            data-part="send"
            disabled={disabled || value.trim() === ''}
          >
            {labels.send}
          </button>
        )}
      </div>
    </form>
  );
});
