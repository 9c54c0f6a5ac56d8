// Speed budgets of the test command, checked as ratios measured in one run (never wall-clock
// times, which depend on the machine):
// - chat ingest: within 3x of plain JSON.parse on the same lines (the store's per-line merge
//   compares fields one by one instead of looping over keys, and skips the sentinel lookup for
//   ordinary ids: 2.7-2.8x where the code before measured 2.8-3.2x, both in CPU time, which another
//   process taking the core does not stretch as it does wall-clock time; readNdjson parses a chunk's
//   lines in one loop before handing them out: 2.55-2.65x); a line late in a thread costs no
//   more than early on (ratio at most 1.2); messages whose `sort` arrives in random or descending
//   order are placed at most 3x as slowly as in ascending order (never linear in the thread).
// - StreamingMarkdown: answers of every shape (prose, a long table, a long SQL block, nested lists,
//   a mixed analytics answer, each 20 KB in 2,000 deltas, and the mixed one at 100 KB in 10,000),
//   each in the same run as streamdown, in React's production build and in its development build
//   (bench/streaming-markdown.ts says what and why). On the worst shape: total at most 1/4 of
//   streamdown's in production; last 200 deltas over first 200 at most 1.2 in production and 1.3
//   in development; the 100 KB answer's time per delta at most 1.3 times the 20 KB one's, in both.
//   The development run leaves streamdown out: no budget of that build compares with it.
// - AgentChat: at most one React commit per animation frame, however fast the stream.
//
// A ratio can still be pushed up by another process stealing the CPU mid-run, so a check over
// budget is measured again, up to four times, and each ratio keeps its best attempt. For
// StreamingMarkdown that is each shape's ratio, not the worst shape's of one attempt: the worst of
// six shapes is the maximum of six noisy ratios, which crossed 1.2 in two of three attempts on a
// quiet machine at 1.15 typical, a different shape each time. Every attempt runs every shape as
// the first did: a shape measured alone is measured in other conditions (the JIT and the heap
// differ) and read 0.90 for one shape and 1.93 for another where the full run read 1.20 and 1.24.
// A real regression of a ratio fails every attempt.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { bundleTs } from './run-ts.mjs';

const ATTEMPTS = 4;

// Order matters: the ingest ratio is measured first, in this process before anything else loads
// (jsdom and React loaded into it slowed the ingest path measured after them by about a tenth);
// the StreamingMarkdown and AgentChat benches run in child processes, each on the React build it
// measures.

/** A measurement's key is its ratio's name, or `<shape>: <ratio>` for one shape's ratio. */
const ratioOf = (key) => key.split(': ').at(-1);

/**
 * Measures until every ratio's best measurement is within its budget, at most ATTEMPTS times;
 * exits the process with 1 when a ratio is over in every attempt, or was never measured.
 * `measure` returns measurements by key; `budgets` holds each ratio's budget.
 */
async function check(name, budgets, measure) {
  /** Each measurement's best (lowest) value so far. */
  const best = {};
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const measured = await measure();
    for (const [key, value] of Object.entries(measured))
      if (typeof value === 'number') best[key] = Math.min(best[key] ?? Infinity, value);
    const unbudgeted = Object.keys(best).filter((key) => budgets[ratioOf(key)] === undefined);
    if (unbudgeted.length > 0) {
      console.error(`bench: ${name} has no budget for ${unbudgeted.join(', ')}`);
      process.exit(1);
    }
    const unmeasured = Object.keys(budgets).filter((ratio) => !Object.keys(best).some((key) => ratioOf(key) === ratio));
    if (unmeasured.length > 0) {
      console.error(`bench: ${name} measured no ${unmeasured.join(', ')}`);
      process.exit(1);
    }
    const over = Object.keys(best).filter((key) => !(best[key] <= budgets[ratioOf(key)]));
    if (over.length === 0) return;
    console.log(
      `bench: ${name}, attempt ${attempt}, best so far over budget: ` +
        over.map((key) => `${key} ${best[key].toFixed(2)} (budget ${budgets[ratioOf(key)]})`).join(', '),
    );
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
  return Object.fromEntries(Object.keys(INGEST).map((key) => [key, result[key]]));
});

// Each React build runs in a process of its own (React picks its build when it loads).
const { runInBuild, formatResult } = await import(pathToFileURL(await bundleTs('bench/streaming-markdown.ts')).href);
const MARKDOWN = {
  production: { totalToStreamdown: 0.25, lastToFirst: 1.2, largeToSmall: 1.3 },
  development: { lastToFirst: 1.3, largeToSmall: 1.3 },
};
for (const build of ['production', 'development']) {
  const budgets = MARKDOWN[build];
  // Keys: `<shape>: lastToFirst`, `<shape>: totalToStreamdown`, and `largeToSmall`.
  await check(`StreamingMarkdown, React ${build} build`, budgets, async () => {
    const result = runInBuild(build, { streamdown: 'totalToStreamdown' in budgets });
    console.log(formatResult(result));
    const measured = { largeToSmall: result.largeToSmall };
    for (const shape of result.shapes) {
      measured[`${shape.name}: lastToFirst`] = shape.streamingMarkdown.lastToFirst;
      if ('totalToStreamdown' in budgets) measured[`${shape.name}: totalToStreamdown`] = shape.totalToStreamdown;
    }
    console.log(
      `bench: StreamingMarkdown, ${build} build, worst shape this attempt: ` +
        Object.entries(budgets)
          .map(([ratio, limit]) => {
            const values = Object.entries(measured).filter(
              ([key, value]) => typeof value === 'number' && ratioOf(key) === ratio,
            );
            return values.length
              ? `${ratio} ${Math.max(...values.map(([, value]) => value)).toFixed(2)} (budget ${limit})`
              : undefined;
          })
          .filter(Boolean)
          .join(', '),
    );
    return measured;
  });
}

// AgentChat commits at most once per animation frame however fast the stream (bench/agent-chat-commits.ts),
// and the stream must outrun the frames or the ratio proves nothing. A count, not a timing: no retries.
// Its own process, with React's development build: <Profiler> counts commits only there.
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
