/**
 * A scripted Chat API server for tests, on a real `node:http` socket (127.0.0.1, port 0). It
 * speaks the protocol of protocol 2.8, 3, 4.4, 5, 7 and behaviour 1 closely
 * enough to test clients against it, and records every request so tests can assert exactly what a
 * client sent. A stand-in until the emulator exists; small on purpose.
 *
 * The model: a thread holds runs; a run is the agent answering one input. A run emits its lines on
 * a timer whether or not anyone listens, like the service; a response subscribes to a run. So a
 * client that drops and resends the same `messageId` joins the same run (3), whose lines so far
 * are replayed first in the form chosen by `replay`.
 *
 * Choices where the documents are silent (stated so tests do not mistake them for the service):
 * - A read (`chatId`, no `input`) during a run answers the snapshot; only a request with `input`
 *   and another `messageId` is refused as busy.
 * - The same `messageId` as the thread's finished last run replays that run and its end again.
 * - Abort without credentials answers 401 `{"error"}`; abort with an API key and no
 *   `sessionSettings` is allowed (the key holder is the account admin).
 * - A chat request for a thread the caller does not own answers 404, like an unknown one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import {
  CHAT_ABORT_PATH,
  CHAT_STREAM_PATH,
  STREAMING_IN_PROGRESS,
  createRpcAuthError,
  validateChatRequest,
  type ChatRequest,
  type SessionSettings,
} from '../../src/core/protocol/chat';

/** Path of `{ai_url}` on this server. */
export const AGENT_PATH = '/api/v1/public/acme/agents/analyst';
/** The API key the server accepts by default. */
export const TEST_API_KEY = 'test-api-key';
/** Deployment tokens the server accepts by default, mapped to the user they stand for. */
export const TEST_TOKENS: Readonly<Record<string, string>> = { 'token-alice': 'alice', 'token-bob': 'bob' };

/** A reply step that pauses the run until {@link ChatServer.release} (or an abort). */
export const HOLD = Symbol('hold');
/** A reply step sent as raw text, for malformed lines. */
export class RawLine {
  constructor(readonly text: string) {}
}
/** One step of a scripted reply: a line object (valid or not), raw text, or {@link HOLD}. */
export type ReplyStep = Record<string, unknown> | RawLine | typeof HOLD;
type Line = Record<string, unknown>;

/**
 * How a resubscription replays the run so far:
 * - `lines`: the same lines again from the start of the run;
 * - `coalesced`: the same, with consecutive deltas of one message merged into one line;
 * - `thread`: the read-a-thread form: every message of the thread as a full `isDelta: false` line.
 */
export type ReplayMode = 'lines' | 'coalesced' | 'thread';

/** A fault applied to the next chat request(s). `afterLines` counts lines written in that response. */
export type ChatFault =
  | { type: 'status'; status: number; body?: unknown }
  | { type: 'rpcError' }
  | { type: 'cut'; afterLines: number }
  | { type: 'errorLine'; afterLines: number; message: string }
  | { type: 'suspend'; afterLines: number; retryable?: boolean };

/** A request as the server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lowercased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
}

export interface ChatServerOptions {
  /** Accepted API key; default {@link TEST_API_KEY}. */
  apiKey?: string;
  /** Accepted tokens mapped to their user; default {@link TEST_TOKENS}. */
  tokens?: Record<string, string>;
  /** The agent's reply to an input; default {@link defaultReply}. */
  reply?: (request: ChatRequest) => ReplyStep[];
  /** Replay form of a resubscription; default `lines`. Can be changed on the server later. */
  replay?: ReplayMode;
  /** A busy thread answers 409 (`status`, default) or an `{"error"}` line in a 200 (`line`). */
  busy?: 'status' | 'line';
  /** Delay between two lines of a run; default 1 ms. */
  lineDelayMs?: number;
}

