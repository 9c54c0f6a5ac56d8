import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readNdjson } from '../../../src/core/ndjson';
import { ServiceAbortError, ServiceConfigError, ServiceStreamError } from '../../../src/core/errors';

const encoder = new TextEncoder();

interface TestBody {
  body: ReadableStream<Uint8Array>;
  /** Reasons passed to the stream's `cancel`, one per call. */
  cancels: unknown[];
  /** How many chunks the reader pulled. */
  pulls(): number;
}

/** A body that serves `chunks` one per pull, then ends (or, with `hang`, never ends). */
function bodyOf(chunks: readonly Uint8Array[], options: { hang?: boolean } = {}): TestBody {
  const cancels: unknown[] = [];
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[index++];
        if (chunk) controller.enqueue(chunk);
        else if (options.hang) return new Promise<void>(() => {});
        else controller.close();
        return undefined;
      },
      cancel(reason) {
        cancels.push(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, cancels, pulls: () => index };
}

/** Cuts `bytes` at the given offsets (any order, duplicates ignored). */
function cut(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const points = [...new Set(offsets.filter((o) => o > 0 && o < bytes.length))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks;
}

function bytesOf(text: string): Uint8Array {
  return encoder.encode(text);
}

async function readAll(
  chunks: readonly Uint8Array[],
): Promise<{ values: unknown[]; malformed: string[]; errors: unknown[] }> {
  const malformed: string[] = [];
  const errors: unknown[] = [];
  const values: unknown[] = [];
  for await (const value of readNdjson(bodyOf(chunks).body, {
    onMalformedLine: (line, error) => {
      malformed.push(line);
      errors.push(error);
    },
  })) {
    values.push(value);
  }
  return { values, malformed, errors };
}

/** The reference: decode the whole text, then parse it line by line. */
function parseLineByLine(bytes: Uint8Array): { values: unknown[]; malformed: string[] } {
  const values: unknown[] = [];
  const malformed: string[] = [];
  for (const rawLine of new TextDecoder().decode(bytes).split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      malformed.push(line);
    }
  }
  return { values, malformed };
}

const TRANSCRIPT = [
  { id: '__cutoff__', role: 'assistant', state: { isStreaming: false, chatId: 'c1' }, sort: 0 },
  { id: '1732512345678-message', role: 'user', content: 'Umsatz für Café Ünïcødé 📈 売上高', isDelta: false, sort: 1 },
  { id: 'a1', role: 'assistant', content: 'Hello 👋🏽 wörld — 日本語', isDelta: true, sort: 3 },
];

