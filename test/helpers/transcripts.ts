/** The recorded transcripts, from the testing kit (their one home: `src/testing/transcripts.generated.ts`). */
import { TRANSCRIPTS, type TranscriptName } from '../../src/testing';

export type { TranscriptName };

/** The NDJSON text of one recorded transcript. */
export function transcript(name: TranscriptName): string {
  return TRANSCRIPTS[name];
}

/**
 * A thread of `count` messages as a read of it streams (`__cutoff__`, each message whole,
 * `__usage__`): questions and answers taking turns, for long-thread stories and tests.
 */
export function longThreadTranscript(count: number, chatId = '00000000-0000-4000-8000-000000001000'): string {
  const lines: unknown[] = [{ id: '__cutoff__', role: 'assistant', state: { isStreaming: false, chatId }, sort: 0 }];
  for (let index = 0; index < count; index += 1) {
    const user = index % 2 === 0;
    lines.push({
      id: user ? `${1_767_225_600_000 + index}-message` : `answer-${index}`,
      role: user ? 'user' : 'assistant',
      content: user
        ? `Question ${index / 2 + 1}: revenue in week ${index % 52}?`
        : `Revenue in week ${(index - 1) % 52} was $${(index * 1234.5).toFixed(2)}, up ${index % 9}% on the week before.`,
      isDelta: false,
      ...(user ? {} : { graphPath: ['final'] }),
      sort: index + 1,
    });
  }
  lines.push({
    id: '__usage__',
    type: 'usage',
    usage: {
      models: [],
      llmCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      totalTokens: 0,
    },
  });
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}
