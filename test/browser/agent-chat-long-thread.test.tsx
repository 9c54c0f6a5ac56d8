/**
 * A thread of 1,000 messages in real Chromium: it opens with the latest 50 in the page (earlier
 * ones on demand, the reading position kept), and an update late in it costs about what it costs
 * in a short thread (messages memoized, `content-visibility: auto` so only what is on screen is
 * laid out). Measured as ratios of the same work on 1,000 and on 20 messages.
 */
import { Profiler } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/styles.css';
import { AgentChat } from '../../src/components/chat';
import { createReplayFetch } from '../../src/testing';
import { longThreadTranscript } from '../helpers/transcripts';
import { TRANSCRIPTS } from '../../src/testing';
const revenueTranscript = TRANSCRIPTS['revenue-by-month'];

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

async function open(count: number) {
  const container = document.createElement('div');
  container.style.cssText = 'height: 600px; display: flex; flex-direction: column;';
  document.body.append(container);
  const root = createRoot(container);
  cleanups.push(() => {
    root.unmount();
    container.remove();
  });
  const chatId = `00000000-0000-4000-8000-${String(count).padStart(12, '0')}`;
  const thread = createReplayFetch({ transcript: longThreadTranscript(count, chatId), chunking: 'whole' });
  // A question asked in the thread streams the recorded answer in small chunks.
  // Its lines sort after the thread's, as the service numbers a thread's lines, so that the answer
  // streams into the newest messages, the ones in the page.
  // Paced, a chunk a frame or so: each delta gets a commit of its own, so the median is over dozens
  // of streaming commits, not the handful a burst batches into (where the one commit that draws
  // the table decided the median).
  const answer = createReplayFetch({
    transcript: after(revenueTranscript, count + 1),
    chunking: 256,
    delayMs: 20,
  });
  const fake = {
    fetch: ((input, init) =>
      (String(init?.body).includes('"input"') ? answer.fetch : thread.fetch)(input, init)) as typeof fetch,
  };
  const durations: number[] = [];
  const started = performance.now();
  flushSync(() =>
    root.render(
      <Profiler id="chat" onRender={(_id, _phase, duration) => durations.push(duration)}>
        <AgentChat url="/recorded" fetch={fake.fetch} chatId={chatId} />
      </Profiler>,
    ),
  );
  // The read ends `ready`: the reader hands a long body over in slices (it yields every few
  // milliseconds), so the list shows the latest 50 of a part of the thread before that.
  await vi.waitFor(
    () => {
      expect(container.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('ready');
      expect(container.querySelectorAll('[data-part="message"]')).toHaveLength(Math.min(count, 50));
    },
    { timeout: 20_000 },
  );
  return { container, durations, openMs: performance.now() - started };
}

const QUESTION = 'Show revenue by month in 2025';
/** The end of the recorded answer's text. */
const ANSWER_END = 'the table has every month.';

/** `transcript` with every line's `sort` moved on by `offset`. */
function after(transcript: string, offset: number): string {
  return transcript
    .trim()
    .split('\n')
    .map((line) => {
      const parsed = JSON.parse(line) as { sort?: number };
      return JSON.stringify(parsed.sort === undefined ? parsed : { ...parsed, sort: parsed.sort + offset });
    })
    .join('\n')
    .concat('\n');
}

/** Median React commit time (ms) while the recorded answer streams into a thread of `count` messages. */
async function streamingCommitMs(count: number): Promise<number> {
  const { container, durations } = await open(count);
  const textbox = container.querySelector<HTMLTextAreaElement>('textarea')!;
  durations.length = 0;
  const form = container.querySelector('form')!;
  flushSync(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
    setter.call(textbox, QUESTION);
    textbox.dispatchEvent(new Event('input', { bubbles: true }));
  });
  durations.length = 0;
  form.requestSubmit();
  // Ready again with the whole answer last, not still ready before the question went out (the
  // chat tells React at most once a frame).
  await vi.waitFor(
    () => {
      expect(container.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('ready');
      expect([...container.querySelectorAll('[data-part="message"]')].at(-1)?.textContent).toContain(ANSWER_END);
    },
    { timeout: 20_000 },
  );
  expect(durations.length).toBeGreaterThanOrEqual(20);
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

describe('a long thread', () => {
  it('1,000 messages open at the newest; earlier ones come on demand without moving what the user reads', async () => {
    const { container, openMs } = await open(1000);
    const log = container.querySelector<HTMLElement>('[role="log"]')!;
    await vi.waitFor(() => expect(log.scrollTop + log.clientHeight).toBeGreaterThanOrEqual(log.scrollHeight - 30), {
      timeout: 10_000,
    });
    const first = container.querySelector<HTMLElement>('[data-part="message"]')!;
    expect(getComputedStyle(first).contentVisibility).toBe('auto');
    expect(first.textContent).toMatch(/Question 476:/);
    const earlier = container.querySelector<HTMLButtonElement>('[data-part="show-earlier"]')!;
    expect(earlier.textContent).toBe('Show earlier messages (950)');
    log.scrollTop = 0;
    const top = first.getBoundingClientRect().top;
    earlier.click();
    expect(container.querySelectorAll('[data-part="message"]')).toHaveLength(100);
    // The message that was first is where it was: the earlier ones went in above it.
    expect(Math.abs(first.getBoundingClientRect().top - top)).toBeLessThan(2);
    console.info(`1,000 messages opened in ${openMs.toFixed(0)} ms`);
  });

  it('a streamed answer costs React about as much per commit after 1,000 messages as after 20 (ratio of medians ≤ 3)', async () => {
    // Warm up (JIT, styles), then measure each size; the better of two rounds absorbs a noisy neighbour.
    await streamingCommitMs(20);
    const short = Math.min(await streamingCommitMs(20), await streamingCommitMs(20));
    const long = Math.min(await streamingCommitMs(1000), await streamingCommitMs(1000));
    // Both floored at 0.5 ms: Chromium rounds performance.now() to 0.1 ms, so medians of 0.1 and
    // 0.4 ms are timer steps, not a trend (a ratio of 4 once failed that way). The floor forgives
    // only what is under a thirtieth of a frame; a commit that grows with the thread still fails.
    const floor = 0.5;
    const ratio = Math.max(long, floor) / Math.max(short, floor);
    console.info(
      `median commit while streaming: ${short.toFixed(2)} ms after 20 messages, ${long.toFixed(2)} ms after 1,000 (ratio ${ratio.toFixed(2)})`,
    );
    expect(ratio).toBeLessThanOrEqual(3);
  }, 90_000);
});
