// @vitest-environment node
/** The kit's Storybook decorator: it adds `url` and `fetch` args, one replay fetch per story. */
import { describe, expect, it } from 'vitest';
import { createChatClient } from '../../../src/core/chat-client';
import { replayFetchOf, TRANSCRIPTS, withReplayFetch } from '../../../src/testing';

type Args = { suggestions?: string[]; url?: string; fetch?: typeof fetch };

describe('withReplayFetch', () => {
  it('keeps the story args, adds url and a replay fetch kept across re-renders, one per story', async () => {
    const decorator = withReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'], url: '/recorded' });
    const render = (id: string) =>
      decorator((update?: { args?: Args }) => update?.args, { id, args: { suggestions: ['a'] } as Args });
    const first = render('chat--one')!;
    expect(first).toMatchObject({ suggestions: ['a'], url: '/recorded' });
    expect(render('chat--one')!.fetch).toBe(first.fetch);
    expect(render('chat--two')!.fetch).not.toBe(first.fetch);

    const client = createChatClient({ url: first.url!, fetch: first.fetch! });
    const lines: unknown[] = [];
    for await (const line of client.stream({ input: 'hi' })) lines.push(line);
    expect(lines.length).toBeGreaterThan(3);
    expect(replayFetchOf('chat--one')?.streams).toEqual([expect.objectContaining({ input: 'hi' })]);
    expect(replayFetchOf('chat--two')?.streams).toEqual([]);
  });
});
