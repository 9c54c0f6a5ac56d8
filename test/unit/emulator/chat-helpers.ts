/** Helpers of the emulator's chat tests: real sockets, real tokens, lines read as they arrive. */
import { createMessageId } from '../../../src/core/protocol/chat';
import { readNdjson } from '../../../src/core/ndjson';
import { ADMIN_API_KEY, WORLD, signDeploymentToken, type RunningEmulator } from '../../../src/emulator';
import type { Clock } from '../../../src/emulator';

/** A line of a chat answer, parsed. */
export type Line = Record<string, unknown>;

let sequence = 0;
/** A fresh, valid `messageId` (increasing, unique in this process). */
export function newMessageId(): string {
  sequence += 1;
  return createMessageId(1_732_512_345_678 + sequence);
}

/** How a test request authenticates. */
export type TestAuth = { apiKey: string } | { token: string } | 'none';

/** Headers of `auth`. */
export function authHeaders(auth: TestAuth = { apiKey: ADMIN_API_KEY }): Record<string, string> {
  if (auth === 'none') return {};
  return 'apiKey' in auth ? { authorization: `Api-Key ${auth.apiKey}` } : { 'x-service-auth-token': auth.token };
}

/** Options of {@link post}. */
export interface PostOptions {
  auth?: TestAuth;
  headers?: Record<string, string>;
  /** `{ai_url}`-like base; default the emulator's `aiUrl`. */
  base?: string;
  /** `stream` (default) or `abort`. */
  endpoint?: 'stream' | 'abort';
  /** Raw body text instead of JSON. */
  raw?: string;
}

/** POSTs to the chat or abort endpoint. */
export function post(emulator: RunningEmulator, body: unknown, options: PostOptions = {}): Promise<Response> {
  const path = options.endpoint === 'abort' ? '/chat/abort' : '/chat/stream-chat-state';
  return fetch(`${options.base ?? emulator.aiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(options.auth), ...options.headers },
    body: options.raw ?? JSON.stringify(body),
  });
}

/** Parses an NDJSON text. */
export function parseLines(text: string): Line[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

/** A chat request read to its end: status, content type, lines. */
export async function chat(
  emulator: RunningEmulator,
  body: unknown,
  options: PostOptions = {},
): Promise<{ status: number; type: string | null; lines: Line[]; text: string }> {
  const response = await post(emulator, body, options);
  const text = await response.text();
  let lines: Line[] = [];
  try {
    lines = parseLines(text);
  } catch {
    // Not NDJSON (a plain error body that is not JSON): leave `lines` empty, the test reads `text`.
  }
  return { status: response.status, type: response.headers.get('content-type'), lines, text };
}

/** A streamed answer read line by line as it arrives. */
export interface OpenStream {
  status: number;
  /** The next line; rejects when the body breaks, `undefined` at its end. */
  next(): Promise<Line | undefined>;
  /** Reads `count` lines. */
  take(count: number): Promise<Line[]>;
  /** Reads to the end. */
  rest(): Promise<Line[]>;
  /** Stops reading and closes the connection. */
  close(): Promise<void>;
}

/** Opens a chat request and reads its lines incrementally (for "while streaming" rules). */
export async function open(emulator: RunningEmulator, body: unknown, options: PostOptions = {}): Promise<OpenStream> {
  const response = await post(emulator, body, options);
  if (!response.body) throw new Error('no body');
  const lines = readNdjson(response.body);
  const next = async () => {
    const result = await lines.next();
    return result.done ? undefined : (result.value as Line);
  };
  return {
    status: response.status,
    next,
    async take(count) {
      const taken: Line[] = [];
      while (taken.length < count) {
        const line = await next();
        if (line === undefined) throw new Error(`The stream ended after ${taken.length} of ${count} lines`);
        taken.push(line);
      }
      return taken;
    },
    async rest() {
      const all: Line[] = [];
      for (let line = await next(); line !== undefined; line = await next()) all.push(line);
      return all;
    },
    async close() {
      await lines.return(undefined);
    },
  };
}

/** Folds message lines (deltas appended, others replace) into whole messages by id, in arrival order. */
export function fold(lines: readonly Line[]): Map<string, Line> {
  const messages = new Map<string, Line>();
  for (const line of lines) {
    const id = line['id'];
    if (typeof id !== 'string' || id.startsWith('__')) continue;
    const previous = messages.get(id);
    if (line['isDelta'] === true && previous) {
      messages.set(id, {
        ...previous,
        ...line,
        content: `${(previous['content'] as string | undefined) ?? ''}${(line['content'] as string | undefined) ?? ''}`,
        thinking: `${(previous['thinking'] as string | undefined) ?? ''}${(line['thinking'] as string | undefined) ?? ''}`,
        isDelta: false,
      });
    } else messages.set(id, { ...line, isDelta: false });
  }
  return messages;
}

/** The `toolCall` of the result line of the first tool call named `name`, parsed. */
export function toolResult(
  lines: readonly Line[],
  name: string,
): { input: Record<string, unknown>; result: Record<string, unknown> } | undefined {
  for (const line of lines) {
    const toolCall = line['toolCall'] as { name: string; input: string; result?: string } | undefined;
    if (toolCall?.name === name && toolCall.result !== undefined) {
      return {
        input: JSON.parse(toolCall.input) as Record<string, unknown>,
        result: JSON.parse(toolCall.result) as Record<string, unknown>,
      };
    }
  }
  return undefined;
}

/** The final answer (4.4) among folded messages. */
export function finalAnswer(lines: readonly Line[]): Line | undefined {
  return [...fold(lines).values()]
    .filter((message) => (message['graphPath'] as string[] | undefined)?.[0] === 'final')
    .at(-1);
}

/** A chat deployment token for deployment `deploymentId`, issued at the clock's time. */
export function chatToken(
  clock: Clock,
  claims: Record<string, unknown>,
  deploymentId = 1,
  expiresInSeconds = 3600,
): Promise<string> {
  return signDeploymentToken(WORLD, { deploymentId, claims, now: clock.now(), expiresInSeconds });
}
