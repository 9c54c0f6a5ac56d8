/**
 * `createServiceClient`: the calls that need the API key. Embed sessions (interface §2.7, §4.2,
 * behaviour §4), the workbook upsert by slug (§3, §4.1), embed-tenant groups and members (§4.3),
 * the management lists and embedding switches of §4.6, each with the auth header §5 names.
 *
 * Failures are typed: a request the protocol rejects is a `ServiceValidationError` and is never
 * sent; an HTTP error of the service is a `ServiceHttpError` carrying `status`, a stable `code`
 * (the body's `code`, the code of a known text of §7, or one from the status) and the service's
 * own message; a network failure that outlasts its retries is a `ConnectionLostError`; a
 * cancelled call is a `ServiceAbortError`.
 *
 * @module
 */
import {
  ConnectionLostError,
  ServiceConfigError,
  ServiceHttpError,
  ServiceValidationError,
  codeForStatus,
} from '../core/errors';
import {
  isSessionResponse,
  normalizeExternalId,
  sessionErrorCode,
  validateSessionRequest,
  type SessionRequest,
  type SessionResponse,
} from '../core/protocol/session';
import { isRecord } from '../core/protocol/shared';
import {
  UPSERT_BRANCH_CHANGED,
  isListPage,
  isWorkbook,
  nextPageCursor,
  pageItems,
  validateCreateWorkbookInput,
  validateSlug,
  workbookBySlugPath,
  type CreateWorkbookInput,
  type CursorPageParams,
  type ListPage,
  type Workbook,
} from '../core/protocol/workbook';
import { checkOptions, httpError as readHttpError, isFilled } from '../core/http';
import {
  DEFAULT_TIMEOUT_MS,
  abortError,
  backoffDelay,
  checkServiceUrl,
  invalidResponse,
  joinUrl,
  pathSegment,
  readCapped,
  resolveRetry,
  segmentProblem,
  sleep,
  timeoutCheck,
  timeoutError,
  upstreamController,
  type QueryValue,
  type RetryOptions,
} from './transport';

export type { RetryOptions } from './transport';

// ---------------------------------------------------------------------------------------------
// Public types

/** Options of {@link createServiceClient}. */
export interface ServiceClientOptions {
  /**
   * `{base_url}`, the tenant host: `https://acme.example.com`. Only https (interface §5 rule 1);
   * plain http is accepted on loopback alone, for the emulator (`http://127.0.0.1:4010`).
   */
  baseUrl: string;
  /**
   * An admin API key from the account settings. Keep it on the server: never ship it to a browser
   * (behaviour §1). Sent as `Bearer` to the management API and as `Api-Key` to the embed APIs (§5).
   */
  apiKey: string;
  /** The `fetch` to use. Default: `globalThis.fetch`. For tests, tracing or a custom agent. */
  fetch?: typeof fetch;
  /**
   * Retrying of network failures and 5xx answers, for idempotent requests only (GET, PUT, DELETE,
   * and the idempotent session revoke): a POST that creates something (generate-session, a group)
   * or a PATCH is never sent twice. Default `{ retries: 2, baseDelayMs: 250, maxDelayMs: 4000 }`;
   * `false` turns it off. The same delays pace the conflict retries of `upsertWorkbookBySlug`.
   */
  retry?: RetryOptions | false;
  /**
   * Longest wait for one try of a call, in milliseconds: from sending until the answer is read
   * (its headers, then its body). Default 30,000. A service that accepts the connection and then
   * says nothing would otherwise hold the call, and a route handler waiting on it, for minutes.
   * Running out rejects with a `ServiceError` of code `upstream_timeout` (the route handlers answer
   * it with 504) and is not retried, so a call waits about this long at most per try.
   */
  timeoutMs?: number;
}

/** Largest error body read from the service; the rest is never read (64 KiB). */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Options every call takes. */
export interface RequestOptions {
  /** Cancels the call (waits between retries included); it then rejects with a `ServiceAbortError`. */
  signal?: AbortSignal;
}

/** Options of {@link ServiceClient.upsertWorkbookBySlug}. */
export interface UpsertOptions extends RequestOptions {
  /**
   * Tries in all when the service answers 409 `upsert_branch_changed` (another writer created or
   * deleted the workbook in between, §3; transient). Waits grow exponentially with jitter between
   * tries. Default 5; `1` disables the retry. Other 409s and other 4xx are never retried.
   */
  attempts?: number;
}

