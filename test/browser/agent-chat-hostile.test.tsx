/**
 * A hostile agent answer in real Chromium: tool names that are members of `Object.prototype`
 * render the generic tool view in `AgentChat`, and a flood of tiny deltas in one network chunk
 * never blocks the main thread for long (no long task) on its way to `useAgentChat`, while its
 * text arrives whole.
 */
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../src/styles.css';
import { AgentChat } from '../../src/components/chat';
import { useAgentChat, type UseAgentChatResult } from '../../src/react';
import { createReplayFetch } from '../../src/testing';
import { deltaFlood, hostileToolTranscript, hostileToolViewProblems } from '../helpers/hostile-corpus';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

function mount(): { host: HTMLElement; root: Root } {
  const host = document.createElement('div');
  host.style.cssText = 'height: 600px; display: flex; flex-direction: column;';
  document.body.append(host);
  const root = createRoot(host);
  cleanups.push(() => {
    root.unmount();
    host.remove();
  });
  return { host, root };
}

async function ask(host: HTMLElement, question: string): Promise<void> {
  await userEvent.type(host.querySelector<HTMLElement>('textarea')!, `${question}{Enter}`);
  await vi.waitFor(() => expect(host.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('ready'), {
    timeout: 60_000,
  });
}

describe('AgentChat with hostile tool names (real Chromium, through a stream)', () => {
  for (const tools of [undefined, { weatherTool: () => <p>weather</p> }]) {
    it(`every tool call renders the generic tool view, ${tools ? 'with' : 'without'} components.tools`, async () => {
      const replay = createReplayFetch({ transcript: hostileToolTranscript(), chunking: 'awkward' });
      const { host, root } = mount();
      flushSync(() =>
        root.render(<AgentChat url="/recorded" fetch={replay.fetch} {...(tools ? { components: { tools } } : {})} />),
      );
      await ask(host, 'Which tools?');
      expect(hostileToolViewProblems(host)).toEqual([]);
      expect(host.querySelector('[data-part="final-answer"]')?.textContent).toContain('Done.');
    });
  }
});

/** A `fetch` whose chat answer is `body` in one network chunk (prepared before, so no test work runs in the measured window). */
function oneChunk(body: Uint8Array): typeof fetch {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(body);
          controller.close();
        },
      }),
      { headers: { 'content-type': 'application/x-ndjson' } },
    );
}

/**
 * Collects the long tasks (over 50 ms) of the page from the next task until `stop()`. The task
 * that runs this call (a test's setup: building 100,000 lines) is not one of them.
 */
async function watchLongTasks(): Promise<{ stop(): number[] }> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  const durations: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) durations.push(Math.round(entry.duration));
  });
  observer.observe({ type: 'longtask' });
  return {
    stop() {
      for (const entry of observer.takeRecords()) durations.push(Math.round(entry.duration));
      observer.disconnect();
      return durations;
    },
  };
}

// Long tasks are wall-clock on a shared machine: a neighbour's burst once stretched one slice to
// 81 ms. Reading that does not yield makes tasks of seconds and fails every try.
describe('100,000 tiny deltas in one network chunk (real Chromium)', { retry: 2 }, () => {
  it('useAgentChat: no long task while they reach the store and React, and the text arrives whole', async () => {
    const flood = deltaFlood();
    const { host, root } = mount();
    let chat: UseAgentChatResult | undefined;
    // The length, not the text: laying out a 100,000-character line every frame is the page's
    // cost, not the stream's (a <pre> of it alone makes tasks of 60-150 ms on a busy machine).
    function Answer() {
      chat = useAgentChat({ url: '/recorded', fetch: oneChunk(flood.body) });
      return <output>{chat.finalAnswer?.content.length ?? 0}</output>;
    }
    flushSync(() => root.render(<Answer />));
    const longTasks = await watchLongTasks();
    await chat!.send('Flood me');
    await vi.waitFor(() => expect(chat!.status).toBe('ready'), { timeout: 60_000 });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(longTasks.stop()).toEqual([]);
    expect(chat!.finalAnswer?.content === flood.text).toBe(true);
    expect(host.querySelector('output')?.textContent).toBe(String(flood.text.length));
  });
});
