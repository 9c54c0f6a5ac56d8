/**
 * The Chat API (protocol 2.8, 3, 4.4, 5, 7, 8; behaviour 1), answered by the
 * scripted analyst of `chat/agent.ts`.
 *
 * Endpoints (below `{url}/api/v1/public`):
 *
 * | path | credential |
 * |---|---|
 * | `/{accountName}/agents/{agentId}/chat/stream-chat-state`, `.../chat/abort` (`{ai_url}` forms) | `Authorization: Api-Key <key>` (with `sessionSettings`) or `X-Service-Auth-Token: <JWT>` |
 * | `/{accountName}/deployments/{deploymentId}/chat/stream-chat-state`, `.../chat/abort` | the deployment token only; an API key gets 403 `agentId is required for Api-Key authentication` |
 *
 * Rules, in the order they are checked:
 * 1. Unknown account, agent or deployment: 404 `{"error"}`.
 * 2. Credential (5): `Authorization` wins over the token (rule 6). A missing, malformed or unknown
 *    credential, a token not valid for the deployment (or for a deployment whose token auth is
 *    off: deployment 2), without `externalId`/`sub` or without the `chat` scope: the JSON-RPC
 *    error object `{"jsonrpc":"2.0","error":{"code":-32001,"message":"Unauthorized","data":{"reason"}},"id":null}`
 *    in an HTTP 200 (7, behaviour 1). A valid key not allowed here: 403 `{"error"}` (a personal
 *    key, since chat with a key provisions users; a scoped key for another deployment).
 * 3. Body (2.8): invalid JSON or fields, `sessionSettings` missing with a key: 400 `{"error"}`.
 * 4. The chat user is provisioned (`chat/users.ts`); 400 for unknown attribute or group names.
 * 5. `chatId`: unknown (or of another agent) 404; another user's thread 403.
 * 6. Streaming (3): the same `messageId` as a run of the thread joins it (what was sent is
 *    replayed, then the rest streams live; a suspended or held run resumes); another or no
 *    `messageId` while a run streams: 409 `{"error":"Streaming for thread is in progress"}`.
 *    `chatId` without `input` reads the thread: `__cutoff__`, every message `isDelta: false`,
 *    then `__state__` and `__usage__`, or, while a run streams, the rest of that run live.
 * 7. Abort `{chatId, sessionSettings?}`: 204 and the run ends with `__aborted__` and `__usage__`;
 *    403 when `sessionSettings` (with a key) or the token names another user than the owner; an
 *    admin key without `sessionSettings` acts for the account; 404 for an unknown chat id.
 *
 * Choices where the documents are silent: `__cutoff__` carries `isStreaming: false` when the
 * request starts the run (as the documented example) and `true` when it joins one; a run goes on
 * when its client disconnects; the same `messageId` as a finished run replays it (so a late resend
 * never asks the agent twice).
 *
 * Testing aids: the `x-emulator-pace: instant | realistic` header sets the pace of the run a
 * request starts (default: the `chatPace` option); the `x-emulator-fault` header or the
 * `chatFault` option injects faults (`chat/faults.ts`).
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import type { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  AGENT_ID_REQUIRED_FOR_API_KEY,
  STREAMING_IN_PROGRESS,
  createRpcAuthError,
  sessionSettingsProblems,
  validateChatRequest,
  createMessageId,
  type ChatRequest,
  type RpcErrorLine,
  type SessionSettings,
} from '../../core/protocol/chat';
import { isRecord } from '../../core/protocol/shared';
import { keyAllowsDeployment, readChatCredential, verifyDeploymentToken } from '../auth';
import type { ChatPace, EmulatorContext, EmulatorEnv, EmulatorFeature } from '../context';
import { httpError, jsonError, parseRequestJson, readBodyText } from '../http';
import { setBounded, type ChatThread, type UserRef } from '../state';
import { MAX_BODY_BYTES, findDeployment, parseDeploymentId, type WorldAgent, type WorldDeployment } from '../world';
import { runAgent } from '../chat/agent';
import {
  CHAT_FAULT_HEADER,
  INJECTED_STREAM_ERROR,
  injectedStatusBody,
  parseChatFaults,
  type ChatFaults,
} from '../chat/faults';
import { cutoffLine, emptyUsage, stateLine, suspendedLine, usageLine } from '../chat/lines';
import { ThreadRuntime, type Run, type RunListener, type WireLine } from '../chat/runs';
import { createLineWriter, type LineWriter } from '../chat/stream';
import {
  identify,
  provisionFromSessionSettings,
  provisionFromToken,
  sameUser,
  tokenIdentity,
  tokenUserRef,
  type ChatUser,
} from '../chat/users';

export { CHAT_FAULT_HEADER } from '../chat/faults';

/** Request header that sets the pace of the run a request starts: `instant` or `realistic`. */
export const CHAT_PACE_HEADER = 'x-emulator-pace';

