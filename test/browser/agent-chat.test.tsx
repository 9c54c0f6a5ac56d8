/**
 * AgentChat and useAgentChat in real Chromium, against the emulator through the partner's chat
 * proxy route on the test page's origin (.storybook/service-routes.ts): send, stop (button and
 * Escape), a refused abort, reconnect, reload, StrictMode, keyboard, and React commits per frame
 * under a fast stream. Faults are injected with the emulator's `x-emulator-fault` header, which
 * the development backend passes on.
 */
import { Profiler, StrictMode, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { AgentChat, type AgentChatProps } from '../../src/components/chat';
import { ServiceProvider } from '../../src/react';
import { createReplayFetch } from '../../src/testing';
import { TRANSCRIPTS } from '../../src/testing';
const revenueTranscript = TRANSCRIPTS['revenue-by-month'];

const CHAT_URL = '/api/service';

const roots: { root: Root; container: HTMLElement }[] = [];
afterEach(() => {
  for (const { root, container } of roots.splice(0)) {
    root.unmount();
    container.remove();
  }
});

function mount(node: ReactNode): { container: HTMLElement; rerender(next: ReactNode): void; unmount(): void } {
  const container = document.createElement('div');
  container.style.height = '600px';
  container.style.display = 'flex';
  container.style.flexDirection = 'column';
  document.body.append(container);
  const root = createRoot(container);
  const entry = { root, container };
  roots.push(entry);
  flushSync(() => root.render(node));
  return {
    container,
    rerender: (next) => flushSync(() => root.render(next)),
    unmount: () => {
      root.unmount();
      roots.splice(roots.indexOf(entry), 1);
      container.remove();
    },
  };
}

/** A `fetch` that records the bodies it sends and adds `fault` to the first stream request. */
function recordingFetch(fault?: string, rewriteAbort?: (body: Record<string, unknown>) => Record<string, unknown>) {
  const requests: { path: string; body: Record<string, unknown> }[] = [];
  let faulted = false;
  const wrapped: typeof fetch = (input, init) => {
    const url = String(input);
    const path = url.endsWith('/chat/abort') ? 'abort' : 'stream';
    let body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    if (path === 'abort' && rewriteAbort) body = rewriteAbort(body);
    requests.push({ path, body });
    const headers = new Headers(init?.headers);
    if (fault && path === 'stream' && !faulted) {
      faulted = true;
      headers.set('x-emulator-fault', fault);
    }
    return fetch(input, { ...init, headers, body: JSON.stringify(body) });
  };
  return { fetch: wrapped, requests, streams: () => requests.filter((request) => request.path === 'stream') };
}

function chat(props: AgentChatProps = {}): ReactNode {
  return (
    <ServiceProvider chat={{ url: CHAT_URL }}>
      <AgentChat {...props} />
    </ServiceProvider>
  );
}

const q = <T extends Element = HTMLElement>(container: HTMLElement, selector: string) =>
  container.querySelector<T>(selector);
const textbox = (container: HTMLElement) => q<HTMLTextAreaElement>(container, 'textarea[aria-label="Ask a question"]')!;
const button = (container: HTMLElement, name: string) =>
  [...container.querySelectorAll('button')].find((candidate) => candidate.textContent === name);
const chatState = (container: HTMLElement) => q(container, '[data-part="chat"]')?.getAttribute('data-state');

async function ask(container: HTMLElement, question: string): Promise<void> {
  await userEvent.click(textbox(container));
  await userEvent.keyboard(question);
  await userEvent.keyboard('{Enter}');
}

describe('AgentChat against the emulator, through the chat proxy route', () => {
  it('Enter sends; the answer streams into a role="log" (busy meanwhile), the final answer stands out, one announcement', async () => {
    const transport = recordingFetch();
    const { container } = mount(chat({ fetch: transport.fetch, suggestions: ['Revenue by region'] }));
    expect(q(container, '[data-part="empty-state"]')).not.toBeNull();
    expect(button(container, 'Revenue by region')).toBeDefined();
    await ask(container, 'Who are our top 10 customers?');
    await vi.waitFor(() => expect(chatState(container)).toBe('ready'), { timeout: 10_000 });
    const log = q(container, '[role="log"]')!;
    expect(log.getAttribute('aria-label')).toBe('Conversation');
    expect(log.getAttribute('aria-busy')).toBe('false');
    expect(container.querySelectorAll('[data-part="message"][data-role="user"]')).toHaveLength(1);
    const final = q(container, '[data-part="message"][data-role="assistant"] [data-part="final-answer"]')!;
    expect(final.textContent).toMatch(/top 10 customers/);
    expect(container.querySelectorAll('[data-part="tool-call"][data-tool="serviceMeta"]')).toHaveLength(1);
    // The query's step, opened: its SQL.
    await userEvent.click(q(container, '[data-part="tool-call"][data-tool="serviceSqlApi"] > button')!);
    expect(q(container, '[data-part="tool-call"][data-tool="serviceSqlApi"] [data-part="sql"]')?.textContent).toMatch(
      /SELECT/i,
    );
    // Thinking is hidden unless asked for.
    expect(q(container, '[data-part="thinking"]')).toBeNull();
    const announcer = q(container, '[data-part="announcer"]')!;
    expect(announcer.getAttribute('role')).toBe('status');
    expect(announcer.textContent).toMatch(/^Answer ready: .*top 10 customers/);
    expect(transport.streams()).toHaveLength(1);
    expect(textbox(container).value).toBe('');
  });

  it('Shift+Enter adds a line without sending; a suggestion sends itself; showThinking shows thinking collapsed', async () => {
    const transport = recordingFetch();
    const { container } = mount(
      chat({ fetch: transport.fetch, suggestions: ['Show revenue by region'], showThinking: true }),
    );
    await userEvent.click(textbox(container));
    await userEvent.keyboard('first line{Shift>}{Enter}{/Shift}second line');
    expect(textbox(container).value).toBe('first line\nsecond line');
    expect(transport.requests).toHaveLength(0);
    await userEvent.click(button(container, 'Show revenue by region')!);
    await vi.waitFor(() => expect(chatState(container)).toBe('ready'), { timeout: 10_000 });
    expect(transport.streams()[0]!.body['input']).toBe('Show revenue by region');
    const thinking = q<HTMLDetailsElement>(container, '[data-part="thinking"]')!;
    expect(thinking.open).toBe(false);
    expect(thinking.getAttribute('data-state')).toBe('closed');
    await userEvent.click(thinking.querySelector('summary')!);
    expect(thinking.open).toBe(true);
    // The details element's toggle event, which data-state follows, is fired in a later task.
    await vi.waitFor(() => expect(thinking.getAttribute('data-state')).toBe('open'));
  });

  it('Stop calls the abort endpoint: the agent stops, the status ends aborted', async () => {
    const transport = recordingFetch('hold-after=5');
    const { container } = mount(chat({ fetch: transport.fetch }));
    await ask(container, 'revenue by region');
    await vi.waitFor(() => expect(button(container, 'Stop')).toBeDefined(), { timeout: 10_000 });
    expect(q(container, '[role="log"]')!.getAttribute('aria-busy')).toBe('true');
    expect(button(container, 'Send')).toBeUndefined();
    await userEvent.click(button(container, 'Stop')!);
    await vi.waitFor(() => expect(chatState(container)).toBe('aborted'), { timeout: 10_000 });
    expect(transport.requests.filter((request) => request.path === 'abort')).toHaveLength(1);
    expect(q(container, '[data-part="status"][data-state="aborted"]')?.textContent).toBe('Stopped');
    expect(q(container, '[data-part="final-answer"]')).toBeNull();
    expect(button(container, 'Send')).toBeDefined();
  });

  it('Escape in the composer stops the answer too', async () => {
    const transport = recordingFetch('hold-after=5');
    const { container } = mount(chat({ fetch: transport.fetch }));
    await ask(container, 'orders by status');
    await vi.waitFor(() => expect(chatState(container)).toBe('streaming'), { timeout: 10_000 });
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(chatState(container)).toBe('aborted'), { timeout: 10_000 });
    expect(transport.requests.filter((request) => request.path === 'abort')).toHaveLength(1);
  });

  it('a 404 from the abort endpoint is shown as the error, with Retry', async () => {
    const onError = vi.fn();
    const transport = recordingFetch('hold-after=5', () => ({ chatId: 'no-such-chat' }));
    const { container } = mount(chat({ fetch: transport.fetch, onError }));
    await ask(container, 'orders by status');
    await vi.waitFor(() => expect(button(container, 'Stop')).toBeDefined(), { timeout: 10_000 });
    await userEvent.click(button(container, 'Stop')!);
    await vi.waitFor(() => expect(chatState(container)).toBe('error'), { timeout: 10_000 });
    const alert = q(container, '[role="alert"]')!;
    expect(alert.textContent).toMatch(/not found/i);
    expect(textbox(container).getAttribute('aria-describedby')).toBe(alert.id);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ status: 404 }));
    // Retry reads the thread: the held run goes on and completes.
    await userEvent.click(button(container, 'Retry')!);
    await vi.waitFor(() => expect(chatState(container)).toBe('ready'), { timeout: 10_000 });
    expect(container.querySelectorAll('[data-part="message"][data-role="user"]')).toHaveLength(1);
  });

  it('a dropped connection shows "reconnecting", then the same answer continues with nothing duplicated', async () => {
    const transport = recordingFetch('cut-after=8');
    // The resend waits until the test has seen "reconnecting": without the gate the state can
    // last less than a (throttled) frame of a busy machine and never be painted.
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    let sent = 0;
    const gated: typeof fetch = async (input, init) => {
      if (!String(input).endsWith('/chat/abort') && (sent += 1) > 1) await gate;
      // The first answer comes at a realistic pace, so its first line (`__cutoff__`, with the
      // chatId a resend needs) reaches the page long before the cut. At once, the cut could come
      // with it, and a failed connection can take the bytes the page had not read yet with it:
      // the client then rightly refuses to resend without a chatId.
      const headers = new Headers(init?.headers);
      if (sent === 1) headers.set('x-emulator-pace', 'realistic');
      return transport.fetch(input, { ...init, headers });
    };
    const { container } = mount(chat({ fetch: gated }));
    await ask(container, 'Show me revenue by month');
    await vi.waitFor(
      () => {
        const seen = `chat ${chatState(container)}, alert "${q(container, '[role="alert"]')?.textContent ?? ''}", ${transport.requests.length} requests`;
        expect(q(container, '[data-part="status"][data-state="reconnecting"]')?.getAttribute('role'), seen).toBe(
          'status',
        );
      },
      { timeout: 10_000 },
    );
    open();
    await vi.waitFor(() => expect(chatState(container)).toBe('ready'), { timeout: 15_000 });
    expect(transport.streams().length).toBe(2);
    expect(transport.streams()[1]!.body['messageId']).toBe(transport.streams()[0]!.body['messageId']);
    const keys = [...container.querySelectorAll('[data-part="message"]')].map((element) => element.textContent);
    expect(new Set(keys).size).toBe(keys.length);
    expect(container.querySelectorAll('[data-part="final-answer"]')).toHaveLength(1);
  });

  it('a page reloaded mid-answer passes the stored chatId and continues the answer', async () => {
    let stored: string | undefined;
    const first = mount(chat({ fetch: recordingFetch('hold-after=6').fetch, onChatId: (id) => (stored = id) }));
    await ask(first.container, 'Who are our top 10 customers?');
    await vi.waitFor(() => expect(stored).toBeDefined(), { timeout: 10_000 });
    first.unmount();
    const transport = recordingFetch();
    const onFinish = vi.fn();
    const { container } = mount(chat({ fetch: transport.fetch, chatId: stored, onFinish }));
    await vi.waitFor(() => expect(chatState(container)).toBe('ready'), { timeout: 10_000 });
    expect(transport.streams().map((request) => request.body)).toEqual([{ chatId: stored }]);
    expect(q(container, '[data-part="final-answer"]')?.textContent).toMatch(/top 10 customers/);
    expect(container.querySelectorAll('[data-part="message"][data-role="user"]')).toHaveLength(1);
    expect(onFinish).toHaveBeenCalledTimes(1);
  });

  it('StrictMode: one request per question, one read of a stored thread', async () => {
    const transport = recordingFetch();
    let chatId: string | undefined;
    const { container } = mount(
      <StrictMode>{chat({ fetch: transport.fetch, onChatId: (id) => (chatId = id) })}</StrictMode>,
    );
    await ask(container, 'orders by status');
    await vi.waitFor(() => expect(chatState(container)).toBe('ready'), { timeout: 10_000 });
    expect(transport.streams()).toHaveLength(1);
    expect(chatId).toBeDefined();
    const reader = recordingFetch();
    const second = mount(<StrictMode>{chat({ fetch: reader.fetch, chatId })}</StrictMode>);
    await vi.waitFor(() => expect(chatState(second.container)).toBe('ready'), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reader.streams()).toEqual([{ path: 'stream', body: { chatId } }]);
    expect(second.container.querySelectorAll('[data-part="message"][data-role="user"]')).toHaveLength(1);
  });
});

