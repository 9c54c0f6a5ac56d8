/**
 * Who may drive an embed (protocol 6.1, 6.3), in real Chromium across real origins: the
 * test page (`http://localhost:<port>`) embeds a dashboard of the emulator (`http://127.0.0.1:<port>`),
 * and the page's debug state event (`__emulatorEcho=1`) reports what it applied.
 *
 * The embed must apply an action only when it comes from the window that embeds it, from that
 * window's origin, with a valid action envelope. A message that is not applied leaves no trace, so
 * each "no effect" case posts the ignored message first and then a harmless action from the
 * parent (`set-locale`) as an ordering barrier: by the time the barrier's echo arrives the ignored
 * message was delivered before it, and the state must still show the old value. Each case ends
 * with the same action from the parent taking effect, so the message itself was never the reason
 * it was ignored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STATE_EVENT_TYPE } from '../../src/emulator/embed/config';
import { openEmbed, type OpenEmbed } from './emulator-embed-helpers';

/** A complete, valid `set-color-scheme` action (6.1 envelope: no `surface` on actions). */
function darkAction(): Record<string, unknown> {
  return {
    source: 'service-embed',
    direction: 'action',
    type: 'service:action:set-color-scheme',
    payload: { scheme: 'dark' },
    timestamp: Date.now(),
  };
}

/** Opens sales-overview with the echo and waits until every widget has rendered. */
async function loaded(): Promise<OpenEmbed> {
  const embed = await openEmbed({ surface: 'dashboard', publicId: 'sales-overview' });
  await embed.next('service:event:dashboard-loaded');
  expect(embed.latest()).toMatchObject({ colorScheme: 'light', appliedScheme: 'light', locale: 'en-US' });
  return embed;
}

/** Reasons of the state events after the first `mark` events. */
function reasonsAfter(embed: OpenEmbed, mark: number): string[] {
  return embed.events
    .slice(mark)
    .filter((event) => event.type === STATE_EVENT_TYPE)
    .map((event) => (event.payload as { reason: string }).reason);
}

/**
 * Sends `set-locale` from the parent and resolves with the state it echoes: every message posted
 * to the embed before it has been handled by then.
 */
async function barrier(embed: OpenEmbed, mark: number, locale: string) {
  embed.channel.send({ type: 'service:action:set-locale', payload: { locale } });
  return embed.state((state) => state.reason === 'service:action:set-locale' && state.locale === locale, mark);
}

/** Index of `target` in this window's `frames`, as another frame sees it through `parent.frames`. */
function frameIndexOf(target: Window): number {
  for (let index = 0; index < window.frames.length; index += 1) {
    if (window.frames[index] === target) return index;
  }
  throw new Error('the embed is not a frame of the test page');
}

/**
 * A script for a sibling iframe on the test page's own origin: on request from the parent it posts
 * `message` to `parent.frames[index]` (the embed) itself, then tells the parent it has. The post
 * happens in the sibling's own task, so the embed sees the sibling, not the parent, as its source.
 */
const SIBLING_SCRIPT = `
addEventListener('message', (event) => {
  if (event.source !== parent || event.origin !== self.origin) return;
  const { id, index, message, targetOrigin } = event.data;
  parent.frames[index].postMessage(message, targetOrigin);
  parent.postMessage({ siblingPosted: id }, self.origin);
});
`;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** Adds a same-origin sibling iframe running {@link SIBLING_SCRIPT} and waits until it has loaded. */
async function addSibling(): Promise<HTMLIFrameElement> {
  const sibling = document.createElement('iframe');
  sibling.title = 'Another frame of the host page';
  sibling.srcdoc = `<!doctype html><title>sibling</title><script>${SIBLING_SCRIPT}</script>`;
  const loaded = new Promise<void>((resolve) => sibling.addEventListener('load', () => resolve(), { once: true }));
  document.body.append(sibling);
  cleanups.push(() => sibling.remove());
  await loaded;
  return sibling;
}

let postCounter = 0;

