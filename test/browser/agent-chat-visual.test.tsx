/**
 * The chat's look, compared with committed baselines in real Chromium (vitest's
 * `toMatchScreenshot`, pixelmatch with a tolerance), so it cannot regress silently: empty,
 * streaming, a tool step closed and open, an answer with a chart and one with a table, stopped,
 * failed, dark, and 375 px wide. Answers are recorded transcripts, so every run shows the same.
 *
 * A change of the look is deliberate when the baselines change with it: look at the new images
 * (`test/browser/__screenshots__/agent-chat-visual.test.tsx/`), then run this file with `-u`.
 */
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { commands, page, userEvent } from 'vitest/browser';
import '../../src/styles.css';
import { AgentChat } from '../../src/components/chat';
import { createAgentChat, type AgentChatController } from '../../src/core/agent-chat';
import { createChatClient } from '../../src/core/chat-client';
import { createReplayFetch, TRANSCRIPTS, type ReplayFetchOptions } from '../../src/testing';

const SCREENSHOT = {
  comparatorName: 'pixelmatch' as const,
  // Anti-aliasing and font hinting vary a little between runs; a moved part changes far more.
  comparatorOptions: { threshold: 0.2, allowedMismatchedPixelRatio: 0.01 },
  screenshotOptions: { animations: 'disabled' as const, caret: 'hide' as const },
};

let root: Root | undefined;
let host: HTMLElement | undefined;

beforeAll(() => {
  // Still frames: the dots, skeletons and spinners would make every screenshot differ.
  const style = document.createElement('style');
  style.textContent = '*, ::before, ::after { animation: none !important; transition: none !important; }';
  document.head.append(style);
});

afterEach(async () => {
  root?.unmount();
  host?.remove();
  await commands.emulateColorScheme('light');
});

interface Scene {
  transcript?: string;
  faults?: ReplayFetchOptions['faults'];
  width?: number;
  height?: number;
  theme?: 'light' | 'dark';
  suggestions?: readonly string[];
}

/** Mounts an AgentChat over a recorded transcript, in a frame of the given size; returns its controller. */
async function scene({
  transcript = TRANSCRIPTS['revenue-by-month'],
  faults,
  width = 720,
  height = 820,
  theme = 'light',
  suggestions,
}: Scene): Promise<{ chat: AgentChatController; frame: HTMLElement }> {
  await page.viewport(Math.max(width, 400) + 40, height + 40);
  await commands.emulateColorScheme(theme);
  const replay = createReplayFetch({ transcript, chunking: 'lines', ...(faults ? { faults } : {}) });
  const chat = createAgentChat({
    client: createChatClient({ url: '/recorded', fetch: replay.fetch, resubscribe: false }),
  });
  host = document.createElement('div');
  host.setAttribute('data-service-theme', theme);
  Object.assign(host.style, {
    width: `${width}px`,
    height: `${height}px`,
    display: 'flex',
    flexDirection: 'column',
    padding: '12px',
    boxSizing: 'border-box',
    background: 'var(--service-color-background)',
  });
  document.body.style.margin = '0';
  document.body.append(host);
  const current = createRoot(host);
  root = current;
  flushSync(() => current.render(<AgentChat chat={chat} suggestions={suggestions} onFeedback={() => {}} />));
  return { chat, frame: host };
}

const state = (frame: HTMLElement) => frame.querySelector('[data-part="chat"]')?.getAttribute('data-state');

/**
 * Waits until what is on screen has stopped changing by itself: the query steps' views have
 * loaded (no grey lines) and every chart is drawn. Both load on demand, later on a busy machine.
 */
async function drawn(frame: HTMLElement): Promise<void> {
  await vi.waitFor(() => expect(frame.querySelector('.service-chat-skeleton')).toBeNull(), { timeout: 20_000 });
  for (const chart of frame.querySelectorAll<HTMLElement>('[data-part="chart"]'))
    await vi.waitFor(() => expect(chart.dataset['state']).toBe('ready'), { timeout: 20_000 });
}

async function answered(frame: HTMLElement): Promise<void> {
  await vi.waitFor(() => expect(state(frame)).toBe('ready'), { timeout: 20_000 });
  await drawn(frame);
}

const shot = (frame: HTMLElement, name: string) =>
  expect.element(page.elementLocator(frame)).toMatchScreenshot(name, SCREENSHOT);

describe('the look of AgentChat', () => {
  it('empty, with suggestions', async () => {
    const { frame } = await scene({
      suggestions: ['Show revenue by month in 2025', 'Who are our top 10 customers?', 'Orders by status'],
    });
    await shot(frame, 'empty');
  });

  it('streaming: a query running, then the answer coming in', async () => {
    const { chat, frame } = await scene({ faults: { holdAfterLines: 28 } });
    void chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(frame.querySelector('[data-part="tool-call"][data-state="running"]')).not.toBeNull());
    await shot(frame, 'tool-running');
    await chat.abort();
    await vi.waitFor(() => expect(state(frame)).toBe('aborted'));
    await shot(frame, 'stopped');
  });

  it('streaming text', async () => {
    const { chat, frame } = await scene({ faults: { holdAfterLines: 37 } });
    void chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(frame.querySelector('[data-part="final-answer"]')).not.toBeNull());
    await drawn(frame);
    await shot(frame, 'streaming');
    await chat.abort();
  });

  it('an answer with a chart, its steps closed, then one open', async () => {
    const { chat, frame } = await scene({});
    await chat.send('Show revenue by month in 2025');
    await answered(frame);
    await shot(frame, 'answer-chart');
    const sqlStep = frame.querySelector<HTMLElement>('[data-tool="serviceSqlApi"] button[aria-expanded]')!;
    await userEvent.click(sqlStep);
    // The opened step loads its SQL view and highlighter on demand and grows; the list follows
    // growth while it sticks to the bottom. Scroll up once it stopped growing, so the shot shows
    // the step, not wherever the last resize left the list.
    const list = frame.querySelector<HTMLElement>('[data-part="message-list"]')!;
    await vi.waitFor(() => expect(frame.querySelector('[data-tool="serviceSqlApi"] [data-part="sql"]')).not.toBeNull());
    for (let last = -1; list.scrollHeight !== last;) {
      last = list.scrollHeight;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }
    list.scrollTop = 0;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    expect(list.scrollTop).toBe(0);
    await shot(frame, 'tool-step-open');
  });

  it('an answer with a table', async () => {
    const { chat, frame } = await scene({ transcript: TRANSCRIPTS['top-customers'] });
    await chat.send('Who are our top 10 customers?');
    await answered(frame);
    await userEvent.click(frame.querySelector<HTMLElement>('[data-part="sql-tool"] button[aria-pressed="false"]')!);
    await vi.waitFor(() => expect(frame.querySelector('[data-part="result-table"]')).not.toBeNull());
    await shot(frame, 'answer-table');
  });

  it('a failed answer', async () => {
    const { chat, frame } = await scene({ faults: { status: 503 } });
    await chat.send('Show revenue by month in 2025');
    await vi.waitFor(() => expect(state(frame)).toBe('error'));
    await shot(frame, 'error');
  });

  it('dark', async () => {
    const { chat, frame } = await scene({ theme: 'dark' });
    await chat.send('Show revenue by month in 2025');
    await answered(frame);
    await shot(frame, 'dark');
  });

  it('375 px wide', async () => {
    const { chat, frame } = await scene({ transcript: TRANSCRIPTS['top-customers'], width: 375, height: 760 });
    await chat.send('Who are our top 10 customers?');
    await answered(frame);
    await shot(frame, 'narrow');
  });
});
