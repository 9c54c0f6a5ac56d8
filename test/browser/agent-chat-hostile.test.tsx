/**
 * A hostile agent answer through the whole chat in real Chromium: tool names that are members of
 * `Object.prototype` render the generic tool view, and a flood of tiny deltas in one network
 * chunk never blocks the main thread for long (no long task) while its text arrives whole.
 */
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../src/styles.css';
import { AgentChat } from '../../src/components/chat';
import { createReplayFetch } from '../../src/testing';
import { hostileToolTranscript, hostileToolViewProblems } from '../helpers/hostile-corpus';

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
