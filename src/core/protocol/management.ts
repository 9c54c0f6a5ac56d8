/**
 * The management endpoints of interface §4.6 beyond the workbook upsert: workspace (workbooks,
 * reports, notifications, embed access, bulk operations), people (users, user attributes and their
 * values) and tenant (settings, OAuth integrations, OIDC token configs, app config, dashboard
 * embedding and Python runs). Types of what is sent and answered, and the validators of every rule
 * §4.6 states for them; the server client checks inputs with these before sending, the emulator
 * checks bodies with the same ones.
 *
 * Fields the interface does not show (§2.9, "bodies ... not shown") are typed loosely: the fields
 * named here are those the emulator answers, and anything else passes through.
 *
 * @module
 */
import * as v from 'valibot';
import type { UserAttribute } from './session';
import { isRecord, type ValidationResult } from './shared';
import { WORKBOOK_TYPES, deferred, objectWith, validateWith, type Dashboard, type WorkbookType } from './workbook';

// ---------------------------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------------------------

/** @internal A whole number of 1 or more: an id. */
export const positiveId = (message = 'must be a positive whole number, an id') =>
  v.pipe(v.number(message), v.integer(message), v.minValue(1, message));

/** @internal A string with more than white space in it. */
export const filledString = (message: string) =>
  v.pipe(
    v.string(message),
    v.check((text) => text.trim() !== '', message),
  );

const optionalString = () => v.optional(v.string('must be a string'));
const nullishString = () => v.nullish(v.string('must be a string or null'));
const optionalRecord = (message: string) => v.nullish(v.custom<Record<string, unknown>>(isRecord, message));
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  v.picklist(values, `must be one of ${values.join(', ')}`);

/** @internal {@link validateWith} for a request body, its problems named from the body's fields. */
export function validateBody<T>(schema: v.GenericSchema<unknown, T>, input: unknown): ValidationResult<T> {
  return validateWith(schema, input, '', 'body');
}

// ---------------------------------------------------------------------------------------------
// Bulk operations (§4.6 "per-item failures reported")
// ---------------------------------------------------------------------------------------------

/** One item a bulk operation could not process, and why. */
export interface BulkFailure<T> {
  /** The item as it was sent. */
  item: T;
  /** The service's reason, such as `User 7 not found`. */
  error: string;
  /** A machine-readable reason, where the service gives one (`not_found`, `forbidden`, `conflict`). */
  code?: string;
}

/**
 * What a bulk operation did, item by item (§4.6: per-item failures are reported). The request as a
 * whole succeeded even when `failed` is not empty: the client resolves with it, never throws for it.
 */
export interface BulkResult<T> {
  /** Items processed, in the order sent. */
  succeeded: T[];
  /** Items not processed, each with its reason, in the order sent. */
  failed: BulkFailure<T>[];
}

/** True when `value` has the shape of a {@link BulkResult}. */
export function isBulkResult(value: unknown): value is BulkResult<unknown> {
  return (
    isRecord(value) &&
    Array.isArray(value['succeeded']) &&
    Array.isArray(value['failed']) &&
    value['failed'].every((failure) => isRecord(failure) && 'item' in failure && typeof failure['error'] === 'string')
  );
}

// ---------------------------------------------------------------------------------------------
// Workspace: items, reports, workbooks, notifications, embed access
// ---------------------------------------------------------------------------------------------

/** Types of workspace item that bulk-delete and bulk-move take (§4.6; the `type` of §2.1). */
export const WORKSPACE_ITEM_TYPES = WORKBOOK_TYPES;

/** A workspace item named in a bulk operation. */
export interface WorkspaceItemRef {
  /** `FOLDER`, `WORKBOOK` or `REPORT`. */
  type: WorkbookType;
  /** Its id. */
  id: number;
}

const WorkspaceItemsSchema = /*#__PURE__*/ deferred(() =>
  v.pipe(
    v.array(
      objectWith({ type: oneOf(WORKSPACE_ITEM_TYPES), id: positiveId() }, 'must be an object { type, id }'),
      'must be an array of { type, id }',
    ),
    v.minLength(1, 'must name at least one item'),
  ),
);