/** Query of a list: the cursor of §4.3/§4.6, filters the endpoint takes, and a signal. */
export interface ListParams extends CursorPageParams, RequestOptions {
  /**
   * More query parameters, for filters of the endpoint (§4.6 names some; the service may add more
   * within `v1`). `undefined` values are left out.
   */
  query?: Readonly<Record<string, QueryValue>>;
}

/** Query of the reports list (§4.6). */
export interface ReportListParams extends ListParams {
  /** Sort order. Cursor paging is unavailable with `lastViewedAt` (§4.6): only the first page comes. */
  sortBy?: 'name' | 'createdAt' | 'updatedAt' | 'lastViewedAt';
  /** Text search. */
  search?: string;
  /** Only reports in this folder. */
  folderId?: number;
  /** Only reports connected to this external workbook. */
  externalWorkbookId?: string;
}

/**
 * A list read lazily, page by page, following `pageInfo.endCursor` while `hasNextPage`. Iterate
 * it with `for await` for the items (the deprecated `data` is read where `items` is absent), or
 * use `pages()` for the pages as answered. Each iteration starts again from the first page.
 */
export interface Paginated<T> extends AsyncIterable<T> {
  /** The pages, as the service answered them. */
  pages(): AsyncIterable<ListPage<T>>;
  /** Every item of every page, in order. Reads the whole list: prefer `for await` for long ones. */
  toArray(): Promise<T[]>;
}

/** A deployment as the deployments list answers it (fields beyond these are not published, §2.9). */
export interface Deployment {
  /** The deployment id. */
  id: number;
  /** Its display name. */
  name?: string;
  [key: string]: unknown;
}

/** A folder as the folders list answers it (fields beyond these are not published, §2.9). */
export interface Folder {
  /** The folder id. */
  id: number;
  /** Its name. */
  name: string;
  [key: string]: unknown;
}

/** A report as the reports list answers it (fields beyond these are not published, §2.9). */
export interface Report {
  /** The report id. */
  id: number;
  /** Its name; `null` for an untitled report. */
  name?: string | null;
  [key: string]: unknown;
}

/** An embed tenant (fields beyond the name are not published, §2.9). */
export interface EmbedTenant {
  /** The embed tenant's unique name, such as `globex-corp`. */
  name: string;
  [key: string]: unknown;
}

/** An external user of an embed tenant (fields beyond these are not published, §2.9). */
export interface EmbedTenantUser {
  /** The `embedUserId` of member bodies (behaviour §4). */
  id: number;
  /** The partner's own id of the user (lowercased by the service). */
  externalId: string;
  [key: string]: unknown;
}

/** A group scoped to an embed tenant (§4.3). */
export interface EmbedTenantGroup {
  /** The group id. */
  id: number;
  /** The group name, unique in its embed tenant. */
  name: string;
  /** Free text; `null` when none. */
  description?: string | null;
  [key: string]: unknown;
}

/** Body that creates an embed-tenant group. */
export interface EmbedTenantGroupInput {
  /** Group name, unique within the embed tenant. */
  name: string;
  /** Free text. */
  description?: string;
  [key: string]: unknown;
}

/** Body that changes an embed-tenant group: only the fields given change. */
export interface EmbedTenantGroupPatch {
  /** A new name. */
  name?: string;
  /** A new description; `null` clears it. */
  description?: string | null;
  [key: string]: unknown;
}

/**
 * Who a group member is (behaviour §4): the user's `externalId` (trimmed and lowercased before
 * sending, as §2.7 stores it) or the numeric `embedUserId` of the embed-tenant users list.
 */
export type EmbedTenantMember =
  | {
      /** The user's `externalId`; trimmed and lowercased before it is sent. */
      externalId: string;
      /** Not with `externalId`: name the user one way only. */
      embedUserId?: never;
    }
  | {
      /** The user's numeric id in the embed tenant's users list. */
      embedUserId: number;
      /** Not with `embedUserId`: name the user one way only. */
      externalId?: never;
    };

/** An embed access level (§4.6): `read` lets embed viewers open the workbook, `none` does not. */
export type EmbedAccessAction = 'read' | 'none';

/**
 * Embed access of a workbook as the service answers it (§4.6: per embed tenant or for all embed
 * users). Its fields are not published (§2.9); the emulator answers
 * `{ workbookId, allEmbedUsers, embedTenants: [{ embedTenantName, action }] }`.
 */
export interface WorkbookEmbedAccess {
  [key: string]: unknown;
}

/**
 * A change of a workbook's embed access (§4.6): `action` for the embed tenant `embedTenantName`,
 * or for all embed users when it is absent or `null`. Other fields pass through as given.
 */
