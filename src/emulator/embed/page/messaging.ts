/**
 * The embed's side of embed messaging (protocol 6.1 to 6.3): events go to the embedding
 * page's origin only, actions are taken only from the embedding window.
 *
 * Which origin is "the embedding page's"? The page learns it from the browser, not from anything
 * the URL could claim: `location.ancestorOrigins[0]` where the browser has it (Chromium, Safari;
 * it cannot be hidden by a referrer policy), else the origin of `document.referrer` (the parent's
 * address when the iframe was loaded; Firefox). With neither (a parent that sends no referrer,
 * an opaque `null` origin) the page posts nothing at all rather than guess or use `*`, and says
 * so on screen. A top-level page (not in an iframe) has no parent to talk to.
 *
 * @module
 */
import {
  EMBED_SOURCE,
  createEmbedEvent,
  parseEmbedAction,
  type EmbedAction,
  type EmbedEventInit,
  type Surface,
} from '../../../core/protocol/embed';

/** The origin of the window that embeds this page, or `null` when it cannot be known. */
export function findParentOrigin(): string | null {
  if (window.parent === window) return null;
  const ancestors = location.ancestorOrigins as DOMStringList | undefined;
  const fromAncestors = ancestors && ancestors.length > 0 ? ancestors.item(0) : null;
  if (fromAncestors && fromAncestors !== 'null') return fromAncestors;
  if (document.referrer) {
    try {
      const origin = new URL(document.referrer).origin;
      if (origin !== 'null') return origin;
    } catch {
      // An unparsable referrer names no origin.
    }
  }
  return null;
}

/** Posts events to the embedding page and receives its actions. */
export interface Messenger {
  /** The target of every event; `null` when no event can be sent. */
  readonly parentOrigin: string | null;
  /** Posts a known event of this surface, built with `createEmbedEvent`. */
  post(init: EmbedEventInit): void;
  /**
   * Posts an event of a type the interface does not define (the emulator's debug event). Same
   * envelope and target as {@link post}.
   */
  postUnknown(type: `service:event:${string}`, payload: Record<string, unknown>): void;
  /** Calls `listener` with every valid action of a known type from the embedding window. */
  onAction(listener: (action: EmbedAction) => void): void;
}

/** Creates the page's messenger for `surface`. */
export function createMessenger(surface: Surface): Messenger {
  const parentOrigin = findParentOrigin();
  const send = (message: unknown): void => {
    if (parentOrigin === null) return;
    window.parent.postMessage(message, parentOrigin);
  };
  return {
    parentOrigin,
    post(init) {
      send(createEmbedEvent(init));
    },
    postUnknown(type, payload) {
      send({ source: EMBED_SOURCE, direction: 'event', type, payload, timestamp: Date.now(), surface });
    },
    onAction(listener) {
      window.addEventListener('message', (event: MessageEvent) => {
        // Only the embedding window, from the embedding origin: not our own window, not a child
        // frame, not a sibling, not a page that took the parent's place.
        if (parentOrigin === null || event.source !== window.parent || event.origin !== parentOrigin) return;
        const result = parseEmbedAction(event.data);
        if (result.kind === 'known') listener(result.message);
        // Unknown actions are ignored, so a newer host never breaks this page (6.3); invalid ones of
        // this protocol are worth a word to whoever debugs the host.
        else if (
          result.kind === 'invalid' &&
          typeof event.data === 'object' &&
          event.data !== null &&
          (event.data as { source?: unknown }).source === EMBED_SOURCE
        ) {
          console.warn('[service-emulator] ignored an invalid action:', result.problems.join('; '));
        }
      });
    },
  };
}