/** Body of `workspace/bulk-delete` (§4.6). */
export interface BulkDeleteInput {
  /** What to delete. */
  items: WorkspaceItemRef[];
}

/** Body of `workspace/bulk-move` (§4.6). */
export interface BulkMoveInput {
  /** What to move. */
  items: WorkspaceItemRef[];
  /** Destination folder; `null` moves to the top level. */
  folderId: number | null;
}

/** Checks a bulk-delete body (§4.6): items typed `FOLDER`, `WORKBOOK` or `REPORT` with their ids. */
export function validateBulkDeleteInput(input: unknown): ValidationResult<BulkDeleteInput> {
  return validateBody(objectWith({ items: WorkspaceItemsSchema }, 'must be an object { items }'), input);
}

/** Checks a bulk-move body (§4.6): typed items and a destination folder id, or `null` for the top. */
export function validateBulkMoveInput(input: unknown): ValidationResult<BulkMoveInput> {
  return validateBody(
    objectWith(
      {
        items: WorkspaceItemsSchema,
        folderId: v.nullable(positiveId('must be a folder id, or null for the top level')),
      },
      'must be an object { items, folderId }',
    ),
    input,
  );
}

/** Orders of the reports list (§4.6). */
export const REPORT_SORTS = ['name', 'createdAt', 'updatedAt', 'lastViewedAt'] as const;
/** An order of the reports list. */
export type ReportSort = (typeof REPORT_SORTS)[number];

/** The sort of the reports list with which cursor paging is unavailable (§4.6). */
export const UNPAGED_REPORT_SORT: ReportSort = 'lastViewedAt';

/** The query of the reports list whose rules §4.6 states. */
export interface ReportListQuery {
  /** The order. */
  sortBy?: ReportSort;
  /** A cursor: not with {@link UNPAGED_REPORT_SORT}. */
  after?: string;
}

/**
 * Checks the reports list query (§4.6): `sortBy` one of {@link REPORT_SORTS}, and no `after`
 * cursor with `lastViewedAt`, with which cursor paging is unavailable.
 */
export function validateReportListQuery(input: ReportListQuery): ValidationResult<ReportListQuery> {
  return validateWith(
    v.pipe(
      v.object({ sortBy: v.optional(oneOf(REPORT_SORTS)), after: v.optional(v.string('must be a string')) }),
      v.forward(
        v.check(
          (query) => !(query.sortBy === UNPAGED_REPORT_SORT && query.after !== undefined),
          `cursor paging is unavailable with sortBy ${UNPAGED_REPORT_SORT}: leave out after`,
        ),
        ['after'],
      ),
    ),
    input,
    '',
    'query',
  );
}

/** A report (§4.6). Fields beyond `id` are not published (§2.9); the emulator's are listed. */
export interface Report {
  /** Report id. */
  id: number;
  /** Its deployment. */
  deploymentId?: number;
  /** Its public id, which `upsertReportByPublicId` names. */
  publicId?: string;
  /** Its name; `null` for an untitled report. */
  name?: string | null;
  /** Its folder; `null` at the top. */
  folderId?: number | null;
  /** The SQL it runs. */
  sqlQuery?: string;
  /** The external workbook it is connected to (`connectReportWorkbook`), or `null`. */
  externalWorkbookId?: string | null;
  [key: string]: unknown;
}

/** Body of the report upsert by public id (§4.6). Every field optional; only those sent change. */
export interface ReportInput {
  /** Report name. */
  name?: string | null;
  /** Destination folder; `null` for the top level. */
  folderId?: number | null;
  /** The SQL it runs. */
  sqlQuery?: string | null;
  /** A new public id (report update accepts `publicId`, §4.6 release notes). */
  publicId?: string;
  [key: string]: unknown;
}

