/**
 * The Chat API: request body, stream lines and their sentinels (docs/protocol.md 2.8,
 * 4.4, 7; behaviour 1). The single home of these rules: the chat client, the thread store, the
 * server's chat proxy and the emulator all read them from here.
 *
 * Stream lines are checked by hand rather than with a schema: this runs once per streamed line,
 * thousands of times per answer, and must cost next to nothing.
 *
 * @module
 */
import { isRecord, type ValidationResult } from './shared';

/** Path of the chat endpoint below `{ai_url}` (4.4). */
export const CHAT_STREAM_PATH = '/chat/stream-chat-state';
/** Path of the abort endpoint below `{ai_url}` (4.4). */
export const CHAT_ABORT_PATH = '/chat/abort';

/** Error text of a chat request sent while the thread streams another message (3, 7). */
export const STREAMING_IN_PROGRESS = 'Streaming for thread is in progress';

/**
 * Error text (HTTP 403) of an API key sent to the deployment form of the chat endpoint
 * (`.../deployments/{deploymentId}/chat/stream-chat-state`), which accepts only the deployment
 * token (behaviour 1).
 */
export const AGENT_ID_REQUIRED_FOR_API_KEY = 'agentId is required for Api-Key authentication';

/** Non-ephemeral external users per account that the Chat API will provision (8). */
export const MAX_NON_EPHEMERAL_CHAT_USERS = 10_000;

/** Reserved stream message ids (2.8, behaviour 1). */
export const SENTINEL_IDS = {
  cutoff: '__cutoff__',
  state: '__state__',
  aborted: '__aborted__',
  suspended: '__suspended__',
  usage: '__usage__',
} as const;

/** The graph node of the analyst agent that produces working messages. */
export const AGENT_NODE = 'service_data_analyst_agent';

// ---------------------------------------------------------------------------------------------
// messageId (2.8, 8)

/** `<timestamp>-message`, the timestamp a Unix time in milliseconds of 13 or more digits. */
export const MESSAGE_ID_PATTERN = /^\d{13,}-message$/;

let lastTimestamp = 0;

/**
 * Creates a chat `messageId` (2.8): `<unix ms>-message`.
 *
 * Without `now`, ids are strictly increasing within this page or process even when two inputs
 * arrive in the same millisecond, so a resend can always be told apart from a new input.
 * @param now - Unix time in milliseconds to use instead of the clock (padded to 13 digits).
 */
export function createMessageId(now?: number): string {
  let timestamp: number;
  if (now === undefined) {
    timestamp = Math.max(Date.now(), lastTimestamp + 1);
    lastTimestamp = timestamp;
  } else {
    if (!Number.isSafeInteger(Math.trunc(now)) || now < 0) {
      throw new RangeError('createMessageId: `now` must be a non-negative number');
    }
    timestamp = Math.trunc(now);
  }
  return `${String(timestamp).padStart(13, '0')}-message`;
}

/** True when `value` is a valid `messageId` (2.8): `^\d{13,}-message$`. */
export function isMessageId(value: string): boolean {
  return MESSAGE_ID_PATTERN.test(value);
}

// ---------------------------------------------------------------------------------------------
// Request (2.8)

/** A user attribute given to the chat user (2.8). Names must be configured beforehand. */
export interface ChatUserAttribute {
  /** The attribute name, as defined for the tenant. */
  name: string;
  /** Its value for this user, of the attribute's type; `null` for none. */
  value: string | number | boolean | readonly string[] | readonly number[] | null;
}

/**
 * Who the chat user is, when the caller authenticates with an API key (2.8). Required with an
 * API key, ignored with a deployment token. Give exactly one of `externalId` or `internalId`.
 */
export interface SessionSettings {
  /** Stable id of the external user: lowercase, no spaces. */
  externalId?: string;
  /** Email address of an existing internal user. */
  internalId?: string;
  /** Email of the external user. */
  email?: string;
  /** Exposed to access policies as `userAttributes.<name>`. Not allowed with `internalId`. */
  userAttributes?: readonly ChatUserAttribute[];
  /** Group names. Not allowed with `internalId`. */
  groups?: readonly string[];
  /** Passed to data queries. Not allowed with `internalId`. */
  securityContext?: Record<string, unknown>;
  /** `false` keeps the provisioned user; by default chat users are ephemeral. */
  isEphemeral?: boolean;
  /** Lifetime of an ephemeral user in seconds; default one week. */
  ephemeralTtlSeconds?: number;
  /** IANA time zone (behaviour 1). */
  timezone?: string;
  /** Lets the chat author workspace content (behaviour 1). */
  allowChatWorkspaceAuthoring?: boolean;
}

