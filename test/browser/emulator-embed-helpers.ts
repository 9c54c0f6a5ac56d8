/**
 * Helpers of the emulator embed tests: open a real embed page of the emulator (another origin
 * than the test page) in an iframe, through the library's own embed channel and URL builder, and
 * record what it posts.
 */
import { afterEach, expect, inject } from 'vitest';
import { commands, page } from 'vitest/browser';
import { createEmbedChannel, type EmbedChannel, type EmbedRejection } from '../../src/core/embed-channel';
import { buildEmbedUrl, type BuildEmbedUrlOptions } from '../../src/core/embed-url';
import { isEmbedEvent, type AnyEmbedEvent, type EmbedEvent, type EmbedEventType } from '../../src/core/protocol/embed';
import { ECHO_PARAMETER, STATE_EVENT_TYPE, type EmbedPageState } from '../../src/emulator/embed/config';

/** Options of the surface, without what {@link openEmbed} fills in. */
export type SurfaceOptions =
  | Omit<Extract<BuildEmbedUrlOptions, { surface: 'dashboard' }>, 'tenantUrl' | 'sessionId'>
  | Omit<Extract<BuildEmbedUrlOptions, { surface: 'app' }>, 'tenantUrl' | 'sessionId'>
  | Omit<Extract<BuildEmbedUrlOptions, { surface: 'chat' }>, 'tenantUrl' | 'sessionId'>;

/** An open embed. */
export interface OpenEmbed {
  iframe: HTMLIFrameElement;
  channel: EmbedChannel;
  /** Everything the channel delivered, in order (debug state events included). */
  events: AnyEmbedEvent[];
  rejections: EmbedRejection[];
  sessionId: string;
  url: string;
  /** Known events only, in order. */
  known(): EmbedEvent[];
  /** The next known event of `type` after the first `after` events that passes `test`. */
  next<T extends EmbedEventType>(
    type: T,
    test?: (event: Extract<EmbedEvent, { type: T }>) => boolean,
    after?: number,
  ): Promise<Extract<EmbedEvent, { type: T }>>;
  /** The first debug state (after the first `after` events) that passes `test`. */
  state(test: (state: EmbedPageState) => boolean, after?: number): Promise<EmbedPageState>;
  /** The latest debug state. */
  latest(): EmbedPageState | undefined;
  /** Locators inside the iframe (Playwright, across origins). */
  frame: ReturnType<typeof page.frameLocator>;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

let counter = 0;

/** Resolves when `find` returns something, re-checking on each delivered event. */
function waitFor<T>(
  events: AnyEmbedEvent[],
  listeners: Set<() => void>,
  find: () => T | undefined,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const found = find();
      if (found === undefined) return false;
      listeners.delete(check as () => void);
      clearTimeout(timer);
      resolve(found);
      return true;
    };
    const timer = setTimeout(() => {
      listeners.delete(check as () => void);
      reject(new Error(`timed out waiting for ${what}; got: ${events.map((event) => event.type).join(', ')}`));
    }, timeoutMs);
    if (!check()) listeners.add(check as () => void);
  });
}

/**
 * Mints a session over the emulator's HTTP API (a server-side command), builds the URL with
 * `buildEmbedUrl`, opens a channel with `createEmbedChannel`, then points a new iframe at it.
 */
export async function openEmbed(
  surface: SurfaceOptions,
  options: {
    /** Fields of the generate-session request (default: deployment 1, an external viewer). */
    session?: Record<string, unknown>;
    /** Make the session look minted this long ago. */
    ageMs?: number;
    /** Add `__emulatorEcho=1` (default `true`). */
    echo?: boolean;
    /** Use this session instead of minting one. */
    sessionId?: string;
    /** Appended to the query string. */
    extraQuery?: string;
    /** Build the address by hand (the newer `/embed/d/{deploymentId}/...` forms). */
    url?: (emulatorUrl: string, sessionId: string) => string;
    /**
     * Open it on the test file's own emulator on a manual clock (`commands.clockedEmulator`), with a
     * session minted there through a partner's session route (the viewer `renewal-viewer@acme.test`).
     */
    clocked?: boolean;
  } = {},
): Promise<OpenEmbed> {
  const emulatorUrl = options.clocked ? await commands.clockedEmulator() : inject('emulatorUrl');
  // Wide enough for the dashboard grid, and small enough that the runner never scales the test
  // frame (a scaled frame puts Playwright's clicks in the wrong place).
  await page.viewport(960, 640);
  const sessionId =
    options.sessionId ??
    (options.clocked ? await commands.mintClockedSession({ surface: surface.surface }) : undefined) ??
    (await commands.mintEmbedSession(
      { deploymentId: 1, externalId: 'viewer@partner.test', ...options.session },
      options.ageMs ? { ageMs: options.ageMs } : {},
    ));
  let url = options.url
    ? options.url(emulatorUrl, sessionId)
    : buildEmbedUrl({ ...surface, tenantUrl: emulatorUrl, sessionId } as BuildEmbedUrlOptions);
  if (options.echo !== false) url += `&${ECHO_PARAMETER}=1`;
  if (options.extraQuery) url += `&${options.extraQuery}`;

  const iframe = document.createElement('iframe');
  const testId = `embed-${++counter}`;
  iframe.dataset['testid'] = testId;
  iframe.title = 'Embedded analytics';
  iframe.style.width = '940px';
  iframe.style.height = '600px';
  iframe.style.border = '0';
  document.body.append(iframe);
  const events: AnyEmbedEvent[] = [];
  const rejections: EmbedRejection[] = [];
  const listeners = new Set<() => void>();
  const channel = createEmbedChannel({
    iframe,
    tenantUrl: emulatorUrl,
    onEvent(event) {
      events.push(event);
      for (const listener of [...listeners]) listener();
    },
    onRejected(rejection) {
      rejections.push(rejection);
    },
  });
  cleanups.push(() => {
    channel.dispose();
    iframe.remove();
  });
  iframe.src = url;

  const known = (): EmbedEvent[] => events.filter(isEmbedEvent);
  const states = (after: number): EmbedPageState[] =>
    events
      .slice(after)
      .filter((event) => event.type === STATE_EVENT_TYPE)
      .map((event) => event.payload as unknown as EmbedPageState);
  return {
    iframe,
    channel,
    events,
    rejections,
    sessionId,
    url,
    known,
    next(type, test = () => true, after = 0) {
      return waitFor(
        events,
        listeners,
        () =>
          events
            .slice(after)
            .find((event) => isEmbedEvent(event) && event.type === type && test(event as never)) as never,
        `event ${type}`,
      );
    },
    state(test, after = 0) {
      return waitFor(events, listeners, () => states(after).find(test), 'a matching x-emulator-state');
    },
    latest() {
      const all = states(0);
      return all[all.length - 1];
    },
    frame: page.frameLocator(page.getByTestId(testId)),
  };
}

/** Types of the known events so far, in order. */
export function typesOf(embed: OpenEmbed): string[] {
  return embed.known().map((event) => event.type);
}

/** Expects every event to carry the surface and a valid envelope (6.1). */
export function expectEnvelopes(embed: OpenEmbed, surface: string): void {
  for (const event of embed.events) {
    expect(event).toMatchObject({ source: 'service-embed', direction: 'event', surface });
    expect(typeof event.timestamp).toBe('number');
  }
  expect(embed.rejections).toEqual([]);
}