/** Checks the report upsert body: the types of the fields named in {@link ReportInput}. */
export function validateReportInput(input: unknown): ValidationResult<ReportInput> {
  return validateBody(
    objectWith(
      {
        name: nullishString(),
        folderId: v.nullish(positiveId('must be a folder id or null')),
        sqlQuery: nullishString(),
        publicId: v.optional(filledString('must be a non-empty string')),
      },
      'must be an object { name?, folderId?, sqlQuery?, publicId? }',
    ),
    input ?? {},
  );
}

/** Body of `reports/{reportId}/connect-workbook` (§4.6). */
export interface ConnectWorkbookInput {
  /** Id of the external workbook (a spreadsheet) the report feeds. */
  externalWorkbookId: string;
  /** Where in it the result goes, such as a sheet name. */
  resultLocation?: string;
  /** The cell where the result ends. */
  endResultCell?: string;
  [key: string]: unknown;
}

/** Checks a connect-workbook body (§4.6): `externalWorkbookId` required; the others strings. */
export function validateConnectWorkbookInput(input: unknown): ValidationResult<ConnectWorkbookInput> {
  return validateBody(
    objectWith(
      {
        externalWorkbookId: filledString('must be a non-empty string, the id of the external workbook'),
        resultLocation: optionalString(),
        endResultCell: optionalString(),
      },
      'must be an object { externalWorkbookId, resultLocation?, endResultCell? }',
    ),
    input,
  );
}

/** Body of `workbooks/{workbookId}/duplicate` (§4.6); optional. */
export interface DuplicateWorkbookInput {
  /** Clone from the shared workspace. */
  shared?: boolean;
  [key: string]: unknown;
}

/** Checks a duplicate body (§4.6): optional, with an optional boolean `shared`. */
export function validateDuplicateWorkbookInput(input: unknown): ValidationResult<DuplicateWorkbookInput> {
  return validateBody(
    objectWith({ shared: v.optional(v.boolean('must be true or false')) }, 'must be an object { shared? }'),
    input ?? {},
  );
}

/** Body of `workbooks/{workbookId}/dashboard/ai-widget-thread` (§4.6). */
export interface AiWidgetThreadInput {
  /** The chat thread (a `chatId`) the AI widget shows. */
  threadId: string;
  /** The AI widget of the workbook's dashboard. */
  widgetId: string;
  /** The checksum of the dashboard the caller last read; a stale one is refused. */
  checksum?: string;
}

/** Checks an ai-widget-thread body (§4.6): `threadId` and `widgetId` required, `checksum` optional. */
export function validateAiWidgetThreadInput(input: unknown): ValidationResult<AiWidgetThreadInput> {
  return validateBody(
    objectWith(
      {
        threadId: filledString('must be a non-empty string, the chat thread id'),
        widgetId: filledString('must be a non-empty string, the id of the AI widget'),
        checksum: optionalString(),
      },
      'must be an object { threadId, widgetId, checksum? }',
    ),
    input,
  );
}

/** The dashboard the ai-widget-thread operation answers (§4.6: returns Dashboard). */
export type AiWidgetThreadResult = Dashboard;

/** An embed access level (§4.6): `read` lets embed viewers open the workbook, `none` does not. */
export const EMBED_ACCESS_ACTIONS = ['read', 'none'] as const;
/** An embed access level. */
export type EmbedAccessAction = (typeof EMBED_ACCESS_ACTIONS)[number];

/**
 * A change of a workbook's embed access (§4.6): `action` for the embed tenant `embedTenantName`,
 * or for all embed users when it is absent or `null`.
 */
export interface WorkbookEmbedAccessInput {
  /** What the embed users may do with the workbook. */
  action: EmbedAccessAction;
  /** The embed tenant it applies to; all embed users when absent or `null`. */
  embedTenantName?: string | null;
  [key: string]: unknown;
}

/** Checks an embed-access body (§4.6): `action` is `read` or `none`; the tenant a string or null. */
export function validateEmbedAccessInput(input: unknown): ValidationResult<WorkbookEmbedAccessInput> {
  return validateBody(
    objectWith(
      { action: oneOf(EMBED_ACCESS_ACTIONS), embedTenantName: nullishString() },
      'must be an object { action: "read" | "none", embedTenantName? }',
    ),
    input,
  );
}