/** Body of `POST {ai_url}/chat/stream-chat-state` (2.8). */
export interface ChatRequest {
  /** The user's message; omitted, the current state of the thread `chatId` is returned. */
  input?: string;
  /** Omitted: a new thread. Given: a chat id the service returned in `__cutoff__`. */
  chatId?: string;
  /** Client id of this input, `<unix ms>-message`; a resend with the same id resumes the stream. */
  messageId?: string;
  /** Required with API key authentication; never sent with a deployment token. */
  sessionSettings?: SessionSettings;
  /** Development branch the chat queries instead of the main branch. */
  activeBranchName?: string;
  /** Whether `activeBranchName` is the default branch; see `resolveIsDefaultBranch`. */
  isDefaultBranch?: boolean;
}

/** Which credential a chat request carries; decides whether `sessionSettings` is required (2.8, 5). */
export type ChatAuthKind = 'apiKey' | 'token';

/**
 * A rule for an optional field, checked only when the field is present: `[field, test, what it
 * must be]`. One table per object keeps each rule on one line and every message in one form.
 */
type FieldRule = readonly [field: string, test: (value: unknown) => boolean, mustBe: string];

const isString = (value: unknown): value is string => typeof value === 'string';
const isFilledString = (value: unknown): value is string => isString(value) && value !== '';
const isBoolean = (value: unknown): boolean => typeof value === 'boolean';

/** Adds `<prefix><field>: must be <what>` to `problems` for each present field that breaks its rule. */
function checkFields(
  value: Record<string, unknown>,
  prefix: string,
  rules: readonly FieldRule[],
  problems: string[],
): void {
  for (const [field, test, mustBe] of rules) {
    if (value[field] !== undefined && !test(value[field])) problems.push(`${prefix}${field}: must be ${mustBe}`);
  }
}

const SESSION_SETTINGS_RULES: readonly FieldRule[] = [
  ['externalId', (id) => isFilledString(id) && id === id.toLowerCase() && !/\s/.test(id), 'lowercase with no spaces'],
  ['internalId', isFilledString, 'a non-empty string'],
  ['email', isString, 'a string'],
  [
    'userAttributes',
    (list) => Array.isArray(list) && list.every((item) => isRecord(item) && isString(item.name) && 'value' in item),
    'an array of {name: string, value}',
  ],
  ['groups', (list) => Array.isArray(list) && list.every(isString), 'an array of group names'],
  ['securityContext', isRecord, 'an object'],
  ['isEphemeral', isBoolean, 'a boolean'],
  ['ephemeralTtlSeconds', (seconds) => typeof seconds === 'number' && seconds > 0, 'a positive number of seconds'],
  ['timezone', isString, 'an IANA time zone name'],
  ['allowChatWorkspaceAuthoring', isBoolean, 'a boolean'],
];

const FIELDS_NOT_WITH_INTERNAL_ID = ['userAttributes', 'groups', 'securityContext'] as const;

/** Problems of a `sessionSettings` object (2.8); empty when valid. */
export function sessionSettingsProblems(value: unknown, path = 'sessionSettings'): string[] {
  if (!isRecord(value)) return [`${path}: must be an object`];
  const problems: string[] = [];
  if ((value.externalId === undefined) === (value.internalId === undefined)) {
    problems.push(`${path}: externalId and internalId: give exactly one`);
  }
  checkFields(value, `${path}.`, SESSION_SETTINGS_RULES, problems);
  if (value.internalId !== undefined) {
    for (const field of FIELDS_NOT_WITH_INTERNAL_ID) {
      if (value[field] !== undefined) problems.push(`${path}.${field}: not allowed with internalId`);
    }
  }
  return problems;
}

const CHAT_REQUEST_RULES: readonly FieldRule[] = [
  ['input', isString, 'a string'],
  ['chatId', isFilledString, 'a chat id from __cutoff__'],
  ['messageId', (id) => isString(id) && isMessageId(id), '"<unix ms, 13+ digits>-message"'],
  ['activeBranchName', isString, 'a string'],
  ['isDefaultBranch', isBoolean, 'a boolean'],
];

/**
 * Validates a chat request body (2.8). With `auth: 'apiKey'`, `sessionSettings` is required;
 * with `auth: 'token'` it is ignored by the service (not validated). Without `auth`, it is
 * validated when present.
 */
