/**
 * The people group of the server client (interface §4.6, §5): internal users and their bulk
 * actions, tenant-wide user attributes and per-user values (`Bearer`), and SCIM 2.0 provisioning of
 * `Users` and `Groups` (`Bearer` with the SCIM token, an API key), listed with `startIndex` and
 * `count`.
 *
 * @module
 */
import {
  isBulkResult,
  validateBulkUserUpdate,
  validateTenantUserAttributeInput,
  validateTenantUserAttributePatch,
  validateUserAttributeValues,
  validateUserInput,
  validateUserPatch,
  type BulkResult,
  type BulkUserUpdate,
  type TenantUserAttribute,
  type TenantUserAttributeInput,
  type TenantUserAttributePatch,
  type User,
  type UserAttributeValues,
  type UserInput,
  type UserPatch,
} from '../../core/protocol/management';
import {
  SCIM_GROUP_SCHEMA,
  SCIM_PATCH_OP_SCHEMA,
  SCIM_USER_SCHEMA,
  ScimGroupSchema,
  ScimPageSchema,
  ScimPatchSchema,
  ScimUserSchema,
  isScimListResponse,
  type ScimGroup,
  type ScimListResponse,
  type ScimPatch,
  type ScimUser,
} from '../../core/protocol/scim';
import type { UserAttribute } from '../../core/protocol/session';
import type * as v from 'valibot';
import { isRecord } from '../../core/protocol/shared';
import { invalidResponse, pathSegment } from '../transport';
import {
  checked,
  collection,
  createRequester,
  hasId,
  id,
  lazyList,
  valid,
  type ListParams,
  type Paginated,
  type RequestOptions,
  type Requester,
  type ScimListParams,
  type ServiceClientBase,
  type ServiceClientOptions,
} from './request';

/** Users, user attributes and their values, and SCIM (§4.6), made by {@link createPeopleClient}. */
export interface PeopleClient extends ServiceClientBase {
  /** Internal users of the account (§4.6 `GET /api/v1/users/`), cursor-paginated. */
  listUsers(params?: ListParams): Paginated<User>;
  /** Creates an internal user (§4.6 `POST /api/v1/users/`); `email` required. Not retried. */
  createUser(input: UserInput, options?: RequestOptions): Promise<User>;
  /** Changes an internal user (§4.6 `PUT /api/v1/users/{id}`); only the fields sent change. */
  updateUser(userId: number, patch: UserPatch, options?: RequestOptions): Promise<User>;
  /** Deletes an internal user (§4.6 `DELETE /api/v1/users/{id}`). */
  deleteUser(userId: number, options?: RequestOptions): Promise<void>;
  /**
   * Deactivates, activates or deletes users at once (§4.6 `POST /api/v1/users/bulk`): `action`
   * must be `DEACTIVATE`, `ACTIVATE` or `DELETE` (checked before sending). Resolves with the
   * per-user outcome: users the service could not change are in `failed` with their reason; a
   * partial failure never throws. Not retried.
   */
  bulkUpdateUsers(update: BulkUserUpdate, options?: RequestOptions): Promise<BulkResult<number>>;
  /** Tenant-wide user attributes (§4.6 `GET /api/v1/user-attributes/`), cursor-paginated. */
  listUserAttributes(params?: ListParams): Paginated<TenantUserAttribute>;
  /**
   * Creates a tenant-wide user attribute (§4.6 `POST /api/v1/user-attributes/`): its `type` must be
   * `string`, `number`, `boolean`, `string_array` or `number_array` (checked before sending).
   */
  createUserAttribute(input: TenantUserAttributeInput, options?: RequestOptions): Promise<TenantUserAttribute>;
  /** One tenant-wide user attribute (§4.6 `GET /api/v1/user-attributes/{id}`). */
  getUserAttribute(attributeId: number, options?: RequestOptions): Promise<TenantUserAttribute>;
  /**
   * Changes a tenant-wide user attribute (§4.6 `PUT /api/v1/user-attributes/{id}`); a `type`, when
   * sent, must be one of the attribute types; the service refuses a change of type.
   */
  updateUserAttribute(
    attributeId: number,
    patch: TenantUserAttributePatch,
    options?: RequestOptions,
  ): Promise<TenantUserAttribute>;
  /** The attribute values of one internal user (§4.6 `GET /api/v1/user-attribute-values/{userId}`). */
  getUserAttributeValues(userId: number, options?: RequestOptions): Promise<UserAttributeValues>;
  /**
   * Upserts attribute values of one internal user (§4.6 `POST /api/v1/user-attribute-values/`):
   * each name once, `null` clears a value; names not sent keep their values.
   */
  upsertUserAttributeValues(
    userId: number,
    values: UserAttribute[],
    options?: RequestOptions,
  ): Promise<UserAttributeValues>;
  /** SCIM users (§4.6 `GET /api/scim/v2/Users`), paged with `startIndex` and `count` until `totalResults`. */
  scimListUsers(params?: ScimListParams): Paginated<ScimUser, ScimListResponse<ScimUser>>;
  /** One SCIM user (`GET /api/scim/v2/Users/{id}`). */
  scimGetUser(userId: string, options?: RequestOptions): Promise<ScimUser>;
  /** Provisions a user (§4.6 `POST /api/scim/v2/Users`); `userName` required (RFC 7643). Not retried. */
  scimCreateUser(user: ScimUser, options?: RequestOptions): Promise<ScimUser>;
  /** Replaces a SCIM user (`PUT /api/scim/v2/Users/{id}`); `userName` required. */
  scimReplaceUser(userId: string, user: ScimUser, options?: RequestOptions): Promise<ScimUser>;
  /** Changes a SCIM user with PATCH operations (`add`, `remove`, `replace`; RFC 7644 §3.5.2), such as `active: false`. */
  scimPatchUser(userId: string, patch: ScimPatch, options?: RequestOptions): Promise<ScimUser>;
  /** Deprovisions a SCIM user (`DELETE /api/scim/v2/Users/{id}`). */
  scimDeleteUser(userId: string, options?: RequestOptions): Promise<void>;
  /** SCIM groups (§4.6 `GET /api/scim/v2/Groups`), paged with `startIndex` and `count` until `totalResults`. */
  scimListGroups(params?: ScimListParams): Paginated<ScimGroup, ScimListResponse<ScimGroup>>;
  /** One SCIM group (`GET /api/scim/v2/Groups/{id}`). */
  scimGetGroup(groupId: string, options?: RequestOptions): Promise<ScimGroup>;
  /** Provisions a group (§4.6 `POST /api/scim/v2/Groups`); `displayName` required (RFC 7643). Not retried. */
  scimCreateGroup(group: ScimGroup, options?: RequestOptions): Promise<ScimGroup>;
  /** Replaces a SCIM group and its members (`PUT /api/scim/v2/Groups/{id}`). */
  scimReplaceGroup(groupId: string, group: ScimGroup, options?: RequestOptions): Promise<ScimGroup>;
  /** Changes a SCIM group with PATCH operations, such as adding or removing `members`. */
  scimPatchGroup(groupId: string, patch: ScimPatch, options?: RequestOptions): Promise<ScimGroup>;
  /** Deprovisions a SCIM group (`DELETE /api/scim/v2/Groups/{id}`). */
  scimDeleteGroup(groupId: string, options?: RequestOptions): Promise<void>;
}

