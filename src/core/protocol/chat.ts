/**
 * The Chat API: request body, stream lines and their sentinels (service-interface 2.8, 4.4, 7;
 * service-behaviour 1). The single home of these rules: the chat client, the thread store, the
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

/** Reserved stream message ids (2.8, service-behaviour 1). */
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
      throw new RangeError('createMessageId: `now` must be a non-negative number of milliseconds');
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
  name: string;
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
  /** IANA time zone (service-behaviour 1). */
  timezone?: string;
  /** Lets the chat author workspace content (service-behaviour 1). */
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
  /** Whether `activeBranchName` is the default branch; see {@link resolveIsDefaultBranch}. */
  isDefaultBranch?: boolean;
}

/** Which credential a chat request carries; decides whether `sessionSettings` is required (2.8, 5). */
export type ChatAuthKind = 'apiKey' | 'token';


const FIELDS_NOT_WITH_INTERNAL_ID = ['userAttributes', 'groups', 'securityContext'] as const;


/** Problems of a `sessionSettings` object (2.8); empty when valid. */
export function sessionSettingsProblems(value: unknown, path = 'sessionSettings'): string[] {
  if (!isRecord(value)) return [`${path}: must be an object`];
  const problems: string[] = [];
  const { externalId, internalId } = value;
  if ((externalId === undefined) === (internalId === undefined)) {
    problems.push(`${path}: externalId and internalId: give exactly one`);
  }
  if (externalId !== undefined) {
    if (typeof externalId !== 'string' || externalId.length === 0) problems.push(`${path}.externalId: must be a non-empty string`);
    else if (externalId !== externalId.toLowerCase() || /\s/.test(externalId)) {
      problems.push(`${path}.externalId: must be lowercase with no spaces (got "${externalId}")`);
    }
  }
  if (internalId !== undefined) {
    if (typeof internalId !== 'string' || internalId.length === 0) problems.push(`${path}.internalId: must be a non-empty string`);
    for (const field of FIELDS_NOT_WITH_INTERNAL_ID) {
      if (value[field] !== undefined) problems.push(`${path}.${field}: not allowed with internalId`);
    }
  }
  if (value.email !== undefined && typeof value.email !== 'string') problems.push(`${path}.email: must be a string`);
  if (value.userAttributes !== undefined) {
    if (!Array.isArray(value.userAttributes)) problems.push(`${path}.userAttributes: must be an array of {name, value}`);
    else {
      value.userAttributes.forEach((attribute: unknown, index) => {
        if (!isRecord(attribute) || typeof attribute.name !== 'string' || !('value' in attribute)) {
          problems.push(`${path}.userAttributes[${index}]: must be {name: string, value}`);
        }
      });
    }
  }
  if (value.groups !== undefined && !(Array.isArray(value.groups) && value.groups.every((g) => typeof g === 'string'))) {
    problems.push(`${path}.groups: must be an array of group names`);
  }
  if (value.securityContext !== undefined && !isRecord(value.securityContext)) problems.push(`${path}.securityContext: must be an object`);
  if (value.isEphemeral !== undefined && typeof value.isEphemeral !== 'boolean') problems.push(`${path}.isEphemeral: must be a boolean`);
  if (value.ephemeralTtlSeconds !== undefined && !(typeof value.ephemeralTtlSeconds === 'number' && value.ephemeralTtlSeconds > 0)) {
    problems.push(`${path}.ephemeralTtlSeconds: must be a positive number of seconds`);
  }
  if (value.timezone !== undefined && typeof value.timezone !== 'string') problems.push(`${path}.timezone: must be an IANA time zone name`);
  if (value.allowChatWorkspaceAuthoring !== undefined && typeof value.allowChatWorkspaceAuthoring !== 'boolean') {
    problems.push(`${path}.allowChatWorkspaceAuthoring: must be a boolean`);
  }
  return problems;
}

/**
 * Validates a chat request body (2.8). With `auth: 'apiKey'`, `sessionSettings` is required;
 * with `auth: 'token'` it is ignored by the service (not validated). Without `auth`, it is
 * validated when present.
 */