export interface ChatServer {
  /** `{ai_url}` of this server. */
  url: string;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Requests to the chat endpoint. */
  chatRequests(): RecordedRequest[];
  /** Requests to the abort endpoint. */
  abortRequests(): RecordedRequest[];
  /** Applies `fault` to the next `times` chat requests (default 1; `Infinity` for all). */
  fault(fault: ChatFault, times?: number): void;
  /** Drops every fault not used yet. */
  clearFaults(): void;
  /** Lets every held run go on. */
  release(): void;
  /** What a client reading the last run of `chatId` without interruption would have received. */
  transcript(chatId: string): Line[];
  /** Resolves once a run of the thread is held at a {@link HOLD} step; also returns the chatId. */
  held(): Promise<string>;
  replay: ReplayMode;
  busy: 'status' | 'line';
  close(): Promise<void>;
}

/** A usage line; the numbers are made up but shaped like the service's. */
export const USAGE_LINE: Line = {
  id: '__usage__',
  type: 'usage',
  usage: {
    models: ['test-model'],
    llmCalls: 1,
    inputTokens: 10,
    outputTokens: 5,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    totalTokens: 15,
  },
};

/**
 * The default reply: thinking and content deltas (with multi-byte characters), a tool call start
 * and result sharing an id, and a final answer.
 */
export function defaultReply(request: ChatRequest): ReplyStep[] {
  const agent = ['service_data_analyst_agent'];
  return [
    {
      id: 'a1',
      role: 'assistant',
      content: '',
      thinking: 'Die Frage: ',
      graphPath: agent,
      isInProcess: true,
      isDelta: true,
      sort: 2,
    },
    {
      id: 'a1',
      role: 'assistant',
      content: '',
      thinking: `„${request.input ?? ''}“ 🤔`,
      graphPath: agent,
      isInProcess: true,
      isDelta: true,
      sort: 2,
    },
    {
      id: 't1',
      role: 'assistant',
      toolCall: { name: 'serviceMeta', input: '{"searchQuery":"revenue"}' },
      graphPath: [...agent, 'tools'],
      isInProcess: true,
      isDelta: false,
      sort: 3,
    },
    {
      id: 't1',
      role: 'assistant',
      toolCall: {
        name: 'serviceMeta',
        input: '{"searchQuery":"revenue"}',
        result: '{"cubes":[],"searchQuery":"revenue"}',
      },
      graphPath: [...agent, 'tools'],
      isInProcess: false,
      isDelta: false,
      sort: 4,
    },
    {
      id: 'f1',
      role: 'assistant',
      content: 'Umsatz wächst ',
      graphPath: ['final'],
      isInProcess: true,
      isDelta: true,
      sort: 5,
    },
    {
      id: 'f1',
      role: 'assistant',
      content: 'um 12 % 📈',
      graphPath: ['final'],
      isInProcess: true,
      isDelta: true,
      sort: 5,
    },
    { id: 'f1', role: 'assistant', content: '.', graphPath: ['final'], isInProcess: false, isDelta: true, sort: 5 },
  ];
}

/** Folds lines into whole messages (deltas appended, others replace), in order of first appearance. */
export function foldMessages(lines: readonly Line[]): Line[] {
  const messages = new Map<string, Line>();
  for (const line of lines) {
    const id = line.id as string;
    const previous = messages.get(id);
    if (line.isDelta === true && previous) {
      messages.set(id, {
        ...previous,
        ...line,
        content: `${(previous.content as string | undefined) ?? ''}${(line.content as string | undefined) ?? ''}`,
        thinking: `${(previous.thinking as string | undefined) ?? ''}${(line.thinking as string | undefined) ?? ''}`,
        isDelta: false,
      });
    } else messages.set(id, { ...line, isDelta: false });
  }
  return [...messages.values()];
}