export function validateChatRequest(
  input: unknown,
  options: { auth?: ChatAuthKind } = {},
): ValidationResult<ChatRequest> {
  if (!isRecord(input)) return { ok: false, problems: ['body: must be a JSON object'] };
  const problems: string[] = [];
  checkFields(input, '', CHAT_REQUEST_RULES, problems);
  if (options.auth !== 'token') {
    if (input.sessionSettings !== undefined) problems.push(...sessionSettingsProblems(input.sessionSettings));
    else if (options.auth === 'apiKey')
      problems.push('sessionSettings: required with an API key (who is the chat user?)');
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: input as ChatRequest };
}

/** `isDefaultBranch` as the service reads it: given, or `true` without `activeBranchName`, `false` with it (2.8). */
export function resolveIsDefaultBranch(request: Pick<ChatRequest, 'activeBranchName' | 'isDefaultBranch'>): boolean {
  return request.isDefaultBranch ?? request.activeBranchName === undefined;
}

/** Body of `POST {ai_url}/chat/abort` (4.4). */
export interface AbortRequest {
  /** An active or recently completed chat. */
  chatId: string;
  /** Who asks, with API key authentication (`externalId`). */
  sessionSettings?: SessionSettings;
}

// ---------------------------------------------------------------------------------------------
// Stream lines (2.8, 4.4, behaviour 1)

/** A tool use carried by a stream message; `input` and `result` are JSON text (2.8). */
export interface ToolCallWire {
  /** The tool, such as `serviceSqlApi` or `serviceMeta`. */
  name: string;
  /** JSON text of the tool's input. */
  input: string;
  /** JSON text of the tool's result; present only when the call is complete. */
  result?: string;
}

/** A chat message line as the service sends it (2.8). */
export interface StreamMessage {
  /** The message id; lines with the same id update one message. */
  id: string;
  /** `user` for the echo of the question, `assistant` for everything the agent sends. */
  role: 'user' | 'assistant';
  /** Text; with `isDelta: true`, a chunk to append. */
  content?: string;
  /** Agent reasoning; with `isDelta: true`, a chunk to append. */
  thinking?: string;
  /** The tool use this message reports: name, input and, once done, result. */
  toolCall?: ToolCallWire;
  /** Agent graph node that produced the message; `["final"]` marks the consolidated answer. */
  graphPath?: string[];
  /** `true`: append `content`/`thinking` to the message with this id; otherwise replace it whole. */
  isDelta?: boolean;
  /** Still being generated. */
  isInProcess?: boolean;
  /** Present on assistant messages (2.4): the message carries a structured answer rather than free text. */
  isStructuredResponse?: boolean;
  /** Ordering sequence. */
  sort?: number;
}

/** First line of a stream: whether the thread streams and its chat id (2.8). */
export interface CutoffLine {
  /** The sentinel id of this line. */
  id: '__cutoff__';
  /** Always `assistant` when present. */
  role?: 'assistant';
  /** The thread's id, and whether an answer is still running (a replay continues live). */
  state: {
    /**
     * `true` when the request joins an answer already running; the documented first line of a new
     * answer has `false`. The library does not rely on it: the response is open either way.
     */
    isStreaming: boolean;
    /** The thread's id: send it as `chatId` to continue, read or abort the thread. */
    chatId: string;
  };
  /** Ordering sequence of the line. */
  sort?: number;
}

/**
 * Thread snapshot near the end of a stream. `messages` may be in a foreign serialisation
 * (behaviour 1), so it stays `unknown[]`: never rely on its shape.
 */
export interface StateLine {
  /** The sentinel id of this line. */
  id: '__state__';
  /** Always `assistant` when present. */
  role?: 'assistant';
  /** The thread's state as the service holds it. */
  state: {
    /** The thread's messages, possibly in a foreign serialisation (behaviour 1): never rely on their shape. */
    messages?: unknown[];
    [key: string]: unknown;
  };
  /** Whether the state is a delta. */
  isDelta?: boolean;
  /** Ordering sequence of the line. */
  sort?: number;
}

/** Ends a stream that was aborted (behaviour 1). */
export interface AbortedLine {
  /** The sentinel id of this line. */
  id: '__aborted__';
  /** Always `abort`. */
  type: 'abort';
  /** Always `chat_aborted`. */
  code: 'chat_aborted';
  /** The service's message. */
  error: string;
}

/** The server restarted: resend the same body to resume (behaviour 1). */
export interface SuspendedLine {
  /** The sentinel id of this line. */
  id: '__suspended__';
  /** Always `suspend`. */
  type: 'suspend';
  /** Always `chat_suspended`. */
  code: 'chat_suspended';
  /** Whether sending the same request again resumes the answer. */
  retryable: boolean;
  /** The `messageId` of the request to send again. */
  messageId?: string;
  /** The service's message. */
  error: string;
}