/**
 * Embed access of a workbook as the service answers it (§4.6: per embed tenant or for all embed
 * users). Its fields are not published (§2.9); the emulator answers these.
 */
export interface WorkbookEmbedAccess {
  /** The workbook. */
  workbookId?: number;
  /** Access of every embed user without an entry of their own. */
  allEmbedUsers?: EmbedAccessAction;
  /** Access per embed tenant. */
  embedTenants?: {
    /** The embed tenant. */
    embedTenantName: string;
    /** Its access. */
    action: EmbedAccessAction;
  }[];
  [key: string]: unknown;
}

/** Who a scheduled notification goes to: an internal user, an email address, or an embed user. */
export type NotificationRecipient =
  | {
      /** An internal user's id. */
      userId: number;
    }
  | {
      /** An email address. */
      email: string;
    }
  | {
      /** The embed tenant of the external user. */
      embedTenantName: string;
      /** The external user's id in that tenant. */
      externalId: string;
    };

/** Fields of a scheduled notification other than its dashboard. Only `filters` and `timeGrains` are published (§4.6). */
export interface NotificationFields {
  /** Name shown in the schedule list. */
  name?: string;
  /** When it is sent: a cron expression and an IANA time zone. */
  schedule?: {
    /** Five-field cron expression, such as `0 8 * * 1`. */
    cron: string;
    /** IANA time zone of the cron expression; default UTC. */
    timezone?: string;
  };
  /** Who receives it. */
  recipients?: NotificationRecipient[];
  /** Dashboard filters applied to the snapshot, by member (`orders.status`): the filter value. */
  filters?: Record<string, unknown> | null;
  /** Time grains applied, by time dimension (`orders.created_at`): the granularity (`month`). */
  timeGrains?: Record<string, string> | null;
  [key: string]: unknown;
}

/** Body that creates a scheduled notification (§4.6): exactly one of `dashboardId` or `dashboardPublicId`. */
export type NotificationInput = NotificationFields &
  (
    | {
        /** The dashboard's id. */
        dashboardId: number;
        /** Not with `dashboardId`: name the dashboard one way only. */
        dashboardPublicId?: never;
      }
    | {
        /** The dashboard's public id. */
        dashboardPublicId: string;
        /** Not with `dashboardPublicId`: name the dashboard one way only. */
        dashboardId?: never;
      }
  );

/** Body that changes a scheduled notification: only the fields sent change; at most one dashboard field. */
export type NotificationPatch = NotificationFields & {
  /** Another dashboard, by id. */
  dashboardId?: number;
  /** Another dashboard, by public id. */
  dashboardPublicId?: string;
};

/** A scheduled notification as the emulator answers it (its fields are not published, §2.9). */
export interface Notification extends NotificationFields {
  /** Notification id. */
  id: number;
  /** Its deployment. */
  deploymentId?: number;
  /** The dashboard's id. */
  dashboardId?: number;
  /** The dashboard's public id. */
  dashboardPublicId?: string;
}

const RecipientSchema = /*#__PURE__*/ deferred(() =>
  v.union(
    [
      v.looseObject({ userId: positiveId() }),
      v.looseObject({ email: filledString('must be an email address') }),
      v.looseObject({
        embedTenantName: filledString('must be a string'),
        externalId: filledString('must be a string'),
      }),
    ],
    'must be { userId }, { email } or { embedTenantName, externalId }',
  ),
);

const notificationEntries = () => ({
  dashboardId: v.optional(positiveId('must be a dashboard id')),
  dashboardPublicId: v.optional(filledString('must be a non-empty string, the public id of a dashboard')),
  name: optionalString(),
  schedule: v.optional(
    objectWith(
      { cron: filledString('must be a cron expression such as "0 8 * * 1"'), timezone: optionalString() },
      'must be an object { cron, timezone? }',
    ),
  ),
  recipients: v.optional(v.array(RecipientSchema, 'must be an array of recipients')),
  filters: optionalRecord('must be an object of dashboard filters by member, or null'),
  timeGrains: v.nullish(
    v.pipe(
      v.custom<Record<string, unknown>>(isRecord, 'must be an object of granularities by time dimension, or null'),
      v.record(v.string(), v.string('must be a granularity such as "month"')),
    ),
  ),
});

