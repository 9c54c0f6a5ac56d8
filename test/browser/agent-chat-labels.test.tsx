/**
 * A translated AgentChat says nothing in English: its `labels` reach every view nested in it (the
 * tool steps, the SQL view, the table, the chart, the markdown, the actions), so a full answer with
 * SQL, a chart and a table shows no default string, in text or in accessible names.
 */
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../src/styles.css';
import { AgentChat, DEFAULT_AGENT_CHAT_LABELS, type AgentChatLabels } from '../../src/components/chat';
import { createReplayFetch, TRANSCRIPTS } from '../../src/testing';

let root: Root | undefined;
let host: HTMLElement | undefined;
afterEach(() => {
  root?.unmount();
  host?.remove();
});

/**
 * The argument every function label is called with, whatever it expects: a count (7), a text
 * ("7") and a number formatter at once.
 */
const ANY: unknown = Object.assign((value: unknown) => String(value), {
  toString: () => '7',
  valueOf: () => 7,
});
const call = (label: unknown) => (label as (...args: unknown[]) => string)(ANY, ANY, ANY, ANY);

/**
 * What the defaults say: each string label whole, and the words around the arguments of each
 * function label (at least six characters, so no common syllable counts).
 */
function defaultPhrases(): { whole: Set<string>; fragments: Set<string> } {
  const whole = new Set<string>();
  const fragments = new Set<string>();
  for (const value of Object.values(DEFAULT_AGENT_CHAT_LABELS) as unknown[]) {
    if (typeof value === 'string') {
      whole.add(value);
      if (value.length >= 6) fragments.add(value);
    } else if (typeof value === 'function') {
      for (const piece of call(value).split(/7/)) if (piece.trim().length >= 6) fragments.add(piece.trim());
    }
  }
  return { whole, fragments };
}

/** The marker a label becomes: its number among the keys, so no English word is in it. */
const KEYS = Object.keys(DEFAULT_AGENT_CHAT_LABELS);
const marker = (key: string) => `⟦${KEYS.indexOf(key)}⟧`;

/** Every label replaced: strings by their marker, functions by one that keeps the arguments. */
function translated(): AgentChatLabels {
  const labels: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(DEFAULT_AGENT_CHAT_LABELS)) {
    labels[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => `${marker(key)} ${args.filter((arg) => typeof arg !== 'function').join(' ')}`
        : marker(key);
  }
  return labels as unknown as AgentChatLabels;
}

/** Data areas: what the agent and the service said (answer text, cells, chart marks, SQL), not the UI's words. */
const DATA =
  '[data-part="markdown"], td, th, svg, pre, code, .service-result-sql-tool__title, .service-chat-step-detail';

/** The UI's own words: text outside the data areas, and the accessible names and hints of every element. */
function uiWords(container: HTMLElement): string[] {
  const words: string[] = [];
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text && !node.parentElement?.closest(DATA)) words.push(text);
  }
  for (const element of container.querySelectorAll('*')) {
    if (element.closest('svg')) continue;
    for (const name of ['aria-label', 'aria-description', 'aria-roledescription', 'title', 'placeholder', 'alt'])
      if (element.hasAttribute(name)) words.push(element.getAttribute(name)!);
  }
  return words;
}

function englishIn(container: HTMLElement): string[] {
  const { whole, fragments } = defaultPhrases();
  return uiWords(container).filter(
    (word) => whole.has(word) || [...fragments].some((fragment) => word.includes(fragment)),
  );
}

describe('a translated AgentChat', () => {
  it('shows no default English string in a full answer with SQL, chart and table', async () => {
    expect(call(DEFAULT_AGENT_CHAT_LABELS.showingRows)).toBe('Showing 7 of 7 rows');
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['revenue-by-month'], chunking: 512 });
    host = document.createElement('div');
    host.style.height = '900px';
    host.style.display = 'flex';
    host.style.flexDirection = 'column';
    document.body.append(host);
    const current = createRoot(host);
    root = current;
    flushSync(() =>
      current.render(
        <AgentChat
          url="/recorded"
          fetch={replay.fetch}
          labels={translated()}
          showThinking
          onFeedback={() => {}}
          followUps={() => ['Und nach Region?']}
          suggestions={['Umsatz nach Monat']}
        />,
      ),
    );
    const container = host;
    expect(englishIn(container)).toEqual([]);
    await userEvent.click(container.querySelector<HTMLElement>('[data-part="suggestion"]')!);
    await vi.waitFor(
      () => expect(container.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('ready'),
      { timeout: 20_000 },
    );
    const chart = container.querySelector<HTMLElement>('[data-part="chart"]')!;
    await vi.waitFor(() => expect(chart.dataset['state']).toBe('ready'), { timeout: 20_000 });
    // Every step opened, the answer rated: every string the chat can show is on the page.
    for (const toggle of container.querySelectorAll<HTMLElement>('button[aria-expanded="false"]'))
      await userEvent.click(toggle);
    for (const thinking of container.querySelectorAll<HTMLElement>('[data-part="thinking"] summary'))
      await userEvent.click(thinking);
    await userEvent.click(container.querySelector<HTMLElement>('[data-action="helpful"]')!);
    expect(container.querySelector('[data-part="final-answer"]')).not.toBeNull();
    expect(container.querySelector('[data-part="suggestions"][data-kind="follow-up"]')).not.toBeNull();
    expect(englishIn(container)).toEqual([]);
    // And the table, instead of the chart.
    await userEvent.click(container.querySelector<HTMLElement>('[data-part="sql-tool"] button[aria-pressed="false"]')!);
    expect(container.querySelector('[data-part="result-table"] tbody tr')).not.toBeNull();
    expect(englishIn(container)).toEqual([]);
    // The markers are there: the labels did reach the nested views.
    const said = uiWords(container).join(' ');
    for (const key of ['toolSql', 'copySql', 'downloadCsv', 'table', 'helpful', 'send', 'log', 'allRows'])
      expect(said, key).toContain(marker(key));
  });
});