/** Token usage of the request; always the last line (behaviour 1). */
export interface Usage {
  /** The models the answer used. */
  models: string[];
  /** How many model calls the answer took. */
  llmCalls: number;
  /** Tokens sent to the models. */
  inputTokens: number;
  /** Tokens the models generated. */
  outputTokens: number;
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens: number;
  /** Input tokens read from the prompt cache. */
  cacheReadTokens: number;
  /** All tokens of the answer. */
  totalTokens: number;
}

/** Last line of every stream (behaviour 1). */
export interface UsageLine {
  /** The sentinel id of this line, always the last of a response. */
  id: '__usage__';
  /** Always `usage`. */
  type: 'usage';
  /** The answer's token usage. */
  usage: Usage;
}

/** An error after streaming started: `{"error": "<message>"}` with no other field. */
export interface ErrorLine {
  /** What went wrong. */
  error: string;
}

/** Authentication failure: a JSON-RPC 2.0 error object as the whole HTTP 200 body (behaviour 1). */
export interface RpcErrorLine {
  /** The JSON-RPC version, `2.0`. */
  jsonrpc: string;
  /** Treated as an authentication failure whatever its fields hold (behaviour 1). */
  error: {
    /** The JSON-RPC error code, such as `-32001`; `rpcErrorOf` reads a missing one as `NaN`. */
    code: number;
    /** The error's message, such as `Unauthorized` (the stand-in when missing). */
    message: string;
    /** Extra detail of the error, when any; its shape is not published. */
    data?: unknown;
  };
  /** The JSON-RPC request id, when any. */
  id?: string | number | null;
}

/** Any line of a chat stream, as sent on the wire. */
export type StreamLine =
  StreamMessage | CutoffLine | StateLine | AbortedLine | SuspendedLine | UsageLine | ErrorLine | RpcErrorLine;

/** A stream line sorted by what it means; `invalid` lines are JSON the protocol does not know. */
export type ClassifiedLine =
  | {
      /** A chat message to merge into the thread. */
      kind: 'message';
      /** The line, checked field by field. */
      line: StreamMessage;
    }
  | {
      /** The `__cutoff__` sentinel: the stream started, with the thread's id. */
      kind: 'cutoff';
      /** The line, with its `state.chatId` checked. */
      line: CutoffLine;
    }
  | {
      /** The `__state__` sentinel: the service's snapshot of the thread. */
      kind: 'state';
      /** The line, with its `state` checked to be an object. */
      line: StateLine;
    }
  | {
      /** The `__aborted__` sentinel: the answer was stopped. */
      kind: 'aborted';
      /** The line, with its `error` checked. */
      line: AbortedLine;
    }
  | {
      /** The `__suspended__` sentinel: the server restarted; resend to resume. */
      kind: 'suspended';
      /** The line, with its `retryable` checked. */
      line: SuspendedLine;
    }
  | {
      /** The `__usage__` sentinel, the last line of a response. */
      kind: 'usage';
      /** The line, with its `usage` checked to be an object. */
      line: UsageLine;
    }
  | {
      /** An `{"error"}` line: the answer failed after streaming started. */
      kind: 'error';
      /** The line. */
      line: ErrorLine;
    }
  | {
      /** A JSON-RPC error object: the credential was refused. */
      kind: 'rpcError';
      /** The line. */
      line: RpcErrorLine;
    }
  | {
      /** JSON that is no line of the protocol: report it and go on. */
      kind: 'invalid';
      /** The parsed value, as it arrived. */
      value: unknown;
      /** Why it is not a line, such as `message m1: invalid role`; for logs, not for users. */
      reason: string;
    };

/**
 * The `{ code, message }` of a JSON-RPC error object, the service's answer to a refused chat
 * credential (behaviour 1), or `undefined` when `value` is not one. Any such object means
 * an authentication failure whatever its fields hold, so missing fields get stand-ins: `code`
 * `NaN`, `message` `'Unauthorized'`.
 */
export function rpcErrorOf(value: unknown): { code: number; message: string } | undefined {
  if (!isRecord(value) || typeof value.jsonrpc !== 'string' || !isRecord(value.error)) return undefined;
  const { code, message } = value.error;
  return {
    code: typeof code === 'number' ? code : Number.NaN,
    message: typeof message === 'string' ? message : 'Unauthorized',
  };
}

