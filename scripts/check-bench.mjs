// Speed budgets of the test command, checked as ratios (never wall-clock times, which depend on
// the machine): the chat ingest path must stay within 3x of plain JSON.parse on the same lines,
// and applying a line late in a thread must cost no more than early on (ratio at most 1.2).
//
// A ratio can still be pushed up by another process stealing the CPU mid-run, so a failed
// attempt is measured again, up to three times; a real regression fails every attempt.
import { pathToFileURL } from 'node:url';
import { bundleTs } from './run-ts.mjs';

const BUDGETS = { ratioToJsonParse: 3, lastToFirstDecileRatio: 1.2 };
const ATTEMPTS = 3;

// AgentChat commits at most once per animation frame however fast the stream (bench/agent-chat-commits.ts),
// and the stream must outrun the frames or the ratio proves nothing. A count, not a timing: no retries.
const commitsFile = await bundleTs('bench/agent-chat-commits.ts');
const { runAgentChatCommitsBenchmark } = await import(pathToFileURL(commitsFile).href);
const chatCommits = await runAgentChatCommitsBenchmark();
console.log(
  `bench: AgentChat ${chatCommits.commitsPerSecond.toFixed(1)} commits/s, ${chatCommits.framesPerSecond.toFixed(1)} frames/s: ` +
    `${chatCommits.commitsPerFrame.toFixed(2)} commits per frame (budget 1), ${chatCommits.readsPerSecond.toFixed(0)} stream reads/s`,
);
if (!(chatCommits.commitsPerFrame <= 1 && chatCommits.readsPerSecond > 4 * chatCommits.framesPerSecond)) {
  console.error('bench: AgentChat commits more often than once per frame (or the stream was too slow to tell)');
  process.exit(1);
}

const outfile = await bundleTs('bench/chat-ingest.ts');
const { runChatIngestBenchmark } = await import(pathToFileURL(outfile).href);

for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
  const result = await runChatIngestBenchmark();
  const over = Object.entries(BUDGETS).filter(([key, limit]) => result[key] > limit);
  console.log(
    `bench: chat ingest ${result.lines} lines, ${(result.bytes / 1e3).toFixed(0)} kB: ` +
      `${result.mbPerSecond.toFixed(1)} MB/s, ${result.ratioToJsonParse.toFixed(2)}x JSON.parse (budget ${BUDGETS.ratioToJsonParse}x), ` +
      `last/first decile ${result.lastToFirstDecileRatio.toFixed(2)} (budget ${BUDGETS.lastToFirstDecileRatio})`,
  );
  if (over.length === 0) process.exit(0);
  console.log(`bench: attempt ${attempt} over budget: ${over.map(([key]) => key).join(', ')}`);
}
console.error('bench: over budget in every attempt');
process.exit(1);