const dashboardCount = (input: { dashboardId?: unknown; dashboardPublicId?: unknown }) =>
  Number(input.dashboardId !== undefined) + Number(input.dashboardPublicId !== undefined);

/** Checks a notification to create (§4.6): exactly one of `dashboardId` or `dashboardPublicId`; filters and time grains. */
export function validateNotificationInput(input: unknown): ValidationResult<NotificationInput> {
  return validateBody(
    v.pipe(
      objectWith(notificationEntries(), 'must be an object { dashboardId | dashboardPublicId, ... }'),
      v.forward(
        v.check((value) => dashboardCount(value) === 1, 'give exactly one of dashboardId or dashboardPublicId'),
        ['dashboardId'],
      ),
    ),
    input,
  ) as ValidationResult<NotificationInput>;
}

/** Checks a notification change (§4.6): at most one of `dashboardId` or `dashboardPublicId`. */
export function validateNotificationPatch(input: unknown): ValidationResult<NotificationPatch> {
  return validateBody(
    v.pipe(
      objectWith(notificationEntries(), 'must be an object of the fields to change'),
      v.forward(
        v.check((value) => dashboardCount(value) < 2, 'give at most one of dashboardId or dashboardPublicId'),
        ['dashboardId'],
      ),
    ),
    input,
  );
}

/** Filters of the notifications list (§4.6). */
export interface NotificationListFilters {
  /** Only notifications of this dashboard. */
  dashboardPublicId?: string;
  /** Only those sent to this internal user. */
  recipientUserId?: number;
  /** Only those sent to this address. */
  recipientEmail?: string;
  /** Only those sent to an external user of this embed tenant: give `recipientExternalId` with it. */
  recipientEmbedTenantName?: string;
  /** Only those sent to this external user: give `recipientEmbedTenantName` with it. */
  recipientExternalId?: string;
}

/** Checks the notifications list filters (§4.6): `recipientEmbedTenantName` goes with `recipientExternalId`. */
export function validateNotificationListFilters(input: unknown): ValidationResult<NotificationListFilters> {
  return validateWith(
    v.pipe(
      v.looseObject({
        dashboardPublicId: v.optional(filledString('must be a non-empty string')),
        recipientUserId: v.optional(positiveId('must be a user id')),
        recipientEmail: v.optional(filledString('must be a non-empty string')),
        recipientEmbedTenantName: v.optional(filledString('must be a non-empty string')),
        recipientExternalId: v.optional(filledString('must be a non-empty string')),
      }),
      v.forward(
        v.check(
          (query) => (query.recipientEmbedTenantName === undefined) === (query.recipientExternalId === undefined),
          'recipientEmbedTenantName and recipientExternalId go together: give both or neither',
        ),
        ['recipientExternalId'],
      ),
    ),
    input,
    '',
    'query',
  );
}

// ---------------------------------------------------------------------------------------------
// People: users, bulk actions, user attributes and their values
// ---------------------------------------------------------------------------------------------

/** An internal user (§4.6 `/api/v1/users/`); fields beyond these are not published (§2.9). */
export interface User {
  /** User id. */
  id: number;
  /** Email address, also the username `internalId` names. */
  email: string;
  /** First name. */
  firstName?: string | null;
  /** Last name. */
  lastName?: string | null;
  /** The emulator's roles: `admin`, `editor` (AI BI User), `viewer`. */
  role?: string;
  /** `active` or `deactivated` (bulk `DEACTIVATE`, SCIM `active: false`). */
  status?: string;
  [key: string]: unknown;
}

/** Body that creates a user. */
export interface UserInput {
  /** Email address (the username); unique. */
  email: string;
  /** First name. */
  firstName?: string;
  /** Last name. */
  lastName?: string;
  /** Role; the emulator knows `admin`, `editor`, `viewer` (default `viewer`). */
  role?: string;
  [key: string]: unknown;
}

