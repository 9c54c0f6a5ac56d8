/**
 * The host side of embed messaging (protocol 6.1 to 6.3; behaviour 2): receives
 * events from one embed iframe and sends it actions, trusting nothing it should not.
 *
 * @module
 */
import { tenantOrigin } from './embed-url';
import { ServiceConfigError, ServiceValidationError } from './errors';
import { isRecord, problem } from './protocol/shared';
import {
  createEmbedAction,
  parseEmbedAction,
  parseEmbedEvent,
  type AnyEmbedEvent,
  type EmbedAction,
  type EmbedActionInit,
} from './protocol/embed';

/** A message from the channel's iframe that was not delivered, and why. For diagnostics. */
export interface EmbedRejection {
  /** What was wrong, one entry per problem (wrong origin, not a `service-embed` message, bad payload...). */
  problems: string[];
  /** The `origin` of the message. */
  origin: string;
  /** The message's `data`, as received. */
  data: unknown;
}

/**
 * An iframe element: `HTMLIFrameElement` wherever the DOM library is loaded (every browser
 * project). Spelled through `globalThis` so that core's declarations also type-check where it is
 * not (a Node server that imports core, the server or the emulator entry, checked with
 * `skipLibCheck: false`); there no iframe exists and this is `never`.
 */
export type EmbedIframe = typeof globalThis extends {
  /** The DOM library's iframe constructor. */
  HTMLIFrameElement: {
    /** Its prototype, typed as the element itself. */
    prototype: infer Element;
  };
}
  ? Element
  : never;

/** Options of {@link createEmbedChannel}. */
export interface EmbedChannelOptions {
  /**
   * The embed iframe. Create the channel before giving the iframe its `src`, so its `ready`
   * cannot arrive before the channel listens.
   */
  iframe: EmbedIframe;
  /** The tenant host `{base_url}`; its origin is the only one trusted and the target of every action. */
  tenantUrl: string;
  /**
   * Receives every event from the iframe that passed the checks of 6.1: known events, and events
   * of types this version does not know (`UnknownEmbedEvent`: valid envelope, untyped payload),
   * which are passed through rather than dropped. Narrow with `isEmbedEvent` before switching on
   * `type`. Declared as a method so that a handler typed `(event: EmbedEvent) => void` is
   * accepted too; it still receives unknown events.
   */
  onEvent(event: AnyEmbedEvent): void;
  /**
   * Receives each message from the iframe's window that was not delivered, with the reason: a
   * wrong origin (usually a `tenantUrl` that differs from the iframe's host), a message that is
   * not `service-embed`, an action, or a malformed payload. Messages from other windows are
   * ignored without a report. Optional; meant for development diagnostics.
   */
  onRejected?(rejection: EmbedRejection): void;
}

/** A channel to one embed iframe, returned by {@link createEmbedChannel}. */
export interface EmbedChannel {
  /**
   * Sends an action: a complete {@link EmbedAction} or just `{ type, payload }`, which is stamped
   * like `createEmbedAction` does. Until the iframe's current document has sent `ready`, actions
   * wait in a queue and go out in order right after it. After `dispose()`, does nothing.
   * @throws {ServiceValidationError} when the action is not a valid action of a known type.
   */
  send(action: EmbedAction | EmbedActionInit): void;
  /** Stops listening and drops queued actions. Safe to call more than once. */
  dispose(): void;
  /** True once the iframe's current document has sent `ready` (and until its `src` changes). */
  readonly isReady: boolean;
}