function coalesce(lines: readonly Line[]): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    const last = out[out.length - 1];
    if (line.isDelta === true && last && last.isDelta === true && last.id === line.id) {
      const merged: Line = { ...last, ...line };
      for (const field of ['content', 'thinking'] as const) {
        if (last[field] !== undefined || line[field] !== undefined) {
          merged[field] = `${(last[field] as string | undefined) ?? ''}${(line[field] as string | undefined) ?? ''}`;
        }
      }
      out[out.length - 1] = merged;
    } else out.push(line);
  }
  return out;
}

type RunEvent = { type: 'line'; line: Line | RawLine } | { type: 'end' };

interface Run {
  messageId: string | undefined;
  /** Lines emitted so far (the user echo and the reply). */
  log: (Line | RawLine)[];
  /** Closing lines once the run is over: `__state__` + `__usage__`, or `__aborted__` + `__usage__`. */
  end: Line[] | undefined;
  listeners: Set<(event: RunEvent) => void>;
  release: (() => void) | undefined;
  aborted: boolean;
}

interface Thread {
  chatId: string;
  owner: string | undefined;
  runs: Run[];
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Writes lines in order, each in awkward pieces, and applies a response's fault. */
class LineWriter {
  private queue: Promise<void> = Promise.resolve();
  private written = 0;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly fault: ChatFault | undefined,
    private readonly messageId: string | undefined,
  ) {
    res.on('close', () => {
      this.closed = true;
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  write(line: Line | RawLine): void {
    this.queue = this.queue.then(() => this.writeNow(line));
  }

  end(): void {
    this.queue = this.queue.then(() => {
      if (!this.closed) this.res.end();
      this.closed = true;
    });
  }

  private async writeNow(line: Line | RawLine): Promise<void> {
    if (this.closed) return;
    const fault = this.fault;
    if (fault && fault.type !== 'status' && fault.type !== 'rpcError' && this.written === fault.afterLines) {
      if (fault.type === 'cut') {
        this.closed = true;
        this.res.socket?.destroy();
        return;
      }
      const last =
        fault.type === 'errorLine'
          ? { error: fault.message }
          : {
              id: '__suspended__',
              type: 'suspend',
              code: 'chat_suspended',
              retryable: fault.retryable ?? true,
              messageId: this.messageId,
              error: 'The server restarted; resend the same request to resume',
            };
      this.written = Number.NaN; // the fault fires once
      await this.pieces(`${JSON.stringify(last)}\n`);
      this.closed = true;
      this.res.end();
      return;
    }
    this.written += 1;
    await this.pieces(`${line instanceof RawLine ? line.text : JSON.stringify(line)}\n`);
  }

  /**
   * Writes `text` in pieces cut after the first byte, inside the first multi-byte character, in
   * the middle, and before the newline, yielding to the event loop in between so they tend to
   * arrive as separate chunks.
   */
  private async pieces(text: string): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    const cuts = new Set<number>([1, Math.floor(bytes.length / 2), bytes.length - 1]);
    const multiByte = bytes.findIndex((byte) => byte >= 0xc0);
    if (multiByte !== -1) cuts.add(multiByte + 1);
    let start = 0;
    for (const cut of [...cuts]
      .filter((c) => c > 0 && c < bytes.length)
      .sort((a, b) => a - b)
      .concat(bytes.length)) {
      if (this.closed) return;
      this.res.write(bytes.subarray(start, cut));
      start = cut;
      await tick();
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function identityOf(settings: SessionSettings | undefined): string | undefined {
  return settings?.externalId ?? settings?.internalId;
}

/** Starts the server. Close it in `afterAll`. */
export async function startChatServer(options: ChatServerOptions = {}): Promise<ChatServer> {
  const apiKey = options.apiKey ?? TEST_API_KEY;
  const tokens = options.tokens ?? TEST_TOKENS;
  const reply = options.reply ?? defaultReply;
  const lineDelayMs = options.lineDelayMs ?? 1;
  const threads = new Map<string, Thread>();
  const requests: RecordedRequest[] = [];
  const faults: { fault: ChatFault; times: number }[] = [];
  const heldWaiters: ((chatId: string) => void)[] = [];
  const heldChats: string[] = [];

  function takeFault(): ChatFault | undefined {
    const entry = faults[0];
    if (!entry) return undefined;
    entry.times -= 1;
    if (entry.times <= 0) faults.shift();
    return entry.fault;
  }

  /** Who calls, or undefined when the credential is refused. Authorization wins over the token (5.6). */
  function authenticate(
    headers: Record<string, string>,
  ): { kind: 'apiKey' } | { kind: 'token'; user: string } | undefined {
    const authorization = headers.authorization;
    if (authorization !== undefined) return authorization === `Api-Key ${apiKey}` ? { kind: 'apiKey' } : undefined;
    const token = headers['x-service-auth-token'];
    const user = token === undefined ? undefined : tokens[token];
    return user === undefined ? undefined : { kind: 'token', user };
  }

  function stateLine(thread: Thread): Line {
    const messages = foldMessages(
      thread.runs.flatMap((run) =>
        run.log.filter(
          (l): l is Line => !(l instanceof RawLine) && typeof l.id === 'string' && typeof l.role === 'string',
        ),
      ),
    );
    return { id: '__state__', role: 'assistant', state: { messages }, isDelta: false, sort: 1000 };
  }

  function cutoff(thread: Thread, isStreaming: boolean): Line {
    return { id: '__cutoff__', role: 'assistant', state: { isStreaming, chatId: thread.chatId }, sort: 0 };
  }

  function emit(run: Run, event: RunEvent): void {
    if (event.type === 'line') run.log.push(event.line);
    for (const listener of run.listeners) listener(event);
  }

  function finish(run: Run, thread: Thread): void {
    if (run.end) return;
    run.end = run.aborted
      ? [{ id: '__aborted__', type: 'abort', code: 'chat_aborted', error: 'The chat was aborted' }, USAGE_LINE]
      : [stateLine(thread), USAGE_LINE];
    emit(run, { type: 'end' });
  }

  async function drive(run: Run, thread: Thread, steps: ReplyStep[]): Promise<void> {
    for (const step of steps) {
      if (run.aborted) break;
      if (step === HOLD) {
        await new Promise<void>((resolve) => {
          run.release = resolve;
          heldChats.push(thread.chatId);
          for (const waiter of heldWaiters.splice(0)) waiter(thread.chatId);
        });
        run.release = undefined;
        continue;
      }
      await sleep(lineDelayMs);
      if (run.aborted) break;
      emit(run, { type: 'line', line: step });
    }
    finish(run, thread);
  }

  /** Answers with the run: cutoff, what it emitted so far (in the replay form), then live lines. */
  function subscribe(
    res: ServerResponse,
    thread: Thread,
    run: Run,
    resubscribing: boolean,
    fault: ChatFault | undefined,
  ): void {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    // Send the 200 now, so a cut after 0 lines is a stream that started, not a refused request.
    res.flushHeaders();
    const writer = new LineWriter(res, fault, run.messageId);
    writer.write(cutoff(thread, run.end === undefined));
    const sofar = run.log.filter((l): l is Line => !(l instanceof RawLine));
    const replayed = !resubscribing
      ? run.log
      : server.replay === 'lines'
        ? run.log
        : server.replay === 'coalesced'
          ? coalesce(sofar)
          : foldMessages(
              thread.runs.flatMap((r) => (r === run ? sofar : r.log.filter((l): l is Line => !(l instanceof RawLine)))),
            );
    for (const line of replayed) writer.write(line);
    const closeWith = (lines: Line[]) => {
      for (const line of lines) writer.write(line);
      writer.end();
    };
    if (run.end) {
      closeWith(run.end);
      return;
    }
    const listener = (event: RunEvent) => {
      if (event.type === 'line') writer.write(event.line);
      else closeWith(run.end ?? []);
    };
    run.listeners.add(listener);
    res.on('close', () => run.listeners.delete(listener));
  }

  async function handleChat(req: RecordedRequest, res: ServerResponse): Promise<void> {
    const fault = takeFault();
    if (fault?.type === 'status')
      return sendJson(res, fault.status, fault.body ?? { error: `Injected HTTP ${fault.status}` });
    const caller = authenticate(req.headers);
    if (!caller || fault?.type === 'rpcError') return sendJson(res, 200, createRpcAuthError());
    if (typeof req.body === 'string') return sendJson(res, 400, { error: 'Body must be JSON' });
    const checked = validateChatRequest(req.body, { auth: caller.kind });
    if (!checked.ok) return sendJson(res, 400, { error: checked.problems.join('; ') });
    const request = checked.value;
    const user = caller.kind === 'token' ? caller.user : identityOf(request.sessionSettings);

    let thread: Thread | undefined;
    if (request.chatId !== undefined) {
      thread = threads.get(request.chatId);
      if (!thread || thread.owner !== user) return sendJson(res, 404, { error: 'Chat not found' });
    }
    const last = thread?.runs[thread.runs.length - 1];
    if (thread && request.input === undefined) {
      // A read: the thread's state, every message whole (behaviour 1).
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const writer = new LineWriter(res, fault, undefined);
      writer.write(cutoff(thread, last !== undefined && last.end === undefined));
      for (const line of foldMessages(
        thread.runs.flatMap((r) => r.log.filter((l): l is Line => !(l instanceof RawLine))),
      ))
        writer.write(line);
      writer.write(stateLine(thread));
      writer.write(USAGE_LINE);
      writer.end();
      return;
    }
    if (thread && last && last.messageId !== undefined && last.messageId === request.messageId) {
      return subscribe(res, thread, last, true, fault);
    }
    if (thread && last && last.end === undefined) {
      if (server.busy === 'status') return sendJson(res, 409, { error: STREAMING_IN_PROGRESS });
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.end(`${JSON.stringify({ error: STREAMING_IN_PROGRESS })}\n`);
      return;
    }
    if (!thread) {
      thread = { chatId: randomUUID(), owner: user, runs: [] };
      threads.set(thread.chatId, thread);
    }
    const run: Run = {
      messageId: request.messageId,
      log: [],
      end: undefined,
      listeners: new Set(),
      release: undefined,
      aborted: false,
    };
    thread.runs.push(run);
    const echo: Line = {
      id: request.messageId ?? `${Date.now()}-message`,
      role: 'user',
      content: request.input ?? '',
      isDelta: false,
      sort: 1,
    };
    subscribe(res, thread, run, false, fault);
    void drive(run, thread, [echo, ...reply(request)]);
  }

  function handleAbort(req: RecordedRequest, res: ServerResponse): void {
    const caller = authenticate(req.headers);
    if (!caller) return sendJson(res, 401, { error: 'Unauthorized' });
    const body = req.body as { chatId?: unknown; sessionSettings?: SessionSettings } | string;
    if (typeof body !== 'object' || body === null || typeof body.chatId !== 'string')
      return sendJson(res, 400, { error: 'chatId is required' });
    const thread = threads.get(body.chatId);
    if (!thread) return sendJson(res, 404, { error: 'Chat not found' });
    const user = caller.kind === 'token' ? caller.user : identityOf(body.sessionSettings);
    if (!(caller.kind === 'apiKey' && user === undefined) && user !== thread.owner) {
      return sendJson(res, 403, { error: 'You do not own this chat' });
    }
    const run = thread.runs[thread.runs.length - 1];
    if (run && run.end === undefined) {
      run.aborted = true;
      run.release?.();
      finish(run, thread);
    }
    res.writeHead(204);
    res.end();
  }

  const http = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body: unknown = text;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // keep the text
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0] ?? '',
        headers,
        body,
      };
      requests.push(recorded);
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'Method not allowed' });
      if (recorded.path === AGENT_PATH + CHAT_STREAM_PATH) return handleChat(recorded, res);
      if (recorded.path === AGENT_PATH + CHAT_ABORT_PATH) return handleAbort(recorded, res);
      return sendJson(res, 404, { error: 'Not found' });
    })().catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  const server: ChatServer = {
    url: `http://127.0.0.1:${port}${AGENT_PATH}`,
    requests,
    chatRequests: () => requests.filter((r) => r.path === AGENT_PATH + CHAT_STREAM_PATH),
    abortRequests: () => requests.filter((r) => r.path === AGENT_PATH + CHAT_ABORT_PATH),
    fault(fault, times = 1) {
      faults.push({ fault, times });
    },
    clearFaults() {
      faults.length = 0;
    },
    release() {
      heldChats.length = 0;
      for (const thread of threads.values()) for (const run of thread.runs) run.release?.();
    },
    transcript(chatId) {
      const thread = threads.get(chatId);
      const run = thread?.runs[thread.runs.length - 1];
      if (!thread || !run) throw new Error(`No run for chat ${chatId}`);
      return [cutoff(thread, true), ...run.log.filter((l): l is Line => !(l instanceof RawLine)), ...(run.end ?? [])];
    },
    held() {
      const chatId = heldChats.shift();
      if (chatId !== undefined) return Promise.resolve(chatId);
      return new Promise((resolve) => heldWaiters.push(resolve));
    },
    replay: options.replay ?? 'lines',
    busy: options.busy ?? 'status',
    close() {
      for (const thread of threads.values()) for (const run of thread.runs) run.release?.();
      http.closeAllConnections();
      return new Promise((resolve, reject) => http.close((error) => (error ? reject(error) : resolve())));
    },
  };
  return server;
}