/** Key of the feature's private state. */
const CHAT_STATE = Symbol('emulator.chat');

interface ChatFeatureState {
  /** Live part of each thread, by chat id. */
  runtimes: Map<string, ThreadRuntime>;
  /** Chat requests seen per `messageId` (the `attempt` of the `chatFault` option). */
  attempts: Map<string, number>;
}

/** Where a request points: the agent form or the deployment form of the path. */
type Target =
  | { form: 'agent'; agent: WorldAgent; deployment: WorldDeployment }
  | { form: 'deployment'; agent: WorldAgent | undefined; deployment: WorldDeployment };

/** Who is calling, once the credential is verified. */
type Caller =
  { kind: 'apiKey' } | { kind: 'token'; claims: Readonly<Record<string, unknown>>; externalId: string; email?: string };

/**
 * The JSON-RPC error object in an HTTP 200, thrown: how chat reports an authentication failure
 * (7, behaviour 1). `error.data.reason` says what was wrong, for people reading the traffic.
 */
function rpcAuthFailure(reason: string): HTTPException {
  const base = createRpcAuthError();
  const body: RpcErrorLine = { ...base, error: { ...base.error, data: { reason } } };
  return jsonError(200, body);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The chat feature. */
export const chatFeature: EmulatorFeature = {
  name: 'chat',
  basePath: '/api/v1/public',
  create(context: EmulatorContext) {
    const { world, state, clock, options } = context;
    const shared = state.featureState<ChatFeatureState>(CHAT_STATE, () => ({
      runtimes: new Map(),
      attempts: new Map(),
    }));
    const app = new Hono<EmulatorEnv>();

    function runtimeOf(thread: ChatThread): ThreadRuntime {
      let runtime = shared.runtimes.get(thread.chatId);
      if (!runtime) {
        runtime = new ThreadRuntime(thread, () => clock.now());
        shared.runtimes.set(thread.chatId, runtime);
      }
      return runtime;
    }

    // -------------------------------------------------------------------------------------------
    // Steps shared by both endpoints

    function targetOf(c: Context<EmulatorEnv>): Target {
      const accountName = c.req.param('accountName');
      if (accountName !== world.accountName) throw httpError(404, `Account "${accountName ?? ''}" not found`);
      const agentId = c.req.param('agentId');
      if (agentId !== undefined) {
        const agent = world.agents.find((candidate) => candidate.id === agentId);
        const deployment = agent && findDeployment(world, agent.deploymentId);
        if (!agent || !deployment) throw httpError(404, `Agent "${agentId}" not found`);
        return { form: 'agent', agent, deployment };
      }
      const deploymentId = parseDeploymentId(c.req.param('deploymentId'));
      const deployment = deploymentId === undefined ? undefined : findDeployment(world, deploymentId);
      if (!deployment) throw httpError(404, `Deployment "${c.req.param('deploymentId') ?? ''}" not found`);
      // The deployment form talks to the deployment's agent (the first one, as the service's default).
      return {
        form: 'deployment',
        agent: world.agents.find((candidate) => candidate.deploymentId === deployment.id),
        deployment,
      };
    }

    /** Verifies the credential; throws the JSON-RPC error (in a 200) or a 403. */
    async function callerOf(c: Context<EmulatorEnv>, target: Target): Promise<Caller> {
      const credential = readChatCredential(c);
      switch (credential.kind) {
        case 'missing':
          throw rpcAuthFailure('Send "Authorization: Api-Key <API_KEY>" or "X-Service-Auth-Token: <JWT>"');
        case 'malformed':
          throw rpcAuthFailure(credential.reason);
        case 'apiKey': {
          if (target.form === 'deployment') throw httpError(403, AGENT_ID_REQUIRED_FOR_API_KEY);
          const apiKey = state.apiKeys.get(credential.key);
          if (!apiKey) throw rpcAuthFailure('Invalid API key');
          if (apiKey.role !== 'admin') {
            throw httpError(
              403,
              'Chat with an API key provisions users from sessionSettings: it needs an admin API key',
            );
          }
          if (!keyAllowsDeployment(apiKey, target.deployment.id)) {
            throw httpError(403, `API key is not authorized for deployment ${target.deployment.id}`);
          }
          return { kind: 'apiKey' };
        }
        case 'token': {
          if (!target.deployment.chatTokenAuth) {
            throw rpcAuthFailure(
              `Deployment token authentication is not enabled for deployment ${target.deployment.id}`,
            );
          }
          const claims = await verifyDeploymentToken(context, target.deployment.id, credential.token);
          if (!claims) throw rpcAuthFailure(`Invalid token for deployment ${target.deployment.id}`);
          const identity = tokenIdentity(claims);
          if (!identity.ok) throw rpcAuthFailure(`Invalid token: ${identity.reason}`);
          return {
            kind: 'token',
            claims,
            externalId: identity.externalId,
            ...(identity.email === undefined ? {} : { email: identity.email }),
          };
        }
      }
    }

    /**
     * Reads the JSON body (413 past {@link MAX_BODY_BYTES}); `undefined` when empty, `{ invalid }`
     * when it is not JSON or nested too deep.
     */
    async function bodyOf(c: Context<EmulatorEnv>): Promise<{ value: unknown } | { invalid: string }> {
      const text = await readBodyText(c, MAX_BODY_BYTES);
      try {
        return { value: parseRequestJson(text, (reason) => httpError(400, reason)) };
      } catch (error) {
        return { invalid: (error as Error).message };
      }
    }

    /** The faults of a request (header, else option); 400 for a bad header. */
    function faultsOf(c: Context<EmulatorEnv>, endpoint: 'stream' | 'abort', body: unknown): ChatFaults {
      let attempt = 1;
      const messageId = isRecord(body) && typeof body.messageId === 'string' ? body.messageId : undefined;
      if (endpoint === 'stream' && messageId !== undefined) {
        attempt = (shared.attempts.get(messageId) ?? 0) + 1;
        setBounded(shared.attempts, messageId, attempt);
      }
      const header = c.req.header(CHAT_FAULT_HEADER);
      const option = options.chatFault;
      const text = header ?? (typeof option === 'function' ? option({ endpoint, body, attempt }) : option);
      const parsed = parseChatFaults(text);
      if (!parsed.ok) throw httpError(400, parsed.problem);
      return parsed.faults;
    }

    /** Delay and status faults: before anything else is looked at. */
    async function applyEarlyFaults(faults: ChatFaults): Promise<void> {
      if (faults.delayMs !== undefined) await sleep(faults.delayMs);
      if (faults.status !== undefined)
        throw jsonError(faults.status as ContentfulStatusCode, injectedStatusBody(faults.status));
    }

    /** The thread `chatId` of `agent`; 404 when there is none (7). */
    function findThread(chatId: string, agent: WorldAgent): ChatThread {
      const thread = state.threads.get(chatId);
      if (!thread || thread.agentId !== agent.id) throw httpError(404, `Chat "${chatId}" not found`);
      return thread;
    }

    /** 403 unless `user` owns `thread` (4.4, 7); `undefined` (nobody known) owns nothing. */
    function assertOwner(thread: ChatThread, user: UserRef | undefined): void {
      if (!user || !sameUser(thread.owner, user)) throw httpError(403, 'This chat belongs to another user');
    }

    // -------------------------------------------------------------------------------------------
    // Streaming

    function paceOf(c: Context<EmulatorEnv>): ChatPace {
      const header = c.req.header(CHAT_PACE_HEADER);
      if (header === undefined) return options.chatPace;
      if (header === 'instant' || header === 'realistic') return header;
      throw httpError(400, `${CHAT_PACE_HEADER}: must be "instant" or "realistic" (got "${header}")`);
    }

    /**
     * A listener that writes to `writer` and applies the response's stream faults after each line.
     * `run` is the run the response follows (suspend and hold act on it).
     */
    function responseListener(
      writer: LineWriter,
      faults: ChatFaults,
      runOf: () => Run | undefined,
    ): RunListener & { readonly closed: boolean; send(line: WireLine): void } {
      function afterLine(): void {
        const written = writer.count;
        const run = runOf();
        if (faults.cutAfter === written) writer.cut();
        else if (faults.errorAfter === written) {
          writer.write({ error: INJECTED_STREAM_ERROR });
          writer.end();
        } else if (faults.suspendAfter === written) {
          writer.write(suspendedLine(run?.messageId));
          writer.end();
          run?.suspend();
        } else if (faults.holdAfter === written) run?.hold();
      }
      const listener = {
        get closed() {
          return writer.closed;
        },
        send(line: WireLine) {
          if (writer.write(line)) afterLine();
        },
        line(line: WireLine) {
          listener.send(line);
        },
        end() {
          writer.end();
        },
        suspend(line: WireLine) {
          if (writer.write(line)) writer.end();
        },
      };
      return listener;
    }

    function outgoingOf(c: Context<EmulatorEnv>): ServerResponse | undefined {
      const env = c.env as { outgoing?: ServerResponse } | undefined;
      return env?.outgoing;
    }

    /** Streams `run` to a new response: `__cutoff__`, then the run (replayed from its start, then live). */
    function followRun(
      c: Context<EmulatorEnv>,
      faults: ChatFaults,
      runtime: ThreadRuntime,
      run: Run,
      isStreaming: boolean,
    ): Response {
      const writer = createLineWriter({ outgoing: outgoingOf(c) });
      const listener = responseListener(writer, faults, () => run);
      listener.send(cutoffLine(runtime.record.chatId, isStreaming));
      const unsubscribe = run.subscribe(listener, { replay: true });
      writer.onClose(unsubscribe);
      return writer.response;
    }

    /** A read of the thread (2.8, behaviour 1): its messages whole, then the active run live or the end. */
    function readThread(c: Context<EmulatorEnv>, faults: ChatFaults, runtime: ThreadRuntime): Response {
      const writer = createLineWriter({ outgoing: outgoingOf(c) });
      const run = runtime.active;
      const listener = responseListener(writer, faults, () => run);
      listener.send(cutoffLine(runtime.record.chatId, run !== undefined));
      const messages = runtime.snapshot();
      for (const message of messages) listener.send(message);
      if (run) {
        run.release();
        const unsubscribe = run.subscribe(listener, { replay: false });
        writer.onClose(unsubscribe);
      } else {
        listener.send(stateLine(messages, runtime.lastSort() + 1));
        listener.send(usageLine(emptyUsage()));
        writer.end();
      }
      return writer.response;
    }

    app.post('/:accountName/agents/:agentId/chat/stream-chat-state', (c) => stream(c));
    app.post('/:accountName/deployments/:deploymentId/chat/stream-chat-state', (c) => stream(c));

    /**
     * What both endpoints do first: the target (404) and the caller (auth), before a byte of the
     * body is read; then the body (413 when too large), the faults that answer early, the agent,
     * and a body that is JSON (400).
     */
    async function begin(c: Context<EmulatorEnv>, endpoint: 'stream' | 'abort') {
      const target = targetOf(c);
      const caller = await callerOf(c, target);
      const body = await bodyOf(c);
      const faults = faultsOf(c, endpoint, 'value' in body ? body.value : undefined);
      await applyEarlyFaults(faults);
      const agent = target.agent;
      if (!agent) throw httpError(404, `Deployment ${target.deployment.id} has no agent`);
      if (!('value' in body)) throw httpError(400, body.invalid);
      return { body, faults, target, caller, agent };
    }

    async function stream(c: Context<EmulatorEnv>): Promise<Response> {
      const { body, faults, caller, agent } = await begin(c, 'stream');
      const validation = validateChatRequest(body.value, { auth: caller.kind });
      if (!validation.ok) throw httpError(400, `Invalid chat request: ${validation.problems.join('; ')}`);
      const request: ChatRequest = validation.value;
      const pace = paceOf(c);

      let user: ChatUser;
      if (caller.kind === 'apiKey')
        user = provisionFromSessionSettings(context, request.sessionSettings as SessionSettings);
      else user = provisionFromToken(context, caller.claims, caller.externalId, caller.email);

      let runtime: ThreadRuntime | undefined;
      if (request.chatId !== undefined) {
        const thread = findThread(request.chatId, agent);
        assertOwner(thread, user.ref);
        runtime = runtimeOf(thread);
      }

      if (request.input === undefined) {
        if (!runtime)
          throw httpError(400, 'input: required to start a chat (send chatId without input to read a thread)');
        return readThread(c, faults, runtime);
      }

      let messageId = request.messageId;
      if (messageId === undefined) {
        // Process-monotonic ids, not the emulator clock: a frozen test clock would repeat one.
        do messageId = createMessageId();
        while (runtime?.runs.has(messageId));
      }
      const earlier = runtime?.runs.get(messageId);
      if (runtime && earlier) {
        // Same messageId: join the run (3), or replay it when it is over. Never a second answer.
        const live = !earlier.done;
        earlier.release();
        return followRun(c, faults, runtime, earlier, live);
      }
      if (runtime?.active) throw httpError(409, STREAMING_IN_PROGRESS);

      if (!runtime) {
        const now = clock.now();
        const thread: ChatThread = {
          chatId: globalThis.crypto.randomUUID(),
          agentId: agent.id,
          deploymentId: agent.deploymentId,
          owner: user.ref,
          messages: [],
          createdAt: now,
          updatedAt: now,
        };
        state.threads.set(thread.chatId, thread);
        runtime = runtimeOf(thread);
      }
      const run = runtime.startRun(messageId);
      run.emit({ id: messageId, role: 'user', content: request.input, isDelta: false, sort: runtime.nextSort() });
      const response = followRun(c, faults, runtime, run, false);
      void runAgent({
        run,
        input: request.input,
        pace,
        data: context.data,
        scope: user.scope,
        randomId: () => globalThis.crypto.randomUUID(),
      });
      return response;
    }

    // -------------------------------------------------------------------------------------------
    // Abort

    async function abort(c: Context<EmulatorEnv>): Promise<Response> {
      const { body, caller, agent } = await begin(c, 'abort');
      const value = body.value;
      if (!isRecord(value)) throw httpError(400, 'Invalid abort request: body must be a JSON object {"chatId": "..."}');
      const { chatId, sessionSettings } = value;
      if (typeof chatId !== 'string' || chatId === '')
        throw httpError(
          400,
          'Invalid abort request: chatId: required, the chat id of an active or recently completed chat',
        );
      if (caller.kind === 'apiKey' && sessionSettings !== undefined) {
        const problems = sessionSettingsProblems(sessionSettings);
        if (problems.length > 0) throw httpError(400, `Invalid abort request: ${problems.join('; ')}`);
      }
      const thread = findThread(chatId, agent);
      if (caller.kind === 'token') assertOwner(thread, tokenUserRef(context, caller.externalId));
      // An admin key without sessionSettings acts for the account: it may stop any of its chats.
      else if (sessionSettings !== undefined)
        assertOwner(thread, identify(context, sessionSettings as SessionSettings));
      runtimeOf(thread).active?.abort();
      return c.body(null, 204);
    }

    app.post('/:accountName/agents/:agentId/chat/abort', (c) => abort(c));
    app.post('/:accountName/deployments/:deploymentId/chat/abort', (c) => abort(c));

    return app;
  },
};