/** Body that changes a user: only the fields sent change. */
export interface UserPatch {
  /** A new email address. */
  email?: string;
  /** A new first name. */
  firstName?: string;
  /** A new last name. */
  lastName?: string;
  /** A new role. */
  role?: string;
  [key: string]: unknown;
}

/** Checks a user to create: `email` a non-empty string; the names and role strings. */
export function validateUserInput(input: unknown): ValidationResult<UserInput> {
  return validateBody(
    objectWith(
      {
        email: filledString('must be a non-empty string, the email address'),
        firstName: optionalString(),
        lastName: optionalString(),
        role: optionalString(),
      },
      'must be an object { email, firstName?, lastName?, role? }',
    ),
    input,
  );
}

/** Checks a user change: each field sent is a string, `email` non-empty. */
export function validateUserPatch(input: unknown): ValidationResult<UserPatch> {
  return validateBody(
    objectWith(
      {
        email: v.optional(filledString('must be a non-empty string, the email address')),
        firstName: optionalString(),
        lastName: optionalString(),
        role: optionalString(),
      },
      'must be an object of the fields to change',
    ),
    input,
  );
}

/** Actions of `POST /api/v1/users/bulk` (§4.6). */
export const BULK_USER_ACTIONS = ['DEACTIVATE', 'ACTIVATE', 'DELETE'] as const;
/** An action of the users bulk operation. */
export type BulkUserAction = (typeof BULK_USER_ACTIONS)[number];

/** Body of `POST /api/v1/users/bulk` (§4.6). */
export interface BulkUserUpdate {
  /** `DEACTIVATE`, `ACTIVATE` or `DELETE`. */
  action: BulkUserAction;
  /** The users it applies to. */
  userIds: number[];
}

/** Checks a users bulk body (§4.6): the action enum and at least one user id. */
export function validateBulkUserUpdate(input: unknown): ValidationResult<BulkUserUpdate> {
  return validateBody(
    objectWith(
      {
        action: oneOf(BULK_USER_ACTIONS),
        userIds: v.pipe(
          v.array(positiveId('must be a user id'), 'must be an array of user ids'),
          v.minLength(1, 'must name at least one user'),
        ),
      },
      'must be an object { action, userIds }',
    ),
    input,
  );
}

/** Types of a tenant-wide user attribute (§4.6 `/api/v1/user-attributes`). */
export const USER_ATTRIBUTE_TYPES = ['string', 'number', 'boolean', 'string_array', 'number_array'] as const;
/** Type of a tenant-wide user attribute. */
export type UserAttributeType = (typeof USER_ATTRIBUTE_TYPES)[number];

/** A tenant-wide user attribute (§4.6): what sessions' `userAttributes` name in read-only mode. */
export interface TenantUserAttribute {
  /** Attribute id. */
  id: number;
  /** Attribute name. */
  name: string;
  /** Value type; immutable once created. */
  type: UserAttributeType;
  /** Human name. */
  displayName?: string | null;
  /** What it means. */
  description?: string | null;
  /** Default value, as text. */
  defaultValue?: string | null;
  [key: string]: unknown;
}

/** Body that creates a tenant-wide user attribute. */
export interface TenantUserAttributeInput {
  /** Attribute name, unique. */
  name: string;
  /** One of {@link USER_ATTRIBUTE_TYPES}. */
  type: UserAttributeType;
  /** Human name. */
  displayName?: string;
  /** What it means. */
  description?: string;
  /** Default value, as text. */
  defaultValue?: string;
  [key: string]: unknown;
}

/** Body that changes a tenant-wide user attribute; a `type` other than the stored one is refused. */
export type TenantUserAttributePatch = Partial<TenantUserAttributeInput>;

const attributeEntries = (create: boolean) => ({
  name: create ? filledString('must be a non-empty string') : v.optional(filledString('must be a non-empty string')),
  type: create ? oneOf(USER_ATTRIBUTE_TYPES) : v.optional(oneOf(USER_ATTRIBUTE_TYPES)),
  displayName: optionalString(),
  description: optionalString(),
  defaultValue: optionalString(),
});

