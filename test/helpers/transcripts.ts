/** The recorded transcripts (test/fixtures/transcripts), read from disk: for Node and jsdom tests. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Names of the recorded transcripts. */
export type TranscriptName = 'revenue-by-month' | 'top-customers' | 'margin-error' | 'cannot-answer';

/** The NDJSON text of one recorded transcript (tests run from the repository root; jsdom's `import.meta.url` is not a file URL). */
export function transcript(name: TranscriptName): string {
  return readFileSync(resolve('test/fixtures/transcripts', `${name}.ndjson`), 'utf8');
}