/**
 * The recorded revenue answer with its final answer made long (eight times over) and streamed one
 * character per line, as a fast model streams: thousands of store updates.
 */
function perCharacterTranscript(transcript: string): { text: string; lines: number } {
  const records = transcript
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const isFinal = (record: Record<string, unknown>) => JSON.stringify(record['graphPath']) === '["final"]';
  const whole = records.find((record) => isFinal(record) && record['isDelta'] === false)!;
  const answer = Array.from({ length: 8 }, () => String(whole['content'])).join('\n\n');
  const out: Record<string, unknown>[] = [];
  for (const record of records) {
    if (!isFinal(record)) out.push(record);
    else if (record === whole) {
      for (const character of answer) out.push({ ...whole, content: character, isInProcess: true, isDelta: true });
      out.push({ ...whole, content: answer });
    }
  }
  return { text: out.map((record) => JSON.stringify(record)).join('\n') + '\n', lines: out.length };
}

describe('React commits while streaming', () => {
  it('at most one commit per animation frame, however fast the stream (commits ≤ frames)', async () => {
    // Thousands of lines in 64-byte reads, with a pause every 16 reads: many lines land within each
    // frame, and the answer spreads over many frames, so throttling is seen frame after frame.
    const { text, lines } = perCharacterTranscript(revenueTranscript);
    const fake = createReplayFetch({ transcript: text, chunking: 64 });
    const paced: typeof fetch = async (input, init) => {
      const response = await fake.fetch(input, init);
      if (!response.body) return response;
      let read = 0;
      const pause = new TransformStream<Uint8Array, Uint8Array>({
        async transform(chunk, controller) {
          if (++read % 16 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(pause), { status: response.status, headers: response.headers });
    };
    let commits = 0;
    let counting = false;
    let frames = 0;
    let running = true;
    const log: string[] = [];
    const tick = () => {
      if (counting) frames += 1;
      if (running) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    const { container } = mount(
      <Profiler
        id="chat"
        onRender={() => void (counting && ((commits += 1), log.push(`${frames}:${chatState(container)}`)))}
      >
        {chat({ fetch: paced })}
      </Profiler>,
    );
    await userEvent.click(textbox(container));
    await userEvent.keyboard('Show revenue by month in 2025');
    counting = true;
    const started = performance.now();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(chatState(container)).toBe('ready'), { timeout: 30_000 });
    counting = false;
    running = false;
    const elapsed = performance.now() - started;
    expect(q(container, '[data-part="final-answer"]')?.textContent).toContain('table has every month.');
    // The stream really brought more updates than frames, over many frames, or this test could
    // not fail (a commit per line would be thousands).
    expect(lines).toBeGreaterThan(frames * 4);
    expect(frames).toBeGreaterThanOrEqual(10);
    // Three extras at most, whatever the frame count: the Enter key's own commit (the composer
    // clears) and the chart's own state outside the stream (its theme read from the CSS variables,
    // then its lazy load finishing; React 19 often batches those two into one).
    expect(commits, log.slice(0, 40).join(' ')).toBeLessThanOrEqual(frames + 3);
    console.info(
      `commits ${commits}, frames ${frames}, lines ${lines}, ${elapsed.toFixed(0)} ms: ${((commits * 1000) / elapsed).toFixed(1)} commits/s`,
    );
  });
});