/** Checks a user attribute to create (§4.6): a name and a type of {@link USER_ATTRIBUTE_TYPES}. */
export function validateTenantUserAttributeInput(input: unknown): ValidationResult<TenantUserAttributeInput> {
  return validateBody(
    objectWith(attributeEntries(true), 'must be an object { name, type, displayName?, description?, defaultValue? }'),
    input,
  ) as ValidationResult<TenantUserAttributeInput>;
}

/** Checks a user attribute change (§4.6): a `type`, when sent, is one of {@link USER_ATTRIBUTE_TYPES}. */
export function validateTenantUserAttributePatch(input: unknown): ValidationResult<TenantUserAttributePatch> {
  return validateBody(objectWith(attributeEntries(false), 'must be an object of the fields to change'), input);
}

/** The attribute values of one user (§4.6 `/api/v1/user-attribute-values/`). */
export interface UserAttributeValues {
  /** The internal user. */
  userId: number;
  /** Their values, one per attribute; `null` in an upsert clears a value. */
  values: UserAttribute[];
}

const AttributeValueSchema = /*#__PURE__*/ deferred(() =>
  v.union(
    [
      v.string(),
      v.pipe(v.number(), v.finite()),
      v.boolean(),
      v.array(v.string()),
      v.array(v.pipe(v.number(), v.finite())),
      v.null(),
    ],
    'must be a string, a number, a boolean, an array of strings or of numbers, or null (which clears it)',
  ),
);

/** Checks a values upsert (§4.6): a user id and `{ name, value }` entries, each name once. */
export function validateUserAttributeValues(input: unknown): ValidationResult<UserAttributeValues> {
  return validateBody(
    objectWith(
      {
        userId: positiveId('must be a user id'),
        values: v.pipe(
          v.array(
            objectWith(
              { name: filledString('must be a non-empty string'), value: AttributeValueSchema },
              'must be an object { name, value }',
            ),
            'must be an array of { name, value }',
          ),
          v.check(
            (values) => new Set(values.map((value) => value.name)).size === values.length,
            'must name each attribute once',
          ),
        ),
      },
      'must be an object { userId, values }',
    ),
    input,
  ) as ValidationResult<UserAttributeValues>;
}

// ---------------------------------------------------------------------------------------------
// Tenant: settings, OAuth, OIDC, app config, dashboards
// ---------------------------------------------------------------------------------------------

/**
 * Tenant settings (§4.6 `/api/v1/tenant/settings`: audit log, maintenance window, support access,
 * OIDC, AI/BI interface toggles). The field names are not published (§2.9); these are the emulator's.
 */
export interface TenantSettings {
  /** Whether the audit log records changes. */
  auditLogEnabled?: boolean;
  /** When upgrades may run; `null` for any time. */
  maintenanceWindow?: {
    /** Day of the week, 0 (Sunday) to 6. */
    dayOfWeek: number;
    /** Start hour, 0 to 23, UTC. */
    startHour: number;
    /** Length in hours. */
    durationHours: number;
  } | null;
  /** Whether the service's support staff may sign in to the tenant. */
  supportAccessEnabled?: boolean;
  /** Whether users sign in through OIDC. */
  oidcEnabled?: boolean;
  /** Whether the AI interface is on. */
  aiInterfaceEnabled?: boolean;
  /** Whether the BI interface is on. */
  biInterfaceEnabled?: boolean;
  [key: string]: unknown;
}