export interface WorkbookEmbedAccessInput {
  /** What the embed users may do with the workbook. */
  action: EmbedAccessAction;
  /** The embed tenant it applies to; all embed users when absent or `null`. */
  embedTenantName?: string | null;
  [key: string]: unknown;
}

/** Options of a raw call through {@link ServiceClient.request}. */
export interface RawRequestOptions extends RequestOptions {
  /** The HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below `{base_url}`, starting with `/`: `/api/v1/deployments/`. */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Readonly<Record<string, QueryValue>>;
  /** JSON body. */
  body?: unknown;
  /** Auth header (§5): `Bearer` for the management API (default), `Api-Key` for the embed APIs. */
  scheme?: 'Bearer' | 'Api-Key';
  /** Retry network failures and 5xx. Default: for GET, PUT and DELETE only. */
  idempotent?: boolean;
}

/** A client of the service's management and embed APIs, made by {@link createServiceClient}. */
export interface ServiceClient {
  /**
   * Mints a single-use embed session (§4.2): `{ sessionId }`, for one iframe load within 5
   * minutes. The request is checked with `validateSessionRequest` first (`externalId` trimmed and
   * lowercased); a rejected one throws `ServiceValidationError` listing every problem, unsent.
   * Service errors carry `code` `user_attributes_not_found`, `groups_not_found`,
   * `cannot_change_type` for the texts of §7, else one from the status (`bad_request` for
   * duplicate attribute names, `unauthorized`, `forbidden` for a key scoped to another deployment).
   * Never retried: it is not idempotent.
   */
  generateSession(request: SessionRequest, options?: RequestOptions): Promise<SessionResponse>;
  /** Revokes a session (behaviour §4), for example on logout. Idempotent: an unknown id is fine. */
  revokeSession(sessionId: string, options?: RequestOptions): Promise<void>;
  /**
   * Creates or updates the workbook holding `slug` in the deployment (§3, §4.1): the slug is
   * trimmed and lowercased; only the fields sent change and `meta` is merged. A 409
   * `upsert_branch_changed` is retried (see {@link UpsertOptions.attempts}); when the tries run out
   * the last 409 is thrown. A deployment that does not exist is a 404 `ServiceHttpError`.
   */
  upsertWorkbookBySlug(
    deploymentId: number,
    slug: string,
    input?: CreateWorkbookInput,
    options?: UpsertOptions,
  ): Promise<Workbook>;
  /** Workbooks of a deployment (§4.6). */
  listWorkbooks(deploymentId: number, params?: ListParams): Paginated<Workbook>;
  /** Folders of a deployment (§4.6). */
  listFolders(deploymentId: number, params?: ListParams): Paginated<Folder>;
  /** Reports of a deployment (§4.6). */
  listReports(deploymentId: number, params?: ReportListParams): Paginated<Report>;
  /** Deployments of the account (§4.6; `items` without `pageInfo`: one page). */
  listDeployments(params?: ListParams): Paginated<Deployment>;
  /** Embed tenants (§4.3). */
  listEmbedTenants(params?: ListParams): Paginated<EmbedTenant>;
  /** Deletes an embed tenant (§4.3; 204). */
  deleteEmbedTenant(embedTenantName: string, options?: RequestOptions): Promise<void>;
  /** External users of an embed tenant (§4.3). */
  listEmbedTenantUsers(embedTenantName: string, params?: ListParams): Paginated<EmbedTenantUser>;
  /** Groups of an embed tenant (§4.3). */
  listEmbedTenantGroups(embedTenantName: string, params?: ListParams): Paginated<EmbedTenantGroup>;
  /** Creates a group in an embed tenant (§4.3). Not retried. */
  createEmbedTenantGroup(
    embedTenantName: string,
    group: EmbedTenantGroupInput,
    options?: RequestOptions,
  ): Promise<EmbedTenantGroup>;
  /** One group of an embed tenant (§4.3). */
  getEmbedTenantGroup(embedTenantName: string, groupId: number, options?: RequestOptions): Promise<EmbedTenantGroup>;
  /** Changes a group of an embed tenant (§4.3, PATCH). Not retried. */
  updateEmbedTenantGroup(
    embedTenantName: string,
    groupId: number,
    patch: EmbedTenantGroupPatch,
    options?: RequestOptions,
  ): Promise<EmbedTenantGroup>;
  /** Deletes a group of an embed tenant (§4.3; 204). */
  deleteEmbedTenantGroup(embedTenantName: string, groupId: number, options?: RequestOptions): Promise<void>;
  /** Members of an embed-tenant group (§4.3). */
  listEmbedTenantGroupMembers(
    embedTenantName: string,
    groupId: number,
    params?: ListParams,
  ): Paginated<EmbedTenantUser>;
  /** Adds a member to an embed-tenant group (§4.3). Not retried. */
  addEmbedTenantGroupMember(
    embedTenantName: string,
    groupId: number,
    member: EmbedTenantMember,
    options?: RequestOptions,
  ): Promise<void>;
  /** Removes a member from an embed-tenant group (§4.3; DELETE with the member as body). */
  removeEmbedTenantGroupMember(
    embedTenantName: string,
    groupId: number,
    member: EmbedTenantMember,
    options?: RequestOptions,
  ): Promise<void>;
  /**
   * Enables or disables signed embedding of a dashboard (§4.6, `PATCH /api/v1/embed/dashboard/{publicId}`).
   * Returns the service's answer (the dashboard), or `undefined` when it sent no body.
   */
  setDashboardEmbedding(publicId: string, allowEmbed: boolean, options?: RequestOptions): Promise<unknown>;
  /** Embed access of a workbook (§4.6, GET `.../workbooks/{workbookId}/embed-access`). */
  getWorkbookEmbedAccess(
    deploymentId: number,
    workbookId: number,
    options?: RequestOptions,
  ): Promise<WorkbookEmbedAccess>;
  /** Sets embed access of a workbook (§4.6, PUT; idempotent). Returns the service's answer. */
  setWorkbookEmbedAccess(
    deploymentId: number,
    workbookId: number,
    access: WorkbookEmbedAccessInput,
    options?: RequestOptions,
  ): Promise<WorkbookEmbedAccess>;
  /**
   * Any other endpoint of `{base_url}` (§4.6 lists many) with this client's key, retries and typed
   * errors. Resolves to the parsed JSON body, or `undefined` for an empty one.
   */
  request<T = unknown>(options: RawRequestOptions): Promise<T>;
}

