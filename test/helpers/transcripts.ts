/** The recorded transcripts, from the testing kit (their one home: `src/testing/transcripts.generated.ts`). */
import { TRANSCRIPTS, type TranscriptName } from '../../src/testing';

export type { TranscriptName };

/** The NDJSON text of one recorded transcript. */
export function transcript(name: TranscriptName): string {
  return TRANSCRIPTS[name];
}
