/**
 * The embedding group of the server client: embed sessions (interface §2.7, §4.2, behaviour §4)
 * and the embed-tenant admin of §4.3 (tenants, their users, groups and members). All with
 * `Api-Key` auth (§5). What a partner who only mints sessions imports: `createEmbeddingClient`.
 *
 * @module
 */
import { ServiceValidationError } from '../../core/errors';
import { isRecord } from '../../core/protocol/shared';
import {
  isSessionResponse,
  normalizeExternalId,
  sessionErrorCode,
  validateSessionRequest,
  type SessionRequest,
  type SessionResponse,
} from '../../core/protocol/session';
import { invalidResponse, pathSegment } from '../transport';
import {
  createRequester,
  id,
  nonEmpty,
  type ListParams,
  type Paginated,
  type RequestOptions,
  type Requester,
  type ServiceClientBase,
  type ServiceClientOptions,
} from './request';

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

/** Embed sessions and embed-tenant admin (§4.2, §4.3, behaviour §4), made by {@link createEmbeddingClient}. */
export interface EmbeddingClient extends ServiceClientBase {
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
  /** Embed tenants (§4.3), cursor-paginated. */
  listEmbedTenants(params?: ListParams): Paginated<EmbedTenant>;
  /** Deletes an embed tenant (§4.3; 204; the path has no trailing slash since 0.3.0). */
  deleteEmbedTenant(embedTenantName: string, options?: RequestOptions): Promise<void>;
  /** External users of an embed tenant (§4.3). */
  listEmbedTenantUsers(embedTenantName: string, params?: ListParams): Paginated<EmbedTenantUser>;
  /** Groups of an embed tenant (§4.3). */
  listEmbedTenantGroups(embedTenantName: string, params?: ListParams): Paginated<EmbedTenantGroup>;
  /** Creates a group in an embed tenant (§4.3); `name` must be a non-empty string. Not retried. */
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
  /** Adds a member (exactly one of `externalId` or `embedUserId`, behaviour §4) to an embed-tenant group (§4.3). Not retried. */
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
}

function memberBody(member: unknown, what: string): { externalId: string } | { embedUserId: number } {
  const problem = 'member: give exactly one of { externalId } or { embedUserId }';
  const hasExternal = isRecord(member) && member['externalId'] !== undefined;
  if (!isRecord(member) || hasExternal === (member['embedUserId'] !== undefined))
    throw new ServiceValidationError([problem], { message: `${what}: ${problem}` });
  if (hasExternal) {
    const externalId = normalizeExternalId(nonEmpty(member['externalId'], 'member.externalId', what));
    return { externalId };
  }
  return { embedUserId: id(member['embedUserId'], 'member.embedUserId', what) };
}

const isGroup = (value: unknown) =>
  isRecord(value) && typeof value['id'] === 'number' && typeof value['name'] === 'string';