/** Has `sibling` post `message` to the embed with `targetOrigin`; resolves once it has posted. */
function postFromSibling(
  sibling: HTMLIFrameElement,
  embed: OpenEmbed,
  message: unknown,
  targetOrigin: string,
): Promise<void> {
  const id = ++postCounter;
  const siblingWindow = sibling.contentWindow!;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      removeEventListener('message', onMessage);
      reject(new Error('the sibling frame never confirmed its post'));
    }, 15_000);
    function onMessage(event: MessageEvent): void {
      if (event.source !== siblingWindow || event.origin !== location.origin) return;
      if ((event.data as { siblingPosted?: unknown } | null)?.siblingPosted !== id) return;
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      resolve();
    }
    addEventListener('message', onMessage);
    siblingWindow.postMessage(
      { id, index: frameIndexOf(embed.iframe.contentWindow!), message, targetOrigin },
      location.origin,
    );
  });
}

describe('actions only from the embedding window, with a valid envelope (6.1, 6.3)', () => {
  it('6.3: a valid action posted by the parent, through the channel or by hand to contentWindow, takes effect', async () => {
    const embed = await loaded();
    const emulatorOrigin = new URL(embed.url).origin;

    let mark = embed.events.length;
    embed.channel.send({ type: 'service:action:set-locale', payload: { locale: 'de-DE' } });
    expect(await embed.state((state) => state.reason === 'service:action:set-locale', mark)).toMatchObject({
      locale: 'de-DE',
      lang: 'de-DE',
    });

    // The hand-built envelope the other cases use is itself valid when the parent posts it.
    mark = embed.events.length;
    embed.iframe.contentWindow!.postMessage(darkAction(), emulatorOrigin);
    expect(await embed.state((state) => state.reason === 'service:action:set-color-scheme', mark)).toMatchObject({
      colorScheme: 'dark',
      appliedScheme: 'dark',
    });
    expect(embed.rejections).toEqual([]);
  });

  it('6.1: the same action posted to the embed by a sibling frame of the parent origin has no effect', async () => {
    const embed = await loaded();
    const emulatorOrigin = new URL(embed.url).origin;
    const sibling = await addSibling();
    // The sibling really addresses the embed: `parent.frames[index]` is the embed's window.
    expect(sibling.contentWindow!.parent.frames[frameIndexOf(embed.iframe.contentWindow!)]).toBe(
      embed.iframe.contentWindow,
    );

    const mark = embed.events.length;
    // Same origin as the parent, another window: only the check of `event.source` stops it.
    await postFromSibling(sibling, embed, darkAction(), emulatorOrigin);
    // The sibling posted before it confirmed, and the barrier is sent after the confirmation; both
    // come from the same site, so the embed receives them in that order.
    const after = await barrier(embed, mark, 'de-DE');
    expect(after).toMatchObject({ colorScheme: 'light', appliedScheme: 'light', locale: 'de-DE' });
    expect(reasonsAfter(embed, mark)).toEqual(['service:action:set-locale']);

    // From the parent, the very same message works.
    const parentMark = embed.events.length;
    embed.iframe.contentWindow!.postMessage(darkAction(), emulatorOrigin);
    expect(await embed.state((state) => state.reason === 'service:action:set-color-scheme', parentMark)).toMatchObject({
      colorScheme: 'dark',
      appliedScheme: 'dark',
    });
  });

  it('6.1: from the parent, direction event, a wrong or missing source, or no direction has no effect', async () => {
    const embed = await loaded();
    const emulatorOrigin = new URL(embed.url).origin;
    const valid = darkAction();
    const { source: _source, ...withoutSource } = valid;
    const { direction: _direction, ...withoutDirection } = valid;

    const mark = embed.events.length;
    for (const message of [
      { ...valid, direction: 'event' },
      { ...valid, source: 'other-embed' },
      { ...valid, source: 'Service-Embed' },
      withoutSource,
      withoutDirection,
    ]) {
      embed.iframe.contentWindow!.postMessage(message, emulatorOrigin);
    }
    const after = await barrier(embed, mark, 'de-DE');
    expect(after).toMatchObject({ colorScheme: 'light', appliedScheme: 'light', locale: 'de-DE' });
    expect(reasonsAfter(embed, mark)).toEqual(['service:action:set-locale']);

    const validMark = embed.events.length;
    embed.iframe.contentWindow!.postMessage(valid, emulatorOrigin);
    expect(await embed.state((state) => state.reason === 'service:action:set-color-scheme', validMark)).toMatchObject({
      colorScheme: 'dark',
      appliedScheme: 'dark',
    });
  });
});