const isUserValues = (value: unknown) => isRecord(value) && Array.isArray(value['values']);

/**
 * A lazy SCIM list (RFC 7644 §3.4.2): pages from `startIndex` by `count`, each page moving on by
 * what it held, until `totalResults` or an empty page.
 */
function scimList<T>(r: Requester, path: string, what: string, params: ScimListParams = {}) {
  const { signal, filter } = params;
  return lazyList<T, ScimListResponse<T>>(
    async function* pages() {
      const { startIndex = 1, count } = checked(ScimPageSchema, params, what);
      for (let start = startIndex; ;) {
        const page = await r.json({ path, what, signal, query: { startIndex: start, count, filter } });
        if (!isScimListResponse(page)) {
          throw invalidResponse(what, 'a body that is not a SCIM list ({ totalResults, Resources })');
        }
        yield page as ScimListResponse<T>;
        const got = page.Resources?.length ?? 0;
        // An empty page ends the list however the service counts.
        start = (page.startIndex ?? start) + got;
        if (got === 0 || start > page.totalResults) return;
      }
    },
    (page) => page.Resources ?? [],
  );
}

/** The methods of one SCIM resource type, `Users` or `Groups`, through the one request path. */
function scimResource<T>(
  r: Requester,
  kind: 'Users' | 'Groups',
  urn: string,
  schema: v.GenericSchema<unknown, object>,
) {
  const base = `/api/scim/v2/${kind}`;
  const one = (resourceId: string, what: string) => `${base}/${pathSegment(resourceId, 'id', what)}`;
  /** A body with its schema URN, added when the caller left `schemas` out. */
  const withSchemas = (
    resource: unknown,
    what: string,
    urnOf: string,
    check: v.GenericSchema<unknown, object> = schema,
  ) => {
    const value = checked(check, resource, what);
    return { schemas: [urnOf], ...value };
  };
  const noun = kind.toLowerCase().slice(0, -1);
  return {
    list: (params?: ScimListParams) => scimList<T>(r, base, `SCIM list ${kind.toLowerCase()}`, params),
    get: (resourceId: string, options: RequestOptions = {}) => {
      const what = `SCIM get ${noun}`;
      return r.record<T>({ path: one(resourceId, what), what, signal: options.signal }, hasId, `a SCIM ${noun}`);
    },
    create: (resource: unknown, options: RequestOptions = {}) => {
      const what = `SCIM create ${noun}`;
      const body = withSchemas(resource, what, urn);
      return r.record<T>({ method: 'POST', path: base, what, body, signal: options.signal }, hasId, `a SCIM ${noun}`);
    },
    replace: (resourceId: string, resource: unknown, options: RequestOptions = {}) => {
      const what = `SCIM replace ${noun}`;
      const path = one(resourceId, what);
      const body = withSchemas(resource, what, urn);
      return r.record<T>({ method: 'PUT', path, what, body, signal: options.signal }, hasId, `a SCIM ${noun}`);
    },
    patch: (resourceId: string, patch: unknown, options: RequestOptions = {}) => {
      const what = `SCIM patch ${noun}`;
      const path = one(resourceId, what);
      const body = withSchemas(patch, what, SCIM_PATCH_OP_SCHEMA, ScimPatchSchema);
      return r.record<T>({ method: 'PATCH', path, what, body, signal: options.signal }, hasId, `a SCIM ${noun}`);
    },
    remove: async (resourceId: string, options: RequestOptions = {}) => {
      const what = `SCIM delete ${noun}`;
      await r.empty({ method: 'DELETE', path: one(resourceId, what), what, signal: options.signal });
    },
  };
}