describe('readNdjson', () => {
  it('behaviour 1 Stream: yields one value per line of an NDJSON body', async () => {
    const text = TRANSCRIPT.map((value) => JSON.stringify(value)).join('\n') + '\n';
    const { values, malformed } = await readAll([bytesOf(text)]);
    expect(values).toEqual(TRANSCRIPT);
    expect(malformed).toEqual([]);
  });

  it('reads the same values whatever the chunking: every single cut point and one byte per chunk', async () => {
    const bytes = bytesOf(TRANSCRIPT.map((value) => JSON.stringify(value)).join('\n') + '\n');
    for (let point = 1; point < bytes.length; point++) {
      expect((await readAll(cut(bytes, [point]))).values).toEqual(TRANSCRIPT);
    }
    const oneByteChunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect((await readAll(oneByteChunks)).values).toEqual(TRANSCRIPT);
  });

  it.each([
    ['an emoji (4 bytes)', '📈'],
    ['an emoji with a skin-tone modifier (2 × 4 bytes)', '👋🏽'],
    ['CJK (3 bytes)', '売上高'],
    ['accented Latin (2 bytes)', 'Café Ünïcødé'],
  ])('decodes %s split across chunks at every byte', async (_name, sample) => {
    const value = { content: `${sample}|${sample}` };
    const bytes = bytesOf(JSON.stringify(value) + '\n');
    const start = bytes.indexOf(bytesOf(sample)[0]!);
    for (let point = start; point <= start + bytesOf(sample).length; point++) {
      const { values, malformed } = await readAll(cut(bytes, [point]));
      expect(values).toEqual([value]);
      expect(malformed).toEqual([]);
    }
    expect((await readAll(Array.from(bytes, (byte) => Uint8Array.of(byte)))).values).toEqual([value]);
  });

  it('accepts CRLF line endings, also when the CR and LF arrive in different chunks', async () => {
    const bytes = bytesOf('{"a":1}\r\n{"b":"x\\r"}\r\n');
    const point = bytes.indexOf(13);
    for (const chunks of [[bytes], cut(bytes, [point + 1])]) {
      const { values, malformed } = await readAll(chunks);
      expect(values).toEqual([{ a: 1 }, { b: 'x\r' }]);
      expect(malformed).toEqual([]);
    }
  });

  it('skips blank and whitespace-only lines without reporting them', async () => {
    const { values, malformed } = await readAll([bytesOf('\n{"a":1}\n\n   \n\r\n\t\n{"b":2}\n\n')]);
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
    expect(malformed).toEqual([]);
  });

  it('reads a last line without a trailing newline', async () => {
    expect((await readAll([bytesOf('{"a":1}\n{"b":'), bytesOf('2}')])).values).toEqual([{ a: 1 }, { b: 2 }]);
    expect((await readAll([bytesOf('{"a":1}\r\n{"b":2}\r')])).values).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('reads an empty body as no values', async () => {
    expect((await readAll([])).values).toEqual([]);
  });

  it('reports a malformed line through onMalformedLine, skips it and reads the rest', async () => {
    const { values, malformed, errors } = await readAll([bytesOf('{"a":1}\n{"broken":\r\n{"b":2}\nnot json\n{"c":3}')]);
    expect(values).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(malformed).toEqual(['{"broken":', 'not json']);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toBeInstanceOf(SyntaxError);
  });

  it('reports a malformed line in its turn: after the values before it are taken, before the ones after it', async () => {
    // One chunk holds all three lines, so the reader parses them together before handing any out.
    const log: string[] = [];
    const body = bodyOf([bytesOf('{"a":1}\nnot json\n{"b":2}\n')]).body;
    for await (const value of readNdjson(body, { onMalformedLine: (line) => log.push(`malformed ${line}`) })) {
      log.push(`value ${JSON.stringify(value)}`);
    }
    expect(log).toEqual(['value {"a":1}', 'malformed not json', 'value {"b":2}']);
  });

  it('skips a malformed line silently when there is no onMalformedLine', async () => {
    const values: unknown[] = [];
    for await (const value of readNdjson(bodyOf([bytesOf('{"a":1}\n{oops\n{"b":2}\n')]).body)) values.push(value);
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('releases the body when the stream ends', async () => {
    const { body, cancels } = bodyOf([bytesOf('{"a":1}\n')]);
    for await (const _value of readNdjson(body)) {
      // drain
    }
    expect(body.locked).toBe(false);
    expect(cancels).toEqual([]);
  });

  it('cancels the body when the loop breaks early', async () => {
    const { body, cancels, pulls } = bodyOf([bytesOf('{"a":1}\n'), bytesOf('{"b":2}\n'), bytesOf('{"c":3}\n')]);
    const values: unknown[] = [];
    for await (const value of readNdjson(body)) {
      values.push(value);
      break;
    }
    expect(values).toEqual([{ a: 1 }]);
    expect(cancels).toHaveLength(1);
    expect(pulls()).toBe(1);
    expect(body.locked).toBe(false);
  });

  it('abort while waiting for bytes cancels the body and throws ServiceAbortError', async () => {
    const { body, cancels } = bodyOf([bytesOf('{"a":1}\n')], { hang: true });
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const values: unknown[] = [];
    const reading = (async () => {
      for await (const value of readNdjson(body, { signal: controller.signal })) {
        values.push(value);
        // The next read hangs forever: only the abort can end it.
        setTimeout(() => controller.abort(reason), 0);
      }
    })();
    const error = await reading.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(ServiceAbortError.isInstance(error)).toBe(true);
    expect((error as ServiceAbortError).code).toBe('aborted');
    expect((error as ServiceAbortError).cause).toBe(reason);
    expect(values).toEqual([{ a: 1 }]);
    expect(cancels[0]).toBe(reason);
    expect(body.locked).toBe(false);
  });

  it('abort between two values cancels the body; the next read throws ServiceAbortError', async () => {
    const { body, cancels } = bodyOf([bytesOf('{"a":1}\n{"b":2}\n'), bytesOf('{"c":3}\n')]);
    const controller = new AbortController();
    const iterator = readNdjson(body, { signal: controller.signal });
    expect((await iterator.next()).value).toEqual({ a: 1 });
    controller.abort();
    await expect(iterator.next()).rejects.toSatisfy((error: unknown) => ServiceAbortError.isInstance(error));
    expect(cancels).toHaveLength(1);
    expect(body.locked).toBe(false);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('throws ServiceAbortError at once when the signal is already aborted', async () => {
    const { body } = bodyOf([bytesOf('{"a":1}\n')]);
    const iterator = readNdjson(body, { signal: AbortSignal.abort() });
    await expect(iterator.next()).rejects.toSatisfy((error: unknown) => ServiceAbortError.isInstance(error));
  });

  it('passes on an error of the underlying stream', async () => {
    const failure = new TypeError('network error');
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(bytesOf('{"a":1}\n{"b"'));
        } else controller.error(failure);
      },
    });
    const values: unknown[] = [];
    await expect(
      (async () => {
        for await (const value of readNdjson(body)) values.push(value);
      })(),
    ).rejects.toBe(failure);
    expect(values).toEqual([{ a: 1 }]);
  });

  describe('one chunk of many lines: parsed in batches, the event loop runs between slices', () => {
    const LINES = 100_000;
    const flood = bytesOf(Array.from({ length: LINES }, (_, index) => `{"n":${index}}\n`).join(''));

    /** Reads `flood` from one chunk; counts the turns of a `setImmediate` ticker that run meanwhile. */
    async function readCountingTurns(options: Parameters<typeof readNdjson>[1]) {
      let turns = 0;
      let reading = true;
      const tick = () => {
        if (!reading) return;
        turns += 1;
        setImmediate(tick);
      };
      setImmediate(tick);
      let count = 0;
      let inOrder = true;
      for await (const value of readNdjson(bodyOf([flood]).body, options)) {
        inOrder &&= (value as { n: number }).n === count;
        count += 1;
      }
      reading = false;
      return { count, inOrder, turns };
    }

    it('sliceMs 0: a turn every few lines; Infinity: none; the default: some (100,000 lines take more than 5 ms)', async () => {
      const eager = await readCountingTurns({ sliceMs: 0 });
      expect(eager).toMatchObject({ count: LINES, inOrder: true });
      expect(eager.turns).toBeGreaterThanOrEqual(LINES / 16 - 1);
      expect(await readCountingTurns({ sliceMs: Infinity })).toEqual({ count: LINES, inOrder: true, turns: 0 });
      const byDefault = await readCountingTurns({});
      expect(byDefault).toMatchObject({ count: LINES, inOrder: true });
      expect(byDefault.turns).toBeGreaterThan(0);
    });

    it('malformed and too long lines past the first batches keep their turn', async () => {
      const lines = Array.from({ length: 1000 }, (_, index) =>
        index === 600 ? '{oops' : index === 900 ? `"${'x'.repeat(50)}"` : `{"n":${index}}`,
      );
      const malformed: string[] = [];
      const values: unknown[] = [];
      let error: unknown;
      try {
        for await (const value of readNdjson(bodyOf([bytesOf(`${lines.join('\n')}\n`)]).body, {
          maxLineBytes: 40,
          sliceMs: 0,
          onMalformedLine: (line) => malformed.push(`${line} after ${values.length}`),
        }))
          values.push(value);
      } catch (caught) {
        error = caught;
      }
      expect(malformed).toEqual(['{oops after 600']);
      expect(values).toHaveLength(899);
      expect(values.at(-1)).toEqual({ n: 899 });
      expect(ServiceStreamError.isInstance(error) && error.code === 'line_too_long').toBe(true);
    });

    it('refuses a sliceMs that is not a number of milliseconds', async () => {
      for (const sliceMs of [-1, Number.NaN]) {
        await expect(readNdjson(bodyOf([]).body, { sliceMs }).next()).rejects.toSatisfy(
          ServiceConfigError.isInstance.bind(ServiceConfigError),
        );
      }
    });
  });

  describe('maxLineBytes (default 16 MiB)', () => {
    /** Reads until the generator throws; returns the values before it, the error and the pulls. */
    async function readUntilError(test: TestBody, maxLineBytes?: number) {
      const values: unknown[] = [];
      let error: unknown;
      try {
        for await (const value of readNdjson(test.body, maxLineBytes === undefined ? {} : { maxLineBytes }))
          values.push(value);
      } catch (caught) {
        error = caught;
      }
      return { values, error };
    }

    function isLineTooLong(error: unknown): boolean {
      return ServiceStreamError.isInstance(error) && error.code === 'line_too_long';
    }

    it('a line of exactly maxLineBytes is read; one byte more is a ServiceStreamError line_too_long', async () => {
      // 4 bytes of JSON text per character: "é" is 2 bytes, so the limit counts bytes, not characters.
      const line = JSON.stringify('é'.repeat(10)); // 22 bytes
      const ok = await readUntilError(bodyOf([bytesOf(`${line}\n{"next":1}\n`)]), 22);
      expect(ok.error).toBeUndefined();
      expect(ok.values).toEqual(['é'.repeat(10), { next: 1 }]);
      const over = await readUntilError(bodyOf([bytesOf(`{"a":1}\n${JSON.stringify('é'.repeat(10) + 'x')}\n`)]), 22);
      expect(over.values).toEqual([{ a: 1 }]);
      expect(isLineTooLong(over.error)).toBe(true);
      expect((over.error as Error).message).toMatch(/22 bytes/);
    });

    it('counts a line split over many chunks, and the last line without a newline', async () => {
      const chunks = Array.from({ length: 40 }, () => bytesOf('x'.repeat(10)));
      const split = await readUntilError(bodyOf([bytesOf('"'), ...chunks, bytesOf('"\n')]), 300);
      expect(isLineTooLong(split.error)).toBe(true);
      const last = await readUntilError(bodyOf([bytesOf('{"a":1}\n"'), ...chunks]), 300);
      expect(last.values).toEqual([{ a: 1 }]);
      expect(isLineTooLong(last.error)).toBe(true);
    });

    it('a long line inside one big chunk is caught too', async () => {
      const big = bytesOf(`{"a":1}\n"${'y'.repeat(5000)}"\n{"b":2}\n`);
      const result = await readUntilError(bodyOf([big]), 1000);
      expect(result.values).toEqual([{ a: 1 }]);
      expect(isLineTooLong(result.error)).toBe(true);
    });

    it('is reported early: as soon as the line passes the limit, without waiting for its end, and the body is cancelled', async () => {
      // An endless line: 1 KiB chunks with no newline, forever. Without a limit this never ends.
      const chunk = bytesOf('z'.repeat(1024));
      let pulls = 0;
      const cancels: unknown[] = [];
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulls += 1;
            controller.enqueue(chunk);
          },
          cancel(reason) {
            cancels.push(reason);
          },
        },
        { highWaterMark: 0 },
      );
      const { error } = await readUntilError({ body, cancels, pulls: () => pulls }, 64 * 1024);
      expect(isLineTooLong(error)).toBe(true);
      // Memory stays bounded by the limit: it stopped within a chunk of 64 KiB.
      expect(pulls).toBeLessThanOrEqual(65);
      expect(cancels).toHaveLength(1);
    });

    it('the default limit is 16 MiB', async () => {
      const mib = bytesOf('w'.repeat(1024 * 1024));
      let pulls = 0;
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulls += 1;
            if (pulls > 40) controller.close();
            else controller.enqueue(mib);
          },
        },
        { highWaterMark: 0 },
      );
      const { error } = await readUntilError({ body, cancels: [], pulls: () => pulls });
      expect(isLineTooLong(error)).toBe(true);
      expect(pulls).toBe(17);
    });

    it('refuses a maxLineBytes that cannot work', async () => {
      for (const bad of [0, -1, 1.5, Number.NaN, '10' as unknown as number]) {
        await expect(readNdjson(bodyOf([]).body, { maxLineBytes: bad }).next()).rejects.toSatisfy((error: unknown) =>
          ServiceConfigError.isInstance(error),
        );
      }
    });
  });

  describe('property: a transcript cut at random byte offsets reads as its line-by-line parse', () => {
    const value = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
    const line = fc.oneof(
      { weight: 8, arbitrary: value.map((v) => ({ text: JSON.stringify(v), expected: v as unknown })) },
      {
        weight: 1,
        // Broken JSON, possibly with non-ASCII text in it: reported, never fatal.
        arbitrary: fc
          .tuple(
            fc.constantFrom('{"a":', '[1,', 'nul', '{"x":"', '}', 'tru e'),
            fc.string({ unit: 'binary', maxLength: 8 }),
          )
          .map(([head, tail]) => ({ text: (head + tail).replace(/[\r\n]/g, ''), expected: undefined })),
      },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t', '  \t ').map((text) => ({ text, expected: undefined })) },
    );
    const transcript = fc.record({
      lines: fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 25 }),
      finalNewline: fc.boolean(),
    });

    it('values and malformed lines are the same for any chunking', async () => {
      await fc.assert(
        fc.asyncProperty(
          transcript,
          fc.array(fc.nat(), { maxLength: 40 }),
          async ({ lines, finalNewline }, rawOffsets) => {
            let text = lines.map(([l, ending]) => l.text + ending).join('');
            if (!finalNewline && lines.length > 0) text = text.slice(0, -lines.at(-1)![1].length);
            const bytes = bytesOf(text);
            const offsets = rawOffsets.map((offset) => (bytes.length === 0 ? 0 : offset % bytes.length));
            const reference = parseLineByLine(bytes);
            const actual = await readAll(cut(bytes, offsets));
            expect(actual.values).toEqual(reference.values);
            expect(actual.malformed).toEqual(reference.malformed);
            // Every well-formed line round-trips to the value it was written from.
            const written = lines.map(([l]) => l.text).filter((t) => t.trim() !== '' && isJson(t));
            expect(actual.values).toEqual(written.map((t) => JSON.parse(t) as unknown));
          },
        ),
        { numRuns: 300 },
      );
    });

    it('with a maxLineBytes: the same values up to the first longer line, then line_too_long, for any chunking', async () => {
      await fc.assert(
        fc.asyncProperty(
          transcript,
          fc.array(fc.nat(), { maxLength: 40 }),
          fc.integer({ min: 1, max: 60 }),
          async ({ lines }, rawOffsets, limit) => {
            const text = lines.map(([l, ending]) => l.text + ending).join('');
            const bytes = bytesOf(text);
            const offsets = rawOffsets.map((offset) => (bytes.length === 0 ? 0 : offset % bytes.length));
            // The reference: lines before the first one over the limit (its bytes without the line ending).
            const firstLong = lines.findIndex(
              ([l, ending]) => bytesOf(l.text).length + (ending === '\r\n' ? 1 : 0) > limit,
            );
            const kept = firstLong === -1 ? lines : lines.slice(0, firstLong);
            const expected = parseLineByLine(bytesOf(kept.map(([l, ending]) => l.text + ending).join(''))).values;
            const values: unknown[] = [];
            let error: unknown;
            try {
              for await (const value of readNdjson(bodyOf(cut(bytes, offsets)).body, { maxLineBytes: limit }))
                values.push(value);
            } catch (caught) {
              error = caught;
            }
            expect(values).toEqual(expected);
            if (firstLong === -1) expect(error).toBeUndefined();
            else expect(ServiceStreamError.isInstance(error) && error.code === 'line_too_long').toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