/** App configuration (§4.6 `GET /api/v1/app-config`), with the fields the interface lists. */
export interface AppConfig {
  /** The app's theme; its structure is not published. */
  appTheme: Record<string, unknown> | null;
  /** Whether the theme applies outside embeds too. */
  applyThemeGlobally: boolean;
  /** Creator-mode settings. */
  creatorMode: {
    /** Whether the SQL the AI generated is shown. */
    showGeneratedSql: boolean;
    /** Whether the semantic SQL is shown. */
    showSemanticSql: boolean;
    /** The app's title per locale. */
    localizedTitles: {
      /** A BCP 47 tag. */
      locale: string;
      /** The title in that locale. */
      value: string;
    }[];
  };
  /** Embedding settings. */
  embedding: {
    /** Default embed locale. */
    locale: string;
    /** The account-wide show-dashboard-chat toggle (§2.7). */
    showDashboardChat: boolean;
  };
  /** Sheets UI settings. */
  sheetsUi: {
    /** Whether applied filters are shown. */
    showAppliedFilters: boolean;
  };
  [key: string]: unknown;
}

/** An OAuth integration (§4.6); its fields are not published, these are the emulator's. */
export interface OAuthIntegration {
  /** Integration id. */
  id: number;
  /** Name shown to users. */
  name: string;
  /** The provider, such as `github` or `google`. */
  provider?: string;
  /** OAuth client id. */
  clientId?: string;
  /** Scopes requested. */
  scopes?: string[];
  [key: string]: unknown;
}

/** Body that creates or changes an OAuth integration; `clientSecret` is write-only. */
export interface OAuthIntegrationInput {
  /** Name shown to users. */
  name?: string;
  /** The provider. */
  provider?: string;
  /** OAuth client id. */
  clientId?: string;
  /** OAuth client secret; never answered. */
  clientSecret?: string;
  /** Authorization endpoint. */
  authorizeUrl?: string;
  /** Token endpoint. */
  tokenUrl?: string;
  /** Scopes requested. */
  scopes?: string[];
  [key: string]: unknown;
}

/** The caller's OAuth token for one integration (§4.6 `/api/v1/user-oauth-tokens/`). */
export interface UserOAuthToken {
  /** The integration. */
  integrationId: number;
  /** `pending` after `initiate`, `connected` once granted. */
  status?: string;
  [key: string]: unknown;
}

/** Body of `user-oauth-tokens/{integrationId}/initiate`; optional, its fields are not published. */
export interface OAuthInitiationInput {
  /** Where the provider sends the user back after the grant. */
  redirectUri?: string;
  [key: string]: unknown;
}

/** Answer of `user-oauth-tokens/{integrationId}/initiate`: where to send the user to grant access. */
export interface OAuthInitiation {
  /** The provider's authorization URL. */
  authorizationUrl: string;
  [key: string]: unknown;
}

/** An OIDC token config (§4.6); its fields are not published, these are the emulator's. */
export interface OidcTokenConfig {
  /** Config id. */
  id: number;
  /** Its name. */
  name?: string;
  /** Token issuer (`iss`). */
  issuer?: string;
  /** Expected audience (`aud`). */
  audience?: string;
  /** Where the issuer's keys are. */
  jwksUrl?: string;
  [key: string]: unknown;
}

/** Body that creates or changes an OIDC token config. */
export interface OidcTokenConfigInput {
  /** Its name. */
  name?: string;
  /** Token issuer (`iss`). */
  issuer?: string;
  /** Expected audience (`aud`). */
  audience?: string;
  /** Where the issuer's keys are. */
  jwksUrl?: string;
  [key: string]: unknown;
}

/** Body of `POST /api/v1/embed/dashboard/{publicId}/python-run` (§4.6): the dashboard filters to apply. */
export interface PythonRunInput {
  /** Dashboard filters applied to the run, by member. */
  filters?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Answer of a Python run; its fields are not published, these are the emulator's. */
export interface PythonRun {
  /** The run's id. */
  runId?: string;
  /** `completed` or `failed`. */
  status?: string;
  [key: string]: unknown;
}

/** Checks a Python run body (§4.6): optional, with an object of `filters`. */
export function validatePythonRunInput(input: unknown): ValidationResult<PythonRunInput> {
  return validateBody(
    objectWith(
      { filters: v.optional(v.custom(isRecord, 'must be an object of filters by member')) },
      'must be an object { filters? }',
    ),
    input ?? {},
  ) as ValidationResult<PythonRunInput>;
}
