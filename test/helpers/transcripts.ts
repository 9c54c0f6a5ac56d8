/** The recorded transcripts (test/fixtures/transcripts), read from disk: for Node and jsdom tests. */
import { readFileSync } from 'node:fs';

/** Names of the recorded transcripts. */
export type TranscriptName = 'revenue-by-month' | 'top-customers' | 'margin-error' | 'cannot-answer';

/** The NDJSON text of one recorded transcript. */
export function transcript(name: TranscriptName): string {
  return readFileSync(new URL(`../fixtures/transcripts/${name}.ndjson`, import.meta.url), 'utf8');
}
