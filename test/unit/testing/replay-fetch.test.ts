// @vitest-environment node
/**
 * The testing kit's replay fetch, through the real chat client: chunkings give the same lines,
 * faults look like the service's (a dropped connection, `__suspended__`, an HTTP status), a
 * resubscription replays the transcript, the abort endpoint answers 204 and releases a held answer.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createChatClient, type ResubscribeEvent } from '../../../src/core/chat-client';
import { ServiceHttpError, ConnectionLostError } from '../../../src/core/errors';
import { createThreadStore } from '../../../src/core/thread-store';
import { chunkText, createReplayFetch, TRANSCRIPTS, type ReplayChunking } from '../../../src/testing';
import { collect } from '../../helpers/streams';

const URL_ = 'https://ai.acme.test/api/v1/public/acme/agents/7';
const QUESTION = { input: 'Show revenue by month in 2025', messageId: '1767225601000-message' };

const transcriptLines = (name: keyof typeof TRANSCRIPTS): unknown[] =>
  TRANSCRIPTS[name]
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

describe('TRANSCRIPTS', () => {
  it('holds every recording, each a cutoff-to-usage NDJSON answer, and nothing else is recorded elsewhere', () => {
    expect(Object.keys(TRANSCRIPTS).sort()).toEqual([
      'cannot-answer',
      'margin-error',
      'revenue-by-month',
      'top-customers',
    ]);
    for (const name of Object.keys(TRANSCRIPTS) as (keyof typeof TRANSCRIPTS)[]) {
      const lines = transcriptLines(name) as { id: string }[];
      expect(lines[0]!.id).toBe('__cutoff__');
      expect(lines.at(-1)!.id).toBe('__usage__');
      expect(TRANSCRIPTS[name].endsWith('\n')).toBe(true);
    }
    // One source of truth: the .ndjson copies are gone.
    expect(() => readdirSync('test/fixtures/transcripts')).toThrow();
  });
});

describe('chunkText', () => {
  const text = 'a\nbé\n€x\n';
  it.each<[ReplayChunking, number]>([
    ['lines', 3],
    ['whole', 1],
    ['bytes', new TextEncoder().encode(text).length],
    [4, 3],
    [[1, 3], 6],
    [(t) => [t.slice(0, 2), t.slice(2)], 2],
  ])('%s', (chunking, count) => {
    const chunks = chunkText(text, chunking);
    expect(chunks).toHaveLength(count);
    const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    chunks.reduce((offset, chunk) => (joined.set(chunk, offset), offset + chunk.length), 0);
    expect(new TextDecoder().decode(joined)).toBe(text);
  });
});

describe('chunkText cuts where a reader is most likely to slip', () => {
  it("'awkward': inside every multi-byte character and right after every newline, nowhere else", () => {
    // a \n b é(2 bytes) \n €(3 bytes) x \n
    const chunks = chunkText('a\nbé\n€x\n', 'awkward').map((chunk) => [...chunk]);
    expect(chunks).toEqual([[0x61, 0x0a], [0x62, 0xc3], [0xa9, 0x0a], [0xe2], [0x82], [0xac, 0x78, 0x0a]]);
  });

  it('sizes in a list are taken in turn and repeated; an empty list is refused', () => {
    expect(chunkText('abcdefghij', [3, 1]).map((chunk) => chunk.length)).toEqual([3, 1, 3, 1, 2]);
    expect(() => chunkText('abc', [])).toThrow(TypeError);
  });
});

describe('createReplayFetch through createChatClient', () => {
  it.each<ReplayChunking>(['lines', 'bytes', 5])(
    'the same lines whatever the chunking (%s), user echo carries the messageId',
    async (chunking) => {
      const replay = createReplayFetch({ transcript: TRANSCRIPTS['revenue-by-month'], chunking });
      const client = createChatClient({ url: URL_, fetch: replay.fetch, auth: { token: 't' } });
      const lines = (await collect(client.stream(QUESTION))) as { id: string }[];
      const expected = transcriptLines('revenue-by-month') as { id: string }[];
      // The client yields every line but `__suspended__`; ids match the recording's, with the echo renamed.
      expect(lines.map((line) => line.id)).toEqual(
        expected.map((line) => (/-message$/.test(line.id) ? QUESTION.messageId : line.id)),
      );
      expect(replay.streams).toEqual([expect.objectContaining(QUESTION)]);
      expect(replay.requests[0]!.headers.get('x-service-auth-token')).toBe('t');
    },
  );

  it('a dropped connection errors the body; the client resubscribes with the same body and the replay completes the thread', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['top-customers'], faults: { dropAfterLines: 6 } });
    const events: ResubscribeEvent[] = [];
    const client = createChatClient({
      url: URL_,
      fetch: replay.fetch,
      resubscribe: { baseDelayMs: 0 },
      onResubscribe: (event) => events.push(event),
    });
    const store = createThreadStore();
    for await (const line of client.stream(QUESTION)) store.apply(line);
    expect(events.map((event) => event.reason)).toEqual(['connection_lost']);
    expect(replay.streams).toHaveLength(2);
    expect(replay.streams[1]).toMatchObject({ messageId: QUESTION.messageId });
    expect(store.getSnapshot().finalAnswer?.graphPath).toEqual(['final']);
  });

  it('a list of faults gives each stream request its own: dropped, then held until the abort endpoint releases it', async () => {
    const replay = createReplayFetch({
      transcript: TRANSCRIPTS['top-customers'],
      chunking: 'awkward',
      faults: [{ dropAfterLines: 4 }, { holdAfterLines: 0 }],
    });
    const events: ResubscribeEvent[] = [];
    const client = createChatClient({
      url: URL_,
      fetch: replay.fetch,
      resubscribe: { baseDelayMs: 0 },
      onResubscribe: (event) => events.push(event),
    });
    const seen: { id: string; state?: { chatId: string } }[] = [];
    const done = (async () => {
      for await (const line of client.stream(QUESTION)) seen.push(line as (typeof seen)[number]);
    })();
    await expect.poll(() => replay.streams.length).toBe(2);
    // The second answer is held before its first line: the four lines of the first are all there is.
    expect(seen).toHaveLength(4);
    expect(events.map((event) => event.reason)).toEqual(['connection_lost']);
    await client.abort(seen[0]!.state!.chatId);
    await done;
    expect(seen.slice(4).map((line) => line.id)).toEqual(['__aborted__', '__usage__']);
    // Past the end of the list, requests get no fault: the whole recording.
    const third = await replay.fetch(`${URL_}/chat/stream-chat-state`, {
      method: 'POST',
      body: JSON.stringify({ input: 'again', messageId: '1767225609000-message' }),
    });
    expect(await third.text()).toBe(
      TRANSCRIPTS['top-customers'].replace(/"id":"\d{13,}-message"/, '"id":"1767225609000-message"'),
    );
  });

  it('without resubscription a dropped connection is a ConnectionLostError', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['top-customers'], faults: { dropAfterLines: 3 } });
    const client = createChatClient({ url: URL_, fetch: replay.fetch, resubscribe: false });
    await expect(collect(client.stream(QUESTION))).rejects.toBeInstanceOf(ConnectionLostError);
  });

  it('sends __suspended__ as the service does; the resend replays from the start', async () => {
    const replay = createReplayFetch({
      transcript: TRANSCRIPTS['cannot-answer'],
      chunking: 'bytes',
      faults: { suspendAfterLines: 4 },
    });
    const raw = await (
      await replay.fetch(`${URL_}/chat/stream-chat-state`, { method: 'POST', body: JSON.stringify(QUESTION) })
    ).text();
    const rawLines = raw
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(rawLines).toHaveLength(5);
    expect(rawLines[4]).toEqual({
      id: '__suspended__',
      type: 'suspend',
      code: 'chat_suspended',
      retryable: true,
      messageId: QUESTION.messageId,
      error: expect.any(String),
    });
    const again = await (
      await replay.fetch(`${URL_}/chat/stream-chat-state`, { method: 'POST', body: JSON.stringify(QUESTION) })
    ).text();
    expect(again).toBe(TRANSCRIPTS['cannot-answer'].replace(/"id":"\d{13,}-message"/, `"id":"${QUESTION.messageId}"`));

    const through = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'], faults: { suspendAfterLines: 4 } });
    const events: ResubscribeEvent[] = [];
    const client = createChatClient({
      url: URL_,
      fetch: through.fetch,
      resubscribe: { baseDelayMs: 0 },
      onResubscribe: (event) => events.push(event),
    });
    const lines = (await collect(client.stream(QUESTION))) as { id: string }[];
    expect(events.map((event) => event.reason)).toEqual(['suspended']);
    expect(lines.some((line) => line.id === '__suspended__')).toBe(false);
    expect(lines.at(-1)!.id).toBe('__usage__');
  });

  it('answers an injected HTTP status with the service error body', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['cannot-answer'], faults: { status: 503 } });
    const client = createChatClient({ url: URL_, fetch: replay.fetch, resubscribe: false });
    const error = await collect(client.stream(QUESTION)).catch((caught: unknown) => caught);
    expect(ServiceHttpError.isInstance(error) && error.status).toBe(503);
  });

  it('transcripts: one per new question, a resubscription keeps its own, then HTTP 500 when none is left', async () => {
    const replay = createReplayFetch({
      transcripts: [TRANSCRIPTS['cannot-answer'], TRANSCRIPTS['margin-error']],
      faults: { dropAfterLines: 2 },
    });
    const client = createChatClient({ url: URL_, fetch: replay.fetch, resubscribe: { baseDelayMs: 0 } });
    const first = (await collect(client.stream({ input: 'a', messageId: '1767225601000-message' }))) as {
      content?: string;
    }[];
    expect(first.some((line) => line.content === 'a' || line.content === 'What is the weather tomorrow?')).toBe(true);
    const second = (await collect(client.stream({ input: 'b', messageId: '1767225602000-message' }))) as {
      id: string;
    }[];
    expect(second.map((line) => line.id)).toContain(
      transcriptLines('margin-error').map((line) => (line as { id: string }).id)[2],
    );
    expect(replay.streams).toHaveLength(3);
    const third = await replay.fetch(`${URL_}/chat/stream-chat-state`, {
      method: 'POST',
      body: JSON.stringify({ input: 'c', messageId: '1767225603000-message' }),
    });
    expect(third.status).toBe(500);
  });

  it('abort answers 204 and ends a held answer with __aborted__ then __usage__; other routes are 404', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['revenue-by-month'], faults: { holdAfterLines: 3 } });
    const client = createChatClient({ url: URL_, fetch: replay.fetch });
    const seen: { id: string }[] = [];
    let chatId: string | undefined;
    const done = (async () => {
      for await (const line of client.stream(QUESTION)) {
        seen.push(line as { id: string });
        if (seen.length === 3) chatId = (line as { state?: { chatId: string } }).state?.chatId ?? chatId;
      }
    })();
    await expect.poll(() => seen.length).toBe(3);
    const cutoff = seen[0] as unknown as { state: { chatId: string } };
    await client.abort(cutoff.state.chatId);
    await done;
    expect(seen.slice(3).map((line) => line.id)).toEqual(['__aborted__', '__usage__']);
    expect(replay.aborts).toEqual([{ chatId: cutoff.state.chatId }]);
    expect((await replay.fetch('https://example.test/elsewhere')).status).toBe(404);
  });

  it('refuses to be created without a transcript', () => {
    expect(() => createReplayFetch({})).toThrow(TypeError);
  });
});