/** An optional field of a stream line: absent, `null` (read as absent) or of `type`. */
function optionalType(field: unknown, type: 'string' | 'boolean' | 'number'): boolean {
  return field === undefined || field === null || typeof field === type;
}

/**
 * Why `value` is not a valid chat message line, or `undefined` when it is one. Written out
 * field by field rather than as a table of tests: this runs once per streamed line.
 */
function messageProblem(value: Record<string, unknown>): string | undefined {
  const { id, role, graphPath, toolCall } = value;
  if (!isFilledString(id)) return 'message without a string id';
  let invalid: string | undefined;
  if (role !== 'user' && role !== 'assistant') invalid = 'role';
  else if (!optionalType(value.content, 'string')) invalid = 'content';
  else if (!optionalType(value.thinking, 'string')) invalid = 'thinking';
  else if (!optionalType(value.sort, 'number')) invalid = 'sort';
  else if (!optionalType(value.isDelta, 'boolean')) invalid = 'isDelta';
  else if (graphPath != null && !(Array.isArray(graphPath) && graphPath.every(isString))) invalid = 'graphPath';
  else if (
    toolCall != null &&
    !(
      isRecord(toolCall) &&
      isString(toolCall.name) &&
      optionalType(toolCall.input, 'string') &&
      optionalType(toolCall.result, 'string')
    )
  ) {
    invalid = 'toolCall';
  }
  return invalid && `message ${id}: invalid ${invalid}`;
}

/** A sentinel id of {@link SENTINEL_IDS}. */
type SentinelId = (typeof SENTINEL_IDS)[keyof typeof SENTINEL_IDS];

/**
 * Per sentinel id (2.8, behaviour 1): its kind, the field that makes it, and that field's
 * test. Literal keys, checked against {@link SENTINEL_IDS} by the type, keep this table free of
 * side effects, so bundles that never classify lines drop it.
 */
const SENTINEL_RULES: {
  readonly [id in SentinelId]: readonly [ClassifiedLine['kind'], field: string, test: (value: unknown) => boolean];
} = {
  __cutoff__: ['cutoff', 'state', (state) => isRecord(state) && isString(state.chatId)],
  __state__: ['state', 'state', isRecord],
  __aborted__: ['aborted', 'error', (error) => optionalType(error, 'string')],
  __suspended__: ['suspended', 'retryable', (retryable) => optionalType(retryable, 'boolean')],
  __usage__: ['usage', 'usage', isRecord],
};

/**
 * Sorts one parsed stream line by meaning. Never throws: a value that is not a line of the
 * protocol comes back as `{ kind: 'invalid', reason }`, so callers can report it and go on.
 */
export function classifyStreamLine(value: unknown): ClassifiedLine {
  if (!isRecord(value)) return { kind: 'invalid', value, reason: 'not a JSON object' };
  const { id } = value;
  const sentinel =
    isString(id) && isSentinelId(id) && Object.hasOwn(SENTINEL_RULES, id)
      ? SENTINEL_RULES[id as SentinelId]
      : undefined;
  if (sentinel) {
    const [kind, field, test] = sentinel;
    return test(value[field])
      ? ({ kind, line: value } as unknown as ClassifiedLine)
      : { kind: 'invalid', value, reason: `${id}: invalid ${field}` };
  }
  if (value.jsonrpc !== undefined && rpcErrorOf(value))
    return { kind: 'rpcError', line: value as unknown as RpcErrorLine };
  if (id === undefined && isString(value.error)) return { kind: 'error', line: value as unknown as ErrorLine };
  const problem = messageProblem(value);
  return problem === undefined
    ? { kind: 'message', line: value as unknown as StreamMessage }
    : { kind: 'invalid', value, reason: problem };
}

/** A stream line that is a sentinel, not a chat message to render. */
export function isSentinelId(id: string): boolean {
  return id.length > 4 && id.startsWith('__') && id.endsWith('__');
}

/**
 * The final-answer rule of 4.4 for one message: `role` is `assistant`, `graphPath[0]` is
 * `final` and `graphPath` has at most 2 elements. The final answer is the last such message.
 */
export function isFinalAnswerMessage(message: {
  role: string;
  graphPath?: readonly string[] | null | undefined;
}): boolean {
  const path = message.graphPath;
  return message.role === 'assistant' && !!path && path[0] === 'final' && path.length <= 2;
}

/** The JSON-RPC error object the service sends as an HTTP 200 body when chat authentication fails. */
export function createRpcAuthError(message = 'Unauthorized'): RpcErrorLine {
  return { jsonrpc: '2.0', error: { code: -32001, message }, id: null };
}