export function validateChatRequest(input: unknown, options: { auth?: ChatAuthKind } = {}): ValidationResult<ChatRequest> {
  if (!isRecord(input)) return { ok: false, problems: ['body: must be a JSON object'] };
  const problems: string[] = [];
  if (input.input !== undefined && typeof input.input !== 'string') problems.push('input: must be a string');
  if (input.chatId !== undefined && (typeof input.chatId !== 'string' || input.chatId.length === 0)) {
    problems.push('chatId: must be a chat id returned in __cutoff__ (a non-empty string)');
  }
  if (input.messageId !== undefined && (typeof input.messageId !== 'string' || !isMessageId(input.messageId))) {
    problems.push('messageId: must be "<unix time in ms, 13 or more digits>-message", e.g. "1732512345678-message"');
  }
  if (input.activeBranchName !== undefined && typeof input.activeBranchName !== 'string') problems.push('activeBranchName: must be a string');
  if (input.isDefaultBranch !== undefined && typeof input.isDefaultBranch !== 'boolean') problems.push('isDefaultBranch: must be a boolean');
  if (options.auth !== 'token') {
    if (input.sessionSettings === undefined) {
      if (options.auth === 'apiKey') problems.push('sessionSettings: required with API key authentication (who is the chat user?)');
    } else problems.push(...sessionSettingsProblems(input.sessionSettings));
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
// Stream lines (2.8, 4.4, service-behaviour 1)

/** A tool use carried by a stream message; `input` and `result` are JSON text (2.8). */
export interface ToolCallWire {
  name: string;
  /** JSON text of the tool's input. */
  input: string;
  /** JSON text of the tool's result; present only when the call is complete. */
  result?: string;
}

/** A chat message line as the service sends it (2.8). */
export interface StreamMessage {
  id: string;
  role: 'user' | 'assistant';
  /** Text; with `isDelta: true`, a chunk to append. */
  content?: string;
  /** Agent reasoning; with `isDelta: true`, a chunk to append. */
  thinking?: string;
  toolCall?: ToolCallWire;
  /** Agent graph node that produced the message; `["final"]` marks the consolidated answer. */
  graphPath?: string[];
  /** `true`: append `content`/`thinking` to the message with this id; otherwise replace it whole. */
  isDelta?: boolean;
  /** Still being generated. */
  isInProcess?: boolean;
  isStructuredResponse?: boolean;
  /** Ordering sequence. */
  sort?: number;
}

/** First line of a stream: whether the thread streams and its chat id (2.8). */
export interface CutoffLine {
  id: '__cutoff__';
  role?: 'assistant';
  state: { isStreaming: boolean; chatId: string };
  sort?: number;
}

/**
 * Thread snapshot near the end of a stream. `messages` may be in a foreign serialisation
 * (service-behaviour 1), so it stays `unknown[]`: never rely on its shape.
 */
export interface StateLine {
  id: '__state__';
  role?: 'assistant';
  state: { messages?: unknown[]; [key: string]: unknown };
  isDelta?: boolean;
  sort?: number;
}

/** Ends a stream that was aborted (service-behaviour 1). */
export interface AbortedLine {
  id: '__aborted__';
  type: 'abort';
  code: 'chat_aborted';
  error: string;
}

/** The server restarted: resend the same body to resume (service-behaviour 1). */
export interface SuspendedLine {
  id: '__suspended__';
  type: 'suspend';
  code: 'chat_suspended';
  retryable: boolean;
  messageId?: string;
  error: string;
}

/** Token usage of the request; always the last line (service-behaviour 1). */
export interface Usage {
  models: string[];
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  totalTokens: number;
}

/** Last line of every stream (service-behaviour 1). */
export interface UsageLine {
  id: '__usage__';
  type: 'usage';
  usage: Usage;
}

/** An error after streaming started: `{"error": "<message>"}` with no other field. */
export interface ErrorLine {
  error: string;
}

/** Authentication failure: a JSON-RPC 2.0 error object as the whole HTTP 200 body (service-behaviour 1). */
export interface RpcErrorLine {
  jsonrpc: string;
  /** Treated as an authentication failure whatever its fields hold (service-behaviour 1). */
  error: { code: number; message: string; data?: unknown };
  id?: string | number | null;
}

/** Any line of a chat stream, as sent on the wire. */
export type StreamLine =
  | StreamMessage
  | CutoffLine
  | StateLine
  | AbortedLine
  | SuspendedLine
  | UsageLine
  | ErrorLine
  | RpcErrorLine;

/** A stream line sorted by what it means; `invalid` lines are JSON the protocol does not know. */
export type ClassifiedLine =
  | { kind: 'message'; line: StreamMessage }
  | { kind: 'cutoff'; line: CutoffLine }
  | { kind: 'state'; line: StateLine }
  | { kind: 'aborted'; line: AbortedLine }
  | { kind: 'suspended'; line: SuspendedLine }
  | { kind: 'usage'; line: UsageLine }
  | { kind: 'error'; line: ErrorLine }
  | { kind: 'rpcError'; line: RpcErrorLine }
  | { kind: 'invalid'; value: unknown; reason: string };

function optionalType(value: Record<string, unknown>, key: string, type: 'string' | 'boolean' | 'number'): boolean {
  const field = value[key];
  return field === undefined || field === null || typeof field === type;
}

/** Why `value` is not a valid chat message line, or `undefined` when it is one. */
function messageProblem(value: Record<string, unknown>): string | undefined {
  if (typeof value.id !== 'string' || value.id.length === 0) return 'message without a string id';
  if (value.role !== 'user' && value.role !== 'assistant') return `message ${value.id}: role must be "user" or "assistant"`;
  if (!optionalType(value, 'content', 'string')) return `message ${value.id}: content must be a string`;
  if (!optionalType(value, 'thinking', 'string')) return `message ${value.id}: thinking must be a string`;
  if (!optionalType(value, 'sort', 'number')) return `message ${value.id}: sort must be a number`;
  if (!optionalType(value, 'isDelta', 'boolean')) return `message ${value.id}: isDelta must be a boolean`;
  const { graphPath, toolCall } = value;
  if (graphPath !== undefined && graphPath !== null && !(Array.isArray(graphPath) && graphPath.every((node) => typeof node === 'string'))) {
    return `message ${value.id}: graphPath must be an array of strings`;
  }
  if (toolCall !== undefined && toolCall !== null) {
    if (!isRecord(toolCall) || typeof toolCall.name !== 'string') return `message ${value.id}: toolCall must have a string name`;
    if (!optionalType(toolCall, 'input', 'string') || !optionalType(toolCall, 'result', 'string')) {
      return `message ${value.id}: toolCall input and result must be JSON text`;
    }
  }
  return undefined;
}

/**
 * Sorts one parsed stream line by meaning. Never throws: a value that is not a line of the
 * protocol comes back as `{ kind: 'invalid', reason }`, so callers can report it and go on.
 */
export function classifyStreamLine(value: unknown): ClassifiedLine {
  if (!isRecord(value)) return { kind: 'invalid', value, reason: 'a stream line must be a JSON object' };
  const id = value.id;
  switch (id) {
    case SENTINEL_IDS.cutoff: {
      const state = value.state;
      if (isRecord(state) && typeof state.chatId === 'string') return { kind: 'cutoff', line: value as unknown as CutoffLine };
      return { kind: 'invalid', value, reason: '__cutoff__ without state.chatId' };
    }
    case SENTINEL_IDS.state:
      return isRecord(value.state)
        ? { kind: 'state', line: value as unknown as StateLine }
        : { kind: 'invalid', value, reason: '__state__ without a state object' };
    case SENTINEL_IDS.aborted:
      return typeof value.error === 'string' || value.error === undefined
        ? { kind: 'aborted', line: value as unknown as AbortedLine }
        : { kind: 'invalid', value, reason: '__aborted__ with a non-string error' };
    case SENTINEL_IDS.suspended:
      return typeof value.retryable === 'boolean' || value.retryable === undefined
        ? { kind: 'suspended', line: value as unknown as SuspendedLine }
        : { kind: 'invalid', value, reason: '__suspended__ with a non-boolean retryable' };
    case SENTINEL_IDS.usage:
      return isRecord(value.usage)
        ? { kind: 'usage', line: value as unknown as UsageLine }
        : { kind: 'invalid', value, reason: '__usage__ without a usage object' };
  }
  if (typeof value.jsonrpc === 'string' && isRecord(value.error)) return { kind: 'rpcError', line: value as unknown as RpcErrorLine };
  if (id === undefined && typeof value.error === 'string') return { kind: 'error', line: value as unknown as ErrorLine };
  const problem = messageProblem(value);
  return problem === undefined ? { kind: 'message', line: value as unknown as StreamMessage } : { kind: 'invalid', value, reason: problem };
}

/** A stream line that is a sentinel, not a chat message to render. */
export function isSentinelId(id: string): boolean {
  return id.length > 4 && id.startsWith('__') && id.endsWith('__');
}

/**
 * The final-answer rule of 4.4 for one message: `role` is `assistant`, `graphPath[0]` is
 * `final` and `graphPath` has at most 2 elements. The final answer is the last such message.
 */
export function isFinalAnswerMessage(message: { role: string; graphPath?: readonly string[] | null | undefined }): boolean {
  const path = message.graphPath;
  return message.role === 'assistant' && !!path && path[0] === 'final' && path.length <= 2;
}

/** The JSON-RPC error object the service sends as an HTTP 200 body when chat authentication fails. */
export function createRpcAuthError(message = 'Unauthorized'): RpcErrorLine {
  return { jsonrpc: '2.0', error: { code: -32001, message }, id: null };
}