/** @internal The embedding methods over a request path. */
export function embeddingMethods(r: Requester): Omit<EmbeddingClient, 'request'> {
  const tenantPath = (name: string, what: string) =>
    `/api/v1/embed-tenants/${pathSegment(name, 'embedTenantName', what)}`;
  const groupPath = (name: string, groupId: number, what: string) =>
    `${tenantPath(name, what)}/groups/${id(groupId, 'groupId', what)}`;
  const embed = { scheme: 'Api-Key' } as const;

  return {
    async generateSession(request, options = {}) {
      const what = 'generate-session';
      const checkedRequest = validateSessionRequest(request);
      if (!checkedRequest.ok) {
        throw new ServiceValidationError(checkedRequest.problems, {
          message: `${what}: invalid session request: ${checkedRequest.problems.join('; ')}`,
        });
      }
      const answer = await r.json({
        ...embed,
        method: 'POST',
        path: '/api/v1/embed/generate-session',
        what,
        body: checkedRequest.value,
        signal: options.signal,
        classify: sessionErrorCode,
      });
      if (!isSessionResponse(answer)) throw invalidResponse(what, 'no sessionId of 32 hex characters');
      return { sessionId: answer.sessionId };
    },

    async revokeSession(sessionId, options = {}) {
      const what = 'revoke session';
      await r.empty({
        ...embed,
        method: 'POST',
        path: '/api/v1/embed/session/revoke',
        what,
        body: { sessionId: nonEmpty(sessionId, 'sessionId', what) },
        signal: options.signal,
        // Behaviour §4: revoke answers 204 whether or not the session exists, so resending is safe.
        idempotent: true,
      });
    },

    listEmbedTenants(params) {
      return r.list(() => ({ ...embed, path: '/api/v1/embed-tenants/', what: 'list embed tenants' }), params);
    },
    async deleteEmbedTenant(embedTenantName, options = {}) {
      const what = 'delete embed tenant';
      // 0.3.0: this path has no trailing slash.
      await r.empty({
        ...embed,
        method: 'DELETE',
        path: tenantPath(embedTenantName, what),
        what,
        signal: options.signal,
      });
    },
    listEmbedTenantUsers(embedTenantName, params) {
      const what = 'list embed tenant users';
      return r.list(() => ({ ...embed, path: `${tenantPath(embedTenantName, what)}/users`, what }), params);
    },
    listEmbedTenantGroups(embedTenantName, params) {
      const what = 'list embed tenant groups';
      return r.list(() => ({ ...embed, path: `${tenantPath(embedTenantName, what)}/groups`, what }), params);
    },
    async createEmbedTenantGroup(embedTenantName, group, options = {}) {
      const what = 'create embed tenant group';
      if (!isRecord(group)) throw new ServiceValidationError(['group: must be an object { name, description? }']);
      nonEmpty(group.name, 'group.name', what);
      return r.record(
        {
          ...embed,
          method: 'POST',
          path: `${tenantPath(embedTenantName, what)}/groups`,
          what,
          body: group,
          signal: options.signal,
        },
        isGroup,
        'a group',
      );
    },
    async getEmbedTenantGroup(embedTenantName, groupId, options = {}) {
      const what = 'get embed tenant group';
      return r.record(
        { ...embed, path: groupPath(embedTenantName, groupId, what), what, signal: options.signal },
        isGroup,
        'a group',
      );
    },
    async updateEmbedTenantGroup(embedTenantName, groupId, patch, options = {}) {
      const what = 'update embed tenant group';
      if (!isRecord(patch)) throw new ServiceValidationError(['patch: must be an object { name?, description? }']);
      return r.record(
        {
          ...embed,
          method: 'PATCH',
          path: groupPath(embedTenantName, groupId, what),
          what,
          body: patch,
          signal: options.signal,
        },
        isGroup,
        'a group',
      );
    },
    async deleteEmbedTenantGroup(embedTenantName, groupId, options = {}) {
      const what = 'delete embed tenant group';
      await r.empty({
        ...embed,
        method: 'DELETE',
        path: groupPath(embedTenantName, groupId, what),
        what,
        signal: options.signal,
      });
    },
    listEmbedTenantGroupMembers(embedTenantName, groupId, params) {
      const what = 'list embed tenant group members';
      return r.list(() => ({ ...embed, path: `${groupPath(embedTenantName, groupId, what)}/users`, what }), params);
    },
    async addEmbedTenantGroupMember(embedTenantName, groupId, member, options = {}) {
      const what = 'add embed tenant group member';
      await r.empty({
        ...embed,
        method: 'POST',
        path: `${groupPath(embedTenantName, groupId, what)}/users`,
        what,
        body: memberBody(member, what),
        signal: options.signal,
      });
    },
    async removeEmbedTenantGroupMember(embedTenantName, groupId, member, options = {}) {
      const what = 'remove embed tenant group member';
      await r.empty({
        ...embed,
        method: 'DELETE',
        path: `${groupPath(embedTenantName, groupId, what)}/users`,
        what,
        body: memberBody(member, what),
        signal: options.signal,
      });
    },
  };
}

/**
 * A client of embed sessions and embed-tenant admin alone (§4.2, §4.3): what the session route
 * needs, without the rest of the management API in the bundle. Same options as `createServiceClient`.
 * @throws {ServiceConfigError} for options that cannot work.
 */
export function createEmbeddingClient(options: ServiceClientOptions): EmbeddingClient {
  const r = createRequester(options);
  return { ...embeddingMethods(r), request: r.request };
}