/**
 * Opens a channel to an embed iframe (6.1). An event reaches `onEvent` only when it comes from
 * this iframe's window (`event.source`), from the tenant origin (`event.origin`), with
 * `source: 'service-embed'`, `direction: 'event'` and a valid payload. Actions are posted to the
 * iframe's `contentWindow` with the tenant origin as target origin, never `*`, so a document of
 * any other origin in the iframe never sees them.
 *
 * Readiness (behaviour 2): actions sent before the iframe's document has sent `ready`
 * are queued, then flushed in order right after `ready` is delivered. Changing the iframe's
 * `src` or `srcdoc` (a new load, which needs a new session) or moving it in the DOM (a new
 * window) makes the channel wait for the new document's `ready`. It does not reset on the
 * iframe's `load` event, which may fire after the new document has already sent `ready`. A second
 * `ready` from the same document is delivered and flushes anything queued.
 * @throws {ServiceConfigError} when `tenantUrl` is not https (or http on loopback), or the iframe has no window.
 */
export function createEmbedChannel(options: EmbedChannelOptions): EmbedChannel {
  const { iframe } = options;
  const origin = tenantOrigin(options.tenantUrl);
  const view = iframe.ownerDocument.defaultView;
  if (!view) {
    throw new ServiceConfigError(
      process.env.NODE_ENV !== 'production' ? 'createEmbedChannel: the iframe has no window' : 'iframe',
    );
  }

  let queue: EmbedAction[] = [];
  let disposed = false;
  // Readiness belongs to a window and a load: `null` until that window's document sends `ready`.
  let readyWindow: Window | null = null;

  const observer = new MutationObserver(() => {
    readyWindow = null;
  });
  observer.observe(iframe, { attributes: true, attributeFilter: ['src', 'srcdoc'] });

  const isReady = (): boolean => {
    // A `src` set earlier in this same task has not reached the observer's callback yet.
    if (observer.takeRecords().length) readyWindow = null;
    return readyWindow !== null && readyWindow === iframe.contentWindow;
  };

  const flush = (): void => {
    while (!disposed && queue.length && isReady()) readyWindow!.postMessage(queue.shift(), origin);
  };

  const onMessage = (event: MessageEvent): void => {
    const window = iframe.contentWindow;
    // Other windows' messages (sibling iframes, the page itself, extensions) are none of ours.
    if (disposed || !window || event.source !== window) return;
    const rejected = (problems: string[]): void =>
      options.onRejected?.({ problems, origin: event.origin, data: event.data });
    if (event.origin !== origin) {
      rejected([
        problem(
          'origin',
          process.env.NODE_ENV !== 'production' &&
            `${event.origin} is not the tenant origin ${origin} (check tenantUrl)`,
        ),
      ]);
      return;
    }
    const result = parseEmbedEvent(event.data);
    if (result.kind === 'invalid') {
      rejected(result.problems);
      return;
    }
    const isReadyEvent = result.kind === 'known' && result.message.type === 'service:event:ready';
    if (isReadyEvent) readyWindow = window;
    try {
      options.onEvent(result.message);
    } finally {
      // Even when the listener throws: the queue must not hang on a host bug.
      if (isReadyEvent) flush();
    }
  };
  view.addEventListener('message', onMessage);

  return {
    send(action) {
      const message: unknown = isRecord(action) && !('source' in action) ? createEmbedAction(action) : action;
      const result = parseEmbedAction(message);
      if (result.kind !== 'known') {
        const problems =
          result.kind === 'invalid'
            ? result.problems
            : [problem('type', process.env.NODE_ENV !== 'production' && `"${result.message.type}" is not an action`)];
        throw new ServiceValidationError(problems);
      }
      if (disposed) return;
      // Cloned now, so later changes to the caller's object never reach a queued action, and a
      // payload that cannot be posted fails here rather than at flush time.
      let snapshot: EmbedAction;
      try {
        snapshot = structuredClone(result.message);
      } catch (cause) {
        throw new ServiceValidationError(
          [problem('payload', process.env.NODE_ENV !== 'production' && 'must be plain data')],
          { cause },
        );
      }
      queue.push(snapshot);
      // Queued first then flushed, so order holds even when sent from inside a `ready` listener.
      flush();
    },
    dispose() {
      disposed = true;
      queue = [];
      view.removeEventListener('message', onMessage);
      observer.disconnect();
    },
    get isReady() {
      return !disposed && isReady();
    },
  };
}
