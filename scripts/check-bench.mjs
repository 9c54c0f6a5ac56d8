// Speed budgets of the test command, checked as ratios (never wall-clock times, which depend on
// the machine): the chat ingest path must stay within 3x of plain JSON.parse on the same lines,
// and applying a line late in a thread must cost no more than early on (ratio at most 1.2).
// Messages whose `sort` arrives in random or descending order must be placed at most 3x as slowly
// as in ascending order (placement logarithmic or amortized, never linear in the thread).
//
// A ratio can still be pushed up by another process stealing the CPU mid-run, so a failed
// attempt is measured again, up to three times; a real regression fails every attempt.
import { pathToFileURL } from 'node:url';
import { bundleTs } from './run-ts.mjs';

const BUDGETS = { ratioToJsonParse: 3, lastToFirstDecileRatio: 1.2 };
BUDGETS.randomToAscendingRatio = 3;
BUDGETS.descendingToAscendingRatio = 3;
const ATTEMPTS = 3;

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
  console.log(
    `bench: placement of ${(20_000).toLocaleString('en')} messages, random/ascending ${result.randomToAscendingRatio.toFixed(2)}x, ` +
      `descending/ascending ${result.descendingToAscendingRatio.toFixed(2)}x (budget 3x each)`,
  );
  if (over.length === 0) process.exit(0);
  console.log(`bench: attempt ${attempt} over budget: ${over.map(([key]) => key).join(', ')}`);
}
console.error('bench: over budget in every attempt');
process.exit(1);
