// Speed budgets of the test command, checked as ratios measured in one run (never wall-clock
// times, which depend on the machine):
// - chat ingest: within 3x of plain JSON.parse on the same lines (the store's per-line merge
//   compares fields one by one instead of looping over keys, and skips the sentinel lookup for
//   ordinary ids: 2.7-2.8x where the code before measured 2.8-3.2x, both in CPU time, which another
//   process taking the core does not stretch as it does wall-clock time; readNdjson parses a chunk's
//   lines in one loop before handing them out: 2.55-2.65x); a line late in a thread costs no
//   more than early on (ratio at most 1.2); messages whose `sort` arrives in random or descending
//   order are placed at most 3x as slowly as in ascending order (never linear in the thread).
// - StreamingMarkdown: a 20 KB answer in 2,000 deltas, in the same run as streamdown. Its cost per
//   delta must not grow with the answer (last 200 deltas over first 200 at most 1.3), and its
//   total must be at most a third of streamdown's (the numbers). This measures 0.29-0.32
//   and last/first 1.03-1.15 on a loaded 2-core machine: words appended to text, inside emphasis
//   that healing closes or after a closed emphasis, code or link, and code text, extend the open
//   block's tree without a parse; a list parses only its last item again; the whole answer is
//   compared with the last one by slice equality, not startsWith.
// - AgentChat: at most one React commit per animation frame, however fast the stream.
//
// A ratio can still be pushed up by another process stealing the CPU mid-run, so a failed
// attempt is measured again, up to three times; a real regression fails every attempt.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { bundleTs } from './run-ts.mjs';

const ATTEMPTS = 3;

// Order matters: the ingest ratio is measured first, in a fresh process (the AgentChat and
// StreamingMarkdown benches load jsdom and React into it, which slowed the ingest path measured
// after them by about a tenth); AgentChat's commits are counted in a child process on React's
// development build, since the markdown bench loads the production build, where <Profiler> counts nothing.

/**
 * Runs `measure` until every ratio it returns is within `budgets`, at most ATTEMPTS times; exits
 * the process with 1 when every attempt is over.
 */
async function check(name, budgets, measure) {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const measured = await measure();
    const over = Object.entries(budgets).filter(([key, limit]) => !(measured[key] <= limit));
    if (over.length === 0) return;
    console.log(`bench: ${name}, attempt ${attempt} over budget: ${over.map(([key]) => key).join(', ')}`);
  }
  console.error(`bench: ${name} over budget in every attempt`);
  process.exit(1);
}

const { runChatIngestBenchmark } = await import(pathToFileURL(await bundleTs('bench/chat-ingest.ts')).href);
const INGEST = {
  ratioToJsonParse: 3,
  lastToFirstDecileRatio: 1.2,
  randomToAscendingRatio: 3,
  descendingToAscendingRatio: 3,
};
await check('chat ingest', INGEST, async () => {
  const result = await runChatIngestBenchmark();
  console.log(
    `bench: chat ingest ${result.lines} lines, ${(result.bytes / 1e3).toFixed(0)} kB: ` +
      `${result.mbPerSecond.toFixed(1)} MB/s, ${result.ratioToJsonParse.toFixed(2)}x JSON.parse (budget ${INGEST.ratioToJsonParse}x), ` +
      `last/first decile ${result.lastToFirstDecileRatio.toFixed(2)} (budget ${INGEST.lastToFirstDecileRatio})`,
  );
  console.log(
    `bench: placement of ${(20_000).toLocaleString('en')} messages, random/ascending ${result.randomToAscendingRatio.toFixed(2)}x, ` +
      `descending/ascending ${result.descendingToAscendingRatio.toFixed(2)}x (budget 3x each)`,
  );
  return result;
});

// React must load its production build, so the environment is set before the bundle loads React.
process.env.NODE_ENV = 'production';
const { runStreamingMarkdownBenchmark } = await import(
  pathToFileURL(await bundleTs('bench/streaming-markdown.ts')).href
);
const MARKDOWN = { lastToFirst: 1.3, totalToStreamdown: 0.333 };
await check('StreamingMarkdown', MARKDOWN, async () => {
  const result = await runStreamingMarkdownBenchmark({ naive: false });
  const measured = { lastToFirst: result.streamingMarkdown.lastToFirst, totalToStreamdown: result.totalToStreamdown };
  console.log(
    `bench: StreamingMarkdown ${(result.bytes / 1e3).toFixed(0)} kB in ${result.deltas} deltas: ` +
      `last/first ${measured.lastToFirst.toFixed(2)} (budget ${MARKDOWN.lastToFirst}), ` +
      `total ${measured.totalToStreamdown.toFixed(2)}x streamdown's (budget ${MARKDOWN.totalToStreamdown}x)`,
  );
  return measured;
});

// AgentChat commits at most once per animation frame however fast the stream (bench/agent-chat-commits.ts),
// and the stream must outrun the frames or the ratio proves nothing. A count, not a timing: no retries.
// Its own process, with React's development build: <Profiler> counts commits only there, and this
// process has loaded the production build for the markdown bench.
const commitsFile = await bundleTs('bench/agent-chat-commits.ts');
const child = spawnSync(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `const m = await import(${JSON.stringify(pathToFileURL(commitsFile).href)}); console.log(JSON.stringify(await m.runAgentChatCommitsBenchmark())); process.exit(0);`,
  ],
  { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'development' } },
);
if (child.status !== 0) {
  console.error(`bench: the AgentChat commits bench failed\n${child.stderr}`);
  process.exit(1);
}
const chatCommits = JSON.parse(child.stdout.trim().split('\n').at(-1));
console.log(
  `bench: AgentChat ${chatCommits.commitsPerSecond.toFixed(1)} commits/s, ${chatCommits.framesPerSecond.toFixed(1)} frames/s: ` +
    `${chatCommits.commitsPerFrame.toFixed(2)} commits per frame (budget 1), ${chatCommits.readsPerSecond.toFixed(0)} stream reads/s`,
);
// React's development build: its <Profiler> counts commits (production builds never call it).
if (!(
  chatCommits.commitsPerSecond > 0 &&
  chatCommits.commitsPerFrame <= 1 &&
  chatCommits.readsPerSecond > 4 * chatCommits.framesPerSecond
)) {
  console.error('bench: AgentChat commits more often than once per frame (or the stream was too slow to tell)');
  process.exit(1);
}

// The benches leave jsdom timers behind; nothing else is owed.
process.exit(0);
