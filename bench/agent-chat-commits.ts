/**
 * Commits per second through `AgentChat`: a recorded emulator answer (the testing kit's TRANSCRIPTS)
 * streamed as fast as it can be read, in 3-byte chunks (thousands of reads), into `AgentChat`
 * rendered by React DOM in jsdom with a 60 Hz animation frame (`pretendToBeVisual`). React must
 * commit at most once per animation frame, whatever the delta rate.
 *
 * Reports commits and frames per second and their ratio, `commitsPerFrame` (budget ≤ 1, checked
 * by scripts/check-bench.mjs), plus stream reads per second to show the stream outran the frames.
 * The real-browser counterpart is test/browser/agent-chat.test.tsx.
 *
 * @module
 */
import { pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';

/** What {@link runAgentChatCommitsBenchmark} measured. */
export interface AgentChatCommitsResult {
  commitsPerSecond: number;
  framesPerSecond: number;
  /** React commits over animation frames while the answer streamed: at most 1. */
  commitsPerFrame: number;
  /** Chunks read per second: far above the frame rate, or the budget proves nothing. */
  readsPerSecond: number;
  commits: number;
  frames: number;
  reads: number;
}

/** Streams the recorded answer once through `AgentChat` and counts commits and frames. */
export async function runAgentChatCommitsBenchmark(): Promise<AgentChatCommitsResult> {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', {
    pretendToBeVisual: true,
    url: 'http://localhost/',
  });
  const { window } = dom;
  // React DOM and the hook look these up as globals; set them before either is loaded.
  const globals: Record<string, unknown> = {
    window,
    document: window.document,
    navigator: window.navigator,
    HTMLElement: window.HTMLElement,
    Node: window.Node,
    Event: window.Event,
    requestAnimationFrame: window.requestAnimationFrame.bind(window),
    cancelAnimationFrame: window.cancelAnimationFrame.bind(window),
    IS_REACT_ACT_ENVIRONMENT: false,
  };
  // Left in place afterwards: React's scheduler may still look at them after the last commit.
  for (const [key, value] of Object.entries(globals))
    Object.defineProperty(globalThis, key, { value, configurable: true, writable: true });
  {
    const React = await import('react');
    const { createRoot } = await import('react-dom/client');
    const { AgentChat } = await import('../src/components/chat');
    const { useAgentChat } = await import('../src/react/use-agent-chat');
    const { createReplayFetch, TRANSCRIPTS } = await import('../src/testing');

    const transcript = TRANSCRIPTS['revenue-by-month'];
    const reads = Math.ceil(Buffer.byteLength(transcript) / 3);
    const fake = createReplayFetch({ transcript, chunking: 3 });

    let commits = 0;
    let frames = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      frames += 1;
      window.requestAnimationFrame(tick);
    };
    window.requestAnimationFrame(tick);

    let resolveDone!: () => void;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    function Bench(): React.ReactNode {
      const chat = useAgentChat({
        url: '/bench',
        fetch: fake.fetch,
        onFinish: () => resolveDone(),
        onError: () => resolveDone(),
      });
      const asked = React.useRef(false);
      React.useEffect(() => {
        if (asked.current) return;
        asked.current = true;
        void chat.send('Show revenue by month in 2025');
      }, [chat]);
      return React.createElement(AgentChat, { chat: chat.chat });
    }

    const container = window.document.createElement('div');
    window.document.body.append(container);
    const root = createRoot(container);
    const started = performance.now();
    root.render(
      React.createElement(
        React.Profiler,
        { id: 'bench', onRender: () => void (commits += 1) },
        React.createElement(Bench),
      ),
    );
    await done;
    // The last notification is one frame away.
    await new Promise((resolve) => window.requestAnimationFrame(() => resolve(undefined)));
    const seconds = (performance.now() - started) / 1000;
    counting = false;
    root.unmount();
    window.close();
    return {
      commitsPerSecond: commits / seconds,
      framesPerSecond: frames / seconds,
      // The first commit (mount) happens before any frame.
      commitsPerFrame: (commits - 1) / Math.max(frames, 1),
      readsPerSecond: reads / seconds,
      commits,
      frames,
      reads,
    };
  }
}

export async function main(): Promise<void> {
  const result = await runAgentChatCommitsBenchmark();
  console.log(
    `agent chat commits: ${result.commitsPerSecond.toFixed(1)} commits/s, ${result.framesPerSecond.toFixed(1)} frames/s ` +
      `(${result.commitsPerFrame.toFixed(2)} commits per frame), ${result.readsPerSecond.toFixed(0)} stream reads/s`,
  );
}

if (typeof process !== 'undefined' && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