// ---------------------------------------------------------------------------------------------
// A scripted connection pattern, for how a client paces its resends

/**
 * What a service does with connection `index` of one answer (0 for the first request, then one
 * per resend): how many of the answer's message lines it sends from the start (what the client
 * has is sent again, as the service replays), and then whether it drops the connection, keeps it
 * open until {@link ScriptedChatServer.release} and then drops it, or ends the answer.
 */
export type ConnectionScript = (index: number) => { lines: number; then: 'drop' | 'hold' | 'end' };

/** A server that answers every chat request by a {@link ConnectionScript}; see {@link startScriptedChatServer}. */
export interface ScriptedChatServer {
  /** `{ai_url}` of this server. */
  url: string;
  /** Chat requests so far: one per connection. */
  connections(): number;
  /** Drops the held connection. */
  release(): void;
  close(): Promise<void>;
}

/**
 * Starts a chat server that plays `script`, whoever asks: `__cutoff__` of one thread, then
 * assistant messages `m0`, `m1`... (whole lines), then a drop or the end. It keeps no timers, so
 * a test may fake the clock of the client.
 */
export async function startScriptedChatServer(script: ConnectionScript): Promise<ScriptedChatServer> {
  const chatId = '00000000-0000-4000-8000-00000000c0de';
  let connections = 0;
  let holding: { release(): void } | undefined;
  const http = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { lines, then } = script(connections++);
      const out: Line[] = [{ id: '__cutoff__', role: 'assistant', state: { isStreaming: true, chatId }, sort: 0 }];
      for (let index = 0; index < lines; index++) {
        out.push({ id: `m${index}`, role: 'assistant', content: `line ${index}`, isDelta: false, sort: index + 1 });
      }
      if (then === 'end') out.push(USAGE_LINE);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const drop = () => res.socket?.destroy();
      res.write(out.map((line) => `${JSON.stringify(line)}\n`).join(''), () => {
        if (then === 'end') res.end();
        else if (then === 'drop') drop();
        else holding = { release: drop };
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${AGENT_PATH}`,
    connections: () => connections,
    release() {
      holding?.release();
      holding = undefined;
    },
    close() {
      http.closeAllConnections();
      return new Promise((resolve, reject) => http.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
