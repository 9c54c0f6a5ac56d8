/**
 * Records chat transcripts from the live emulator into the testing kit's
 * `src/testing/transcripts.generated.ts` (`TRANSCRIPTS` of `@service/react/testing`): the exact
 * bytes its Chat API streams, one per scripted intent, so partners' tests, ours and stories replay real
 * answers (thinking, tool calls, SQL results, Vega-Lite specs, final answers) instead of
 * hand-written ones. Run again after the emulator's agent changes:
 *
 *   node scripts/run-ts.mjs scripts/record-chat-transcripts.ts
 *
 * @module
 */
import { startEmulator } from '../src/emulator';
import { ADMIN_API_KEY } from '../src/emulator/world';
import { createMessageId } from '../src/core/protocol/chat';
import { TRANSCRIPTS_MODULE, writeTranscriptsModule } from './transcripts-module';

/** Name of each transcript, and the question whose answer it holds. */
export const TRANSCRIPT_QUESTIONS = {
  'revenue-by-month': 'Show revenue by month in 2025',
  'top-customers': 'Who are our top 10 customers?',
  'margin-error': 'What is our gross margin?',
  'cannot-answer': 'What is the weather tomorrow?',
} as const;

const emulator = await startEmulator({ port: 0, chatPace: 'instant' });
try {
  const recorded: Record<string, { question: string; text: string }> = {};
  let time = 1_767_225_600_000; // fixed message ids: the files stay the same across recordings
  for (const [name, input] of Object.entries(TRANSCRIPT_QUESTIONS)) {
    const response = await fetch(`${emulator.aiUrl}/chat/stream-chat-state`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Api-Key ${ADMIN_API_KEY}` },
      body: JSON.stringify({
        input,
        messageId: createMessageId((time += 1000)),
        sessionSettings: { externalId: 'transcripts@acme.test' },
      }),
    });
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    const text = await response.text();
    recorded[name] = { question: input, text };
    console.log(`${name}: ${text.split('\n').filter(Boolean).length} lines, ${text.length} bytes`);
  }
  writeTranscriptsModule(recorded);
  console.log(`wrote ${TRANSCRIPTS_MODULE}`);
} finally {
  await emulator.close();
}
