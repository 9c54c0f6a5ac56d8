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
  if (over.length === 0) break;
  console.log(`bench: attempt ${attempt} over budget: ${over.map(([key]) => key).join(', ')}`);
  if (attempt === ATTEMPTS) {
    console.error('bench: over budget in every attempt');
    process.exit(1);
  }
}

// StreamingMarkdown: a 20 KB answer in 2,000 deltas, in the same run as streamdown. Its cost per
// delta must not grow with the answer (last 200 deltas over first 200), and its total must stay
// well under streamdown's. The target for the total is a third of streamdown's; this
// measures 0.5-0.56 (parsing the open block on every delta dominates, about half of it the
// parser's fixed cost per call), so the budget guards that level until the parser work per delta
// shrinks.
// React must load its production build, so the environment is set before the bundle loads React.
process.env.NODE_ENV = 'production';
const MARKDOWN_BUDGETS = { lastToFirst: 1.3, totalToStreamdown: 0.7 };
const markdownBench = await import(pathToFileURL(await bundleTs('bench/streaming-markdown.ts')).href);
for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
  const result = await markdownBench.runStreamingMarkdownBenchmark({ naive: false });
  const measured = { lastToFirst: result.streamingMarkdown.lastToFirst, totalToStreamdown: result.totalToStreamdown };
  const over = Object.entries(MARKDOWN_BUDGETS).filter(([key, limit]) => measured[key] > limit);
  console.log(
    `bench: StreamingMarkdown ${(result.bytes / 1e3).toFixed(0)} kB in ${result.deltas} deltas: ` +
      `last/first ${measured.lastToFirst.toFixed(2)} (budget ${MARKDOWN_BUDGETS.lastToFirst}), ` +
      `total ${measured.totalToStreamdown.toFixed(2)}x streamdown's (budget ${MARKDOWN_BUDGETS.totalToStreamdown}x)`,
  );
  if (over.length === 0) process.exit(0);
  console.log(`bench: attempt ${attempt} over budget: ${over.map(([key]) => key).join(', ')}`);
}
console.error('bench: StreamingMarkdown over budget in every attempt');
process.exit(1);