/** @internal The people methods over a request path. */
export function peopleMethods(r: Requester): Omit<PeopleClient, 'request'> {
  const users = collection<User>(r, '/api/v1/users/', 'user', { create: validateUserInput, update: validateUserPatch });
  const attributes = collection<TenantUserAttribute>(r, '/api/v1/user-attributes/', 'user attribute', {
    create: validateTenantUserAttributeInput,
    update: validateTenantUserAttributePatch,
  });
  const scimUsers = scimResource<ScimUser>(r, 'Users', SCIM_USER_SCHEMA, ScimUserSchema);
  const scimGroups = scimResource<ScimGroup>(r, 'Groups', SCIM_GROUP_SCHEMA, ScimGroupSchema);

  return {
    listUsers: users.list,
    createUser: users.create,
    updateUser: users.update,
    deleteUser: users.remove,
    async bulkUpdateUsers(update, options = {}) {
      const what = 'bulk update users';
      const body = valid(validateBulkUserUpdate(update), what);
      return r.record(
        { method: 'POST', path: '/api/v1/users/bulk', what, body, signal: options.signal },
        isBulkResult,
        'a bulk result { succeeded, failed }',
      );
    },

    listUserAttributes: attributes.list,
    createUserAttribute: attributes.create,
    getUserAttribute: attributes.get,
    updateUserAttribute: attributes.update,
    async getUserAttributeValues(userId, options = {}) {
      const what = 'get user attribute values';
      return r.record(
        { path: `/api/v1/user-attribute-values/${id(userId, 'userId', what)}`, what, signal: options.signal },
        isUserValues,
        'the values { userId, values }',
      );
    },
    async upsertUserAttributeValues(userId, values, options = {}) {
      const what = 'upsert user attribute values';
      const body = valid(validateUserAttributeValues({ userId, values }), what);
      return r.record(
        // An upsert of the same values leaves the same state: safe to resend.
        {
          method: 'POST',
          path: '/api/v1/user-attribute-values/',
          what,
          body,
          signal: options.signal,
          idempotent: true,
        },
        isUserValues,
        'the values { userId, values }',
      );
    },

    scimListUsers: scimUsers.list,
    scimGetUser: scimUsers.get,
    scimCreateUser: scimUsers.create,
    scimReplaceUser: scimUsers.replace,
    scimPatchUser: scimUsers.patch,
    scimDeleteUser: scimUsers.remove,
    scimListGroups: scimGroups.list,
    scimGetGroup: scimGroups.get,
    scimCreateGroup: scimGroups.create,
    scimReplaceGroup: scimGroups.replace,
    scimPatchGroup: scimGroups.patch,
    scimDeleteGroup: scimGroups.remove,
  };
}

/**
 * A client of users, user attributes and SCIM alone (§4.6). Same options as `createServiceClient`;
 * for SCIM, `apiKey` is the SCIM token (an API key, §5).
 * @throws {ServiceConfigError} for options that cannot work.
 */
export function createPeopleClient(options: ServiceClientOptions): PeopleClient {
  const r = createRequester(options);
  return { ...peopleMethods(r), request: r.request };
}
