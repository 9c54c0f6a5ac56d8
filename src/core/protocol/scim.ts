/**
 * SCIM 2.0 provisioning of users and groups (interface §1, §4.6, §5; RFC 7643 resources, RFC 7644
 * protocol): `/api/scim/v2/Users` and `/api/scim/v2/Groups`, listed with `startIndex` and `count`.
 * Types of the resources and messages, and the schemas of the rules SCIM states (a user's
 * `userName` and a group's `displayName` are required; PATCH operations are `add`, `remove` or
 * `replace`, case-insensitively as identity providers send them).
 *
 * @module
 */
import * as v from 'valibot';
import { filledString } from './management';
import { isRecord } from './shared';
import { deferred, objectWith } from './workbook';

/** Schema URN of a SCIM user (RFC 7643 §4.1). */
export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
/** Schema URN of a SCIM group (RFC 7643 §4.2). */
export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
/** Schema URN of a list answer (RFC 7644 §3.4.2). */
export const SCIM_LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** Schema URN of a PATCH body (RFC 7644 §3.5.2). */
export const SCIM_PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** Schema URN of an error body (RFC 7644 §3.12). */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** `meta` of a SCIM resource. */
export interface ScimMeta {
  /** `User` or `Group`. */
  resourceType?: string;
  /** Creation time, ISO 8601. */
  created?: string;
  /** Last change, ISO 8601. */
  lastModified?: string;
  /** The resource's URL. */
  location?: string;
  [key: string]: unknown;
}

/** A reference from one SCIM resource to another (a group's member, a user's group). */
export interface ScimReference {
  /** The `id` of the resource referred to. */
  value: string;
  /** Its name, for people. */
  display?: string;
  [key: string]: unknown;
}

/** A SCIM user (RFC 7643 §4.1); the service maps it onto an internal user. */
export interface ScimUser {
  /** Schema URNs; {@link SCIM_USER_SCHEMA} at least. */
  schemas?: string[];
  /** The service's id of the user; absent in a create body. */
  id?: string;
  /** The identity provider's own id. */
  externalId?: string;
  /** Unique username: the user's email address here. Required. */
  userName: string;
  /** The user's name. */
  name?: {
    /** First name. */
    givenName?: string;
    /** Last name. */
    familyName?: string;
    /** The whole name. */
    formatted?: string;
    [key: string]: unknown;
  };
  /** Name to show. */
  displayName?: string;
  /** Email addresses. */
  emails?: {
    /** The address. */
    value: string;
    /** Whether it is the main one. */
    primary?: boolean;
    /** Such as `work`. */
    type?: string;
    [key: string]: unknown;
  }[];
  /** `false` deactivates the user. */
  active?: boolean;
  /** Groups the user belongs to (read only). */
  groups?: ScimReference[];
  /** Resource metadata (read only). */
  meta?: ScimMeta;
  [key: string]: unknown;
}

/** A SCIM group (RFC 7643 §4.2); the service maps it onto a tenant-wide group. */
export interface ScimGroup {
  /** Schema URNs; {@link SCIM_GROUP_SCHEMA} at least. */
  schemas?: string[];
  /** The service's id of the group; absent in a create body. */
  id?: string;
  /** The identity provider's own id. */
  externalId?: string;
  /** The group's name. Required. */
  displayName: string;
  /** Its members, by user `id`. */
  members?: ScimReference[];
  /** Resource metadata (read only). */
  meta?: ScimMeta;
  [key: string]: unknown;
}

/** A page of a SCIM list (RFC 7644 §3.4.2). */
export interface ScimListResponse<T> {
  /** {@link SCIM_LIST_RESPONSE_SCHEMA}. */
  schemas?: string[];
  /** How many resources match, over all pages. */
  totalResults: number;
  /** 1-based index of this page's first resource. */
  startIndex?: number;
  /** How many resources this page holds. */
  itemsPerPage?: number;
  /** This page's resources. */
  Resources?: T[];
}

/** True when `value` is a SCIM list page: `totalResults` a number, `Resources` an array or absent. */
export function isScimListResponse(value: unknown): value is ScimListResponse<unknown> {
  return (
    isRecord(value) &&
    typeof value['totalResults'] === 'number' &&
    (value['Resources'] === undefined || Array.isArray(value['Resources']))
  );
}

/** Operations of a SCIM PATCH (RFC 7644 §3.5.2). */
export const SCIM_PATCH_OPS = ['add', 'remove', 'replace'] as const;

/** One operation of a SCIM PATCH. */
export interface ScimPatchOperation {
  /** `add`, `remove` or `replace` (any case: providers send `Replace`). */
  op: string;
  /** The attribute: `active`, `displayName`, `members`, `members[value eq "42"]`; absent: `value` holds attributes. */
  path?: string;
  /** The new value. */
  value?: unknown;
}

/** Body of a SCIM PATCH (RFC 7644 §3.5.2). */
export interface ScimPatch {
  /** {@link SCIM_PATCH_OP_SCHEMA}; added when absent. */
  schemas?: string[];
  /** The operations, applied in order. */
  Operations: ScimPatchOperation[];
}

/** Paging of a SCIM list (§4.6: list users takes `count` and `startIndex`). */
export interface ScimPageParams {
  /** 1-based index of the first resource. Default 1. */
  startIndex?: number;
  /** Page size (0 answers only `totalResults`). Default: the service's. */
  count?: number;
}

const message = (what: string) => `must be an object (a SCIM ${what})`;

/** @internal Schema of a SCIM user body: `userName` required (RFC 7643 §4.1). */
export const ScimUserSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      userName: filledString('must be a non-empty string, the unique username'),
      active: v.optional(v.boolean('must be true or false')),
      name: v.optional(v.custom(isRecord, 'must be an object { givenName?, familyName? }')),
      emails: v.optional(
        v.array(v.looseObject({ value: v.string('must be a string') }), 'must be an array of { value }'),
      ),
    },
    message('user'),
  ),
);

/** @internal Schema of a SCIM group body: `displayName` required (RFC 7643 §4.2). */
export const ScimGroupSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      displayName: filledString('must be a non-empty string, the group name'),
      members: v.optional(
        v.array(v.looseObject({ value: v.string('must be a string, a user id') }), 'must be an array of { value }'),
      ),
    },
    message('group'),
  ),
);

/** @internal Schema of a SCIM PATCH body: at least one operation, each `add`, `remove` or `replace`. */
export const ScimPatchSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      Operations: v.pipe(
        v.array(
          objectWith(
            {
              op: v.pipe(
                v.string('must be a string'),
                v.toLowerCase(),
                v.picklist(SCIM_PATCH_OPS, `must be one of ${SCIM_PATCH_OPS.join(', ')}`),
              ),
              path: v.optional(v.string('must be a string')),
            },
            'must be an object { op, path?, value? }',
          ),
          'must be an array of operations',
        ),
        v.minLength(1, 'must hold at least one operation'),
      ),
    },
    message('PatchOp'),
  ),
);

/** @internal Schema of {@link ScimPageParams}: `startIndex` 1 or more, `count` 0 or more. */
export const ScimPageSchema = /*#__PURE__*/ deferred(() =>
  v.looseObject({
    startIndex: v.optional(
      v.pipe(
        v.number('must be a whole number of 1 or more'),
        v.integer('must be a whole number of 1 or more'),
        v.minValue(1, 'must be a whole number of 1 or more'),
      ),
    ),
    count: v.optional(
      v.pipe(
        v.number('must be a whole number of 0 or more'),
        v.integer('must be a whole number of 0 or more'),
        v.minValue(0, 'must be a whole number of 0 or more'),
      ),
    ),
  }),
);