// ---------------------------------------------------------------------------------------------
// Implementation

/** Default of {@link UpsertOptions.attempts}. */
export const DEFAULT_UPSERT_ATTEMPTS = 5;

const WHO = 'createServiceClient';

interface Call {
  method: RawRequestOptions['method'];
  path: string;
  scheme: 'Bearer' | 'Api-Key';
  what: string;
  query?: Readonly<Record<string, QueryValue>> | undefined;
  body?: unknown;
  signal?: AbortSignal | undefined;
  idempotent?: boolean | undefined;
  /** Gives a stable code to a known error text of the endpoint. */
  classify?: (message: string) => string | undefined;
}

function positiveInteger(value: unknown, name: string, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ServiceValidationError([`${name}: must be a positive whole number`], {
      message: `${what}: ${name} must be a positive whole number (got ${JSON.stringify(value)})`,
    });
  }
  return value;
}

function nonEmptyString(value: unknown, name: string, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ServiceValidationError([`${name}: must be a non-empty string`], {
      message: `${what}: ${name} must be a non-empty string`,
    });
  }
  return value;
}

function memberBody(member: unknown, what: string): { externalId: string } | { embedUserId: number } {
  const problem = 'member: give exactly one of { externalId } or { embedUserId }';
  if (!isRecord(member)) throw new ServiceValidationError([problem], { message: `${what}: ${problem}` });
  const hasExternal = member['externalId'] !== undefined;
  const hasEmbed = member['embedUserId'] !== undefined;
  if (hasExternal === hasEmbed) throw new ServiceValidationError([problem], { message: `${what}: ${problem}` });
  if (hasExternal) {
    const externalId = normalizeExternalId(nonEmptyString(member['externalId'], 'member.externalId', what));
    if (externalId === '') throw new ServiceValidationError(['member.externalId: must not be only spaces']);
    return { externalId };
  }
  return { embedUserId: positiveInteger(member['embedUserId'], 'member.embedUserId', what) };
}

/**
 * Creates a client of the service's management and embed APIs for one tenant and API key. Use it
 * on the server only. Throws a `ServiceConfigError` for options that cannot work.
 *
 * ```ts
 * const service = createServiceClient({ baseUrl: process.env.SERVICE_URL!, apiKey: process.env.SERVICE_API_KEY! });
 * const { sessionId } = await service.generateSession({ deploymentId: 1, externalId: user.id });
 * for await (const workbook of service.listWorkbooks(1)) console.log(workbook.name);
 * ```
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  if (!isRecord(options)) throw new ServiceConfigError(`${WHO}: pass an options object { baseUrl, apiKey }`);
  const { apiKey, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  // The key itself is never put in a message: messages end up in logs.
  checkOptions(WHO, [
    [isFilled(apiKey) && !/\s/.test(apiKey), '`apiKey` must be a non-empty API key without spaces'],
    [options.fetch === undefined || typeof options.fetch === 'function', '`fetch` must be a function'],
    timeoutCheck(timeoutMs, 'timeoutMs'),
  ]);
  const baseUrl = checkServiceUrl(options.baseUrl, 'baseUrl', WHO);
  const retry = resolveRetry(options.retry, WHO);

  function fetchImpl(): typeof fetch {
    const impl = options.fetch ?? globalThis.fetch;
    if (typeof impl !== 'function') throw new ServiceConfigError(`${WHO}: no \`fetch\` available: pass \`fetch\``);
    return impl;
  }

  /**
   * The typed error of a non-2xx answer: core reads the body and the service's message; the
   * `code` is the body's own (`upsert_branch_changed`), else the endpoint's code for a known text
   * (§7), else one from the status.
   */
  async function httpError(response: Response, call: Call): Promise<ServiceHttpError> {
    // Only the start of the body is read: a huge or endless one is cancelled at the cap.
    const { text } = await readCapped(response.body, MAX_ERROR_BODY_BYTES).catch(() => ({ text: '' }));
    const read = (await readHttpError(
      new Response(text, { status: response.status }),
      call.what,
      [],
    )) as ServiceHttpError;
    const { status } = read;
    // Errors end up in logs: a service (or a proxy in between) that echoes the key loses it here.
    const serviceMessage = read.serviceMessage === undefined ? undefined : redact(read.serviceMessage);
    const body = redactDeep(read.body);
    const bodyCode = isRecord(body) && isFilled(body['code']) ? body['code'] : undefined;
    const code =
      bodyCode ?? (serviceMessage === undefined ? undefined : call.classify?.(serviceMessage)) ?? codeForStatus(status);
    return new ServiceHttpError(redact(read.message), {
      status,
      code,
      ...(serviceMessage === undefined ? {} : { serviceMessage }),
      body,
    });
  }

  function redact(text: string): string {
    return text.split(apiKey).join('[redacted]');
  }

  function redactDeep(value: unknown): unknown {
    if (typeof value === 'string') return redact(value);
    const json = JSON.stringify(value);
    return json !== undefined && json.includes(apiKey) ? (JSON.parse(redact(json)) as unknown) : value;
  }

  /**
   * Sends one call, retrying network failures and 5xx when idempotent, and resolves to what
   * `read` makes of the 2xx answer. Each try has `timeoutMs` for the answer and its reading.
   */
  async function send<T>(call: Call, read: (response: Response) => Promise<T>): Promise<T> {
    const { signal } = call;
    const doFetch = fetchImpl();
    const idempotent = call.idempotent ?? (call.method === 'GET' || call.method === 'PUT' || call.method === 'DELETE');
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `${call.scheme} ${apiKey}` };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    };
    const url = joinUrl(baseUrl, call.path, call.query);
    for (let attempt = 1; ; attempt += 1) {
      if (signal?.aborted) throw abortError(call.what, signal);
      const canRetry = idempotent && attempt <= retry.retries;
      const upstream = upstreamController(signal);
      upstream.start(timeoutMs);
      /** The error to throw for `error`: the caller's abort and the time limit come first. */
      const settle = (error: unknown) =>
        signal?.aborted
          ? abortError(call.what, signal)
          : upstream.timedOut
            ? timeoutError(call.what, timeoutMs)
            : error;
      try {
        let response: Response;
        try {
          response = await doFetch(url, { ...init, signal: upstream.signal });
        } catch (error) {
          const settled = settle(error);
          if (settled !== error) throw settled;
          if (!canRetry) {
            throw new ConnectionLostError(`${call.what}: could not reach the service at ${baseUrl}`, {
              attempts: attempt,
              cause: error,
            });
          }
          upstream.release();
          await sleep(backoffDelay(attempt, retry), signal, call.what);
          continue;
        }
        if (response.ok) {
          try {
            return await read(response);
          } catch (error) {
            throw settle(error);
          }
        }
        if (response.status >= 500 && canRetry) {
          // Release the connection before waiting.
          await response.body?.cancel().catch(() => {});
          upstream.release();
          await sleep(backoffDelay(attempt, retry), signal, call.what);
          continue;
        }
        // An abort or a timeout while the error body was read leaves it cut short: that is the news.
        throw settle(await httpError(response, call));
      } finally {
        upstream.release();
      }
    }
  }

  /** {@link send}, then the JSON body (`undefined` when empty). */
  function sendJson(call: Call): Promise<unknown> {
    return send(call, async (response) => {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw new ConnectionLostError(`${call.what}: the connection dropped while reading the answer`, {
          attempts: 1,
          cause: error,
        });
      }
      if (text.trim() === '') return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw invalidResponse(call.what, 'a body that is not JSON');
      }
    });
  }

  async function sendEmpty(call: Call): Promise<void> {
    await send(call, async (response) => {
      await response.body?.cancel().catch(() => {});
    });
  }

  async function sendRecord<T>(call: Call, check: (value: unknown) => boolean, expected: string): Promise<T> {
    const value = await sendJson(call);
    if (!check(value)) throw invalidResponse(call.what, `a body that is not ${expected}`);
    return value as T;
  }

  /**
   * A lazy list. `describe` runs when iteration starts, so a bad argument rejects the first
   * `next()` (the same place as any other failure of the list) rather than throwing at the call.
   */
  function paginate<T>(describe: () => Omit<Call, 'method'>, params: ListParams = {}): Paginated<T> {
    const { first, after, signal, query } = params;
    async function* pages(): AsyncGenerator<ListPage<T>, void, undefined> {
      const call = describe();
      if (first !== undefined) positiveInteger(first, 'first', call.what);
      const seen = new Set<string>();
      let cursor = after;
      for (;;) {
        const page = await sendJson({
          ...call,
          method: 'GET',
          signal,
          query: { ...call.query, ...query, first, after: cursor },
        });
        if (!isListPage(page)) throw invalidResponse(call.what, 'a body that is not a list page ({ items, pageInfo })');
        yield page as ListPage<T>;
        const next = nextPageCursor(page);
        if (next === undefined) return;
        // A cursor that comes back would loop forever: stop loudly instead.
        if (seen.has(next)) throw invalidResponse(call.what, `the cursor ${JSON.stringify(next)} a second time`);
        seen.add(next);
        cursor = next;
      }
    }
    async function* items(): AsyncGenerator<T, void, undefined> {
      for await (const page of pages()) yield* pageItems(page);
    }
    return {
      [Symbol.asyncIterator]: () => items(),
      pages,
      async toArray() {
        const all: T[] = [];
        for await (const item of items()) all.push(item);
        return all;
      },
    };
  }

  const deploymentPath = (deploymentId: number, what: string) =>
    `/api/v1/deployments/${positiveInteger(deploymentId, 'deploymentId', what)}`;
  const tenantPath = (name: string, what: string) =>
    `/api/v1/embed-tenants/${pathSegment(name, 'embedTenantName', what)}`;
  const groupPath = (name: string, groupId: number, what: string) =>
    `${tenantPath(name, what)}/groups/${positiveInteger(groupId, 'groupId', what)}`;

  const isGroup = (value: unknown) =>
    isRecord(value) && typeof value['id'] === 'number' && typeof value['name'] === 'string';

  return {
    async generateSession(request, callOptions = {}) {
      const what = 'generate-session';
      const checked = validateSessionRequest(request);
      if (!checked.ok) {
        throw new ServiceValidationError(checked.problems, {
          message: `${what}: invalid session request: ${checked.problems.join('; ')}`,
        });
      }
      const answer = await sendJson({
        method: 'POST',
        path: '/api/v1/embed/generate-session',
        scheme: 'Api-Key',
        what,
        body: checked.value,
        signal: callOptions.signal,
        classify: sessionErrorCode,
      });
      if (!isSessionResponse(answer)) throw invalidResponse(what, 'no sessionId of 32 hex characters');
      return { sessionId: answer.sessionId };
    },

    async revokeSession(sessionId, callOptions = {}) {
      const what = 'revoke session';
      await sendEmpty({
        method: 'POST',
        path: '/api/v1/embed/session/revoke',
        scheme: 'Api-Key',
        what,
        body: { sessionId: nonEmptyString(sessionId, 'sessionId', what) },
        signal: callOptions.signal,
        // Behaviour §4: revoke answers 204 whether or not the session exists, so resending is safe.
        idempotent: true,
      });
    },

    async upsertWorkbookBySlug(deploymentId, slug, input, upsertOptions = {}) {
      const what = 'upsert workbook by slug';
      const attempts = upsertOptions.attempts ?? DEFAULT_UPSERT_ATTEMPTS;
      if (!Number.isInteger(attempts) || attempts < 1) {
        throw new ServiceConfigError(
          `${what}: \`attempts\` must be a whole number of 1 or more (got ${String(attempts)})`,
        );
      }
      const problems: string[] = [];
      if (typeof deploymentId !== 'number' || !Number.isInteger(deploymentId) || deploymentId < 1) {
        problems.push('deploymentId: must be a positive whole number');
      }
      const checkedSlug = validateSlug(slug);
      if (!checkedSlug.ok) problems.push(...checkedSlug.problems);
      // The slug is a path segment: "." or ".." would resolve to another path.
      const slugProblem = checkedSlug.ok ? segmentProblem(checkedSlug.value) : undefined;
      if (slugProblem !== undefined) problems.push(`slug: ${slugProblem}`);
      const body = validateCreateWorkbookInput(input);
      if (!body.ok) problems.push(...body.problems);
      if (problems.length > 0 || !checkedSlug.ok || !body.ok) {
        throw new ServiceValidationError(problems, { message: `${what}: ${problems.join('; ')}` });
      }
      const { signal } = upsertOptions;
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await sendRecord<Workbook>(
            {
              method: 'PUT',
              path: workbookBySlugPath(deploymentId, checkedSlug.value),
              scheme: 'Bearer',
              what,
              // No body is the same as an empty one (§2.2); send `{}` so the request is JSON either way.
              body: body.value,
              signal,
            },
            isWorkbook,
            'a workbook',
          );
        } catch (error) {
          const conflict =
            ServiceHttpError.isInstance(error) && error.status === 409 && error.code === UPSERT_BRANCH_CHANGED;
          if (!conflict || attempt >= attempts) throw error;
          await sleep(backoffDelay(attempt, retry), signal, what);
        }
      }
    },

    listWorkbooks(deploymentId, params) {
      return paginate<Workbook>(
        () => ({
          path: `${deploymentPath(deploymentId, 'list workbooks')}/workbooks`,
          scheme: 'Bearer',
          what: 'list workbooks',
        }),
        params,
      );
    },
    listFolders(deploymentId, params) {
      return paginate<Folder>(
        () => ({
          path: `${deploymentPath(deploymentId, 'list folders')}/folders`,
          scheme: 'Bearer',
          what: 'list folders',
        }),
        params,
      );
    },
    listReports(deploymentId, params = {}) {
      const { sortBy, search, folderId, externalWorkbookId, ...rest } = params;
      return paginate<Report>(
        () => ({
          path: `${deploymentPath(deploymentId, 'list reports')}/reports`,
          scheme: 'Bearer',
          what: 'list reports',
          query: { sortBy, search, folderId, externalWorkbookId },
        }),
        rest,
      );
    },
    listDeployments(params) {
      return paginate<Deployment>(
        () => ({ path: '/api/v1/deployments/', scheme: 'Bearer', what: 'list deployments' }),
        params,
      );
    },

    listEmbedTenants(params) {
      return paginate<EmbedTenant>(
        () => ({ path: '/api/v1/embed-tenants/', scheme: 'Api-Key', what: 'list embed tenants' }),
        params,
      );
    },
    async deleteEmbedTenant(embedTenantName, callOptions = {}) {
      const what = 'delete embed tenant';
      // 0.3.0: this path has no trailing slash.
      await sendEmpty({
        method: 'DELETE',
        path: tenantPath(embedTenantName, what),
        scheme: 'Api-Key',
        what,
        signal: callOptions.signal,
      });
    },
    listEmbedTenantUsers(embedTenantName, params) {
      const what = 'list embed tenant users';
      return paginate<EmbedTenantUser>(
        () => ({ path: `${tenantPath(embedTenantName, what)}/users`, scheme: 'Api-Key', what }),
        params,
      );
    },
    listEmbedTenantGroups(embedTenantName, params) {
      const what = 'list embed tenant groups';
      return paginate<EmbedTenantGroup>(
        () => ({ path: `${tenantPath(embedTenantName, what)}/groups`, scheme: 'Api-Key', what }),
        params,
      );
    },
    async createEmbedTenantGroup(embedTenantName, group, callOptions = {}) {
      const what = 'create embed tenant group';
      if (!isRecord(group)) throw new ServiceValidationError(['group: must be an object { name, description? }']);
      nonEmptyString(group.name, 'group.name', what);
      return sendRecord<EmbedTenantGroup>(
        {
          method: 'POST',
          path: `${tenantPath(embedTenantName, what)}/groups`,
          scheme: 'Api-Key',
          what,
          body: group,
          signal: callOptions.signal,
        },
        isGroup,
        'a group',
      );
    },
    async getEmbedTenantGroup(embedTenantName, groupId, callOptions = {}) {
      const what = 'get embed tenant group';
      return sendRecord<EmbedTenantGroup>(
        {
          method: 'GET',
          path: groupPath(embedTenantName, groupId, what),
          scheme: 'Api-Key',
          what,
          signal: callOptions.signal,
        },
        isGroup,
        'a group',
      );
    },
    async updateEmbedTenantGroup(embedTenantName, groupId, patch, callOptions = {}) {
      const what = 'update embed tenant group';
      if (!isRecord(patch)) throw new ServiceValidationError(['patch: must be an object { name?, description? }']);
      return sendRecord<EmbedTenantGroup>(
        {
          method: 'PATCH',
          path: groupPath(embedTenantName, groupId, what),
          scheme: 'Api-Key',
          what,
          body: patch,
          signal: callOptions.signal,
        },
        isGroup,
        'a group',
      );
    },
    async deleteEmbedTenantGroup(embedTenantName, groupId, callOptions = {}) {
      const what = 'delete embed tenant group';
      await sendEmpty({
        method: 'DELETE',
        path: groupPath(embedTenantName, groupId, what),
        scheme: 'Api-Key',
        what,
        signal: callOptions.signal,
      });
    },
    listEmbedTenantGroupMembers(embedTenantName, groupId, params) {
      const what = 'list embed tenant group members';
      return paginate<EmbedTenantUser>(
        () => ({ path: `${groupPath(embedTenantName, groupId, what)}/users`, scheme: 'Api-Key', what }),
        params,
      );
    },
    async addEmbedTenantGroupMember(embedTenantName, groupId, member, callOptions = {}) {
      const what = 'add embed tenant group member';
      await sendEmpty({
        method: 'POST',
        path: `${groupPath(embedTenantName, groupId, what)}/users`,
        scheme: 'Api-Key',
        what,
        body: memberBody(member, what),
        signal: callOptions.signal,
      });
    },
    async removeEmbedTenantGroupMember(embedTenantName, groupId, member, callOptions = {}) {
      const what = 'remove embed tenant group member';
      await sendEmpty({
        method: 'DELETE',
        path: `${groupPath(embedTenantName, groupId, what)}/users`,
        scheme: 'Api-Key',
        what,
        body: memberBody(member, what),
        signal: callOptions.signal,
      });
    },

    async setDashboardEmbedding(publicId, allowEmbed, callOptions = {}) {
      const what = 'set dashboard embedding';
      if (typeof allowEmbed !== 'boolean') throw new ServiceValidationError(['allowEmbed: must be true or false']);
      return sendJson({
        method: 'PATCH',
        path: `/api/v1/embed/dashboard/${pathSegment(publicId, 'publicId', what)}`,
        scheme: 'Bearer',
        what,
        body: { allowEmbed },
        signal: callOptions.signal,
        // Setting a flag to a given value is idempotent even though the method is PATCH.
        idempotent: true,
      });
    },
    async getWorkbookEmbedAccess(deploymentId, workbookId, callOptions = {}) {
      const what = 'get workbook embed access';
      return sendRecord<WorkbookEmbedAccess>(
        {
          method: 'GET',
          path: `${deploymentPath(deploymentId, what)}/workbooks/${positiveInteger(workbookId, 'workbookId', what)}/embed-access`,
          scheme: 'Bearer',
          what,
          signal: callOptions.signal,
        },
        isRecord,
        'an object',
      );
    },
    async setWorkbookEmbedAccess(deploymentId, workbookId, access, callOptions = {}) {
      const what = 'set workbook embed access';
      if (!isRecord(access) || (access.action !== 'read' && access.action !== 'none')) {
        throw new ServiceValidationError(['access.action: must be "read" or "none"'], {
          message: `${what}: access.action must be "read" or "none"`,
        });
      }
      const answer = await sendJson({
        method: 'PUT',
        path: `${deploymentPath(deploymentId, what)}/workbooks/${positiveInteger(workbookId, 'workbookId', what)}/embed-access`,
        scheme: 'Bearer',
        what,
        body: access,
        signal: callOptions.signal,
      });
      return isRecord(answer) ? answer : {};
    },

    async request<T = unknown>(raw: RawRequestOptions): Promise<T> {
      if (!isRecord(raw) || typeof raw.path !== 'string' || !raw.path.startsWith('/')) {
        throw new ServiceConfigError(`${WHO}: request() needs a \`path\` below {base_url} starting with "/"`);
      }
      return (await sendJson({
        method: raw.method,
        path: raw.path,
        scheme: raw.scheme ?? 'Bearer',
        what: `${raw.method} ${raw.path}`,
        query: raw.query,
        body: raw.body,
        signal: raw.signal,
        idempotent: raw.idempotent,
      })) as T;
    },
  };
}
