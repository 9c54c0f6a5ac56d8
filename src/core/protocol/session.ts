/**
 * The embed session request (`POST {base_url}/api/v1/embed/generate-session`, docs/protocol.md §2.7 and
 * §4.2, behaviour §4): its types, the stateless rules as one validator, and the texts and limits
 * that the server-side rules (§4.2 rules 1, 2, 4; §7; §8) are stated in.
 *
 * Every rule that can be checked without server state lives in {@link validateSessionRequest}; the
 * rules that need the tenant's catalog (unknown attribute or group names, an attribute type that
 * already exists, the `useCreatorMode` flag, key scope, the external-user limit) are applied by
 * the service, or by the emulator with the texts exported here.
 *
 * @module
 */
import * as v from 'valibot';
import type { EmbedTheme } from './embed';
import type { ServiceErrorCode } from './error-codes';
import { isRecord, type ValidationResult } from './shared';

/** The theme type lives with the `set-theme` action (one home); re-exported for session users. */
export type { EmbedTheme };

// ---------------------------------------------------------------------------------------------
// Limits, patterns and texts
// ---------------------------------------------------------------------------------------------

/**
 * `embedTenantName` (§2.7, behaviour §4): lowercase letters, digits and `-`, 5 to 36 characters,
 * starting with a letter and ending with a letter or digit. No `g` flag, so `test` keeps no state.
 */
export const EMBED_TENANT_NAME_PATTERN: RegExp = /^[a-z][a-z0-9-]{3,34}[a-z0-9]$/;

/**
 * A `sessionId` answered by generate-session: 32 hex characters (behaviour §4). Either case is
 * accepted because the documentation does not fix one; the service and the emulator send lowercase.
 */
export const SESSION_ID_PATTERN: RegExp = /^[0-9a-fA-F]{32}$/;

/** External users per account that the embed session API will provision (§8). */
export const MAX_EXTERNAL_USERS = 10_000;

/**
 * Error text of §4.2 rule 1 / §7: a `userAttributes` name is not in the tenant-wide catalog
 * (read-only mode).
 */
export const USER_ATTRIBUTES_NOT_FOUND = 'User attributes not found';

/**
 * Error text of §4.2 rule 4 / §7: an attribute definition tries to change the type of an existing
 * attribute. Clients match on this text, so any fuller message must contain it.
 */
export const CANNOT_CHANGE_TYPE = 'cannot change type';

/**
 * Error text of §4.2 rule 1 / §7 for group names that do not exist:
 * `Groups with names <missing> not found`. The interface does not say how several names are
 * joined; we join them with `, ` in the order given.
 */
export function groupsNotFoundMessage(missing: readonly string[]): string {
  return `Groups with names ${missing.join(', ')} not found`;
}

/**
 * Codes for the generate-session failures that §7 names only by their text, so callers can branch
 * on a stable `code` rather than match messages themselves.
 */
export const SESSION_ERROR_CODES = {
  /** `USER_ATTRIBUTES_NOT_FOUND`: an attribute name is not in the catalog (read-only mode). */
  userAttributesNotFound: 'user_attributes_not_found',
  /** `groupsNotFoundMessage`: group names that do not exist. */
  groupsNotFound: 'groups_not_found',
  /** `CANNOT_CHANGE_TYPE`: an attribute definition changes an existing type; nothing was upserted. */
  cannotChangeType: 'cannot_change_type',
} as const satisfies { readonly [name: string]: ServiceErrorCode };

/** One of {@link SESSION_ERROR_CODES}. */
export type SessionErrorCode = (typeof SESSION_ERROR_CODES)[keyof typeof SESSION_ERROR_CODES];

/**
 * The {@link SessionErrorCode} of a generate-session error message of §7, or `undefined` for any
 * other text. Matches the texts anywhere in the message, as the service may say more around them.
 */
export function sessionErrorCode(message: string): SessionErrorCode | undefined {
  if (message.includes(USER_ATTRIBUTES_NOT_FOUND)) return SESSION_ERROR_CODES.userAttributesNotFound;
  if (message.includes(CANNOT_CHANGE_TYPE)) return SESSION_ERROR_CODES.cannotChangeType;
  // The shape of groupsNotFoundMessage, whatever names and separator sit between its two parts.
  if (/Groups with names [\s\S]+ not found/.test(message)) return SESSION_ERROR_CODES.groupsNotFound;
  return undefined;
}

/**
 * A fuller message for §4.2 rule 4 that still contains `CANNOT_CHANGE_TYPE`, for the
 * emulator: `User attribute "plan" is string: cannot change type to number`.
 */
export function attributeTypeChangeMessage(name: string, existingType: string, requestedType: string): string {
  return `User attribute "${name}" is ${existingType}: ${CANNOT_CHANGE_TYPE} to ${requestedType}`;
}

/** True when `value` has the form of a `sessionId` ({@link SESSION_ID_PATTERN}). */
export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID_PATTERN.test(value);
}

/**
 * The one home of the `externalId` rule (§2.7 "lowercase and trimmed"; §5 rule 5 lowercases token
 * claims the same way). Locale-independent, so `I` never becomes a dotless `ı`.
 */
export function normalizeExternalId(externalId: string): string {
  return externalId.trim().toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/**
 * A user attribute value (§2.7, behaviour §4): a string, number, boolean, array of strings or of
 * numbers, or `null`, which clears the stored value (§4.2 rule 5).
 */
export type UserAttributeValue = string | number | boolean | readonly string[] | readonly number[] | null;

/** One entry of `userAttributes`: the value of a configured attribute for this user. */
export interface UserAttribute {
  /** Attribute name; must exist in the catalog (read-only) or the embed tenant (creator mode). */
  name: string;
  /** The value; `null` clears it. Must match the attribute's type. */
  value: UserAttributeValue;
}

/** The types a `userAttributeDefinitions` entry may declare (§2.7). */
export const USER_ATTRIBUTE_DEFINITION_TYPES = ['string', 'number', 'string_array', 'number_array'] as const;

/** Type of an attribute declared in a session request; immutable once created (§4.2 rule 4). */
export type UserAttributeDefinitionType = (typeof USER_ATTRIBUTE_DEFINITION_TYPES)[number];

/** A `userAttributeDefinitions` entry: upserted into the embed tenant's scope (creator mode only). */
export interface UserAttributeDefinition {
  /** Attribute name, unique within the request. */
  name: string;
  /** Attribute type; a different type for an existing attribute fails with `cannot change type`. */
  type: UserAttributeDefinitionType;
  /** Label shown in the app; updated when supplied and different. */
  displayName?: string;
  /** Default value, as text; updated when supplied and different. */
  defaultValue?: string;
  /** Description; updated when supplied and different. */
  description?: string;
}

/** A `groupDefinitions` entry: an existing group with this name is reused (creator mode only). */
export interface GroupDefinition {
  /** Group name, unique within the request. */
  name: string;
  /** Updated when supplied and different; never cleared. */
  description?: string;
}

/** Profile shown for the external user; stored per `externalId` (§4.2 rule 7). */
export interface UserProfile {
  /** Human-readable name shown next to the avatar. */
  displayName?: string;
  /**
   * Avatar: an absolute `http://` or `https://` URL. Only the syntax is checked; the service never
   * fetches it, and the UI falls back to initials when it fails to load. Prefer HTTPS, under ~1 MB,
   * square, publicly reachable; PNG, JPEG, GIF, WebP or SVG.
   */
  picture?: string;
}

/**
 * Per-session overrides (§2.7, behaviour §4). Each boolean is tri-state: leave it out to inherit
 * the account-wide setting, `false` to force it off, `true` to force it on for this session.
 */
export interface EmbedSessionSettings {
  /**
   * AI chat (agent panel and launcher bubble) on embedded published dashboards. Omitted: the
   * account toggle (shown by default). Does not affect the standalone chat surface.
   */
  showDashboardChat?: boolean;
  /** AI features in the embed. Omitted: the account setting. */
  allowAi?: boolean;
  /** Chat inside workbooks of the creator-mode app. Omitted: the account setting. */
  showWorkbookChat?: boolean;
  /** AI widgets on dashboards. Omitted: the account setting. */
  showAiWidgets?: boolean;
  /** Sharing of workbooks in the creator-mode app. Omitted: the account setting. */
  showWorkbookShare?: boolean;
  /** UI language, a BCP 47 tag (`en-US`, `de`); unshipped variants resolve to a shipped one. */
  locale?: string;
  /** IANA time zone for dates, for example `Europe/Berlin`. */
  timezone?: string;
  [key: string]: unknown;
}

/** Profile of the embed tenant (§4.2 rule 10); fields beyond `displayName` are not published. */
export interface EmbedTenantProfile {
  /** Name of the embed tenant shown to its users. */
  displayName?: string;
  [key: string]: unknown;
}

/**
 * Body of generate-session (§2.7, §4.2, behaviour §4). Give exactly one of `externalId` and
 * `internalId`. Fields the service adds within `v1` are not listed here but pass through
 * {@link validateSessionRequest} unchanged.
 */
export interface SessionRequest {
  /** The deployment the session grants access to (a positive integer). */
  deploymentId: number;
  /**
   * Stable id of the external user in your system. {@link validateSessionRequest} trims and
   * lowercases it, as the service does, so `' Ann@Example.com '` and `ann@example.com` are one user.
   */
  externalId?: string;
  /** Username of an existing internal user; their own permissions apply (§4.2 rule 8). */
  internalId?: string;
  /** Email attached to the external user; only with `externalId`. */
  email?: string;
  /** Display name and avatar; not allowed with `internalId`. */
  userProfile?: UserProfile;
  /**
   * Embed tenant the user belongs to; `EMBED_TENANT_NAME_PATTERN`. Default: the current tenant.
   * Required when definitions are given.
   */
  embedTenantName?: string;
  /**
   * `true` mints a creator-mode session: groups and attributes resolve against the embed tenant's
   * scoped tables (needs the `useCreatorMode` tenant flag). Default: read-only mode.
   */
  creatorMode?: boolean;
  /** Attribute values for this user, each name once; not allowed with `internalId`. */
  userAttributes?: readonly UserAttribute[];
  /**
   * Group names. Omitted keeps memberships, `[]` clears them, a list replaces them (§4.2 rule 6).
   * Not allowed with `internalId`.
   */
  groups?: readonly string[];
  /** Attributes to upsert first; needs `creatorMode: true` and `embedTenantName`. */
  userAttributeDefinitions?: readonly UserAttributeDefinition[];
  /** Groups to upsert first; needs `creatorMode: true` and `embedTenantName`. */
  groupDefinitions?: readonly GroupDefinition[];
  /** Passed to data queries (row-level security); not allowed with `internalId`. */
  securityContext?: Record<string, unknown>;
  /** Per-session overrides. */
  settings?: EmbedSessionSettings;
  /** Brand theme applied to the embed (the shape `set-theme` also takes). */
  embedTheme?: EmbedTheme;
  /** Per-embed-tenant groups for sharing in creator mode (§4.2 rule 10; element shape not published). */
  tenantGroups?: readonly unknown[];
  /** Definitions of per-embed-tenant groups (§4.2 rule 10; element shape not published). */
  tenantGroupDefinitions?: readonly unknown[];
  /** Profile of the embed tenant (§4.2 rule 10). */
  embedTenantProfile?: EmbedTenantProfile;
  [key: string]: unknown;
}

/** Response of generate-session: a single-use id for the embed URL, exchanged within 5 minutes. */
export interface SessionResponse {
  /** The session id: single-use, exchanged within 5 minutes. */
  sessionId: string;
}

/** True when `value` is a generate-session response with a well-formed `sessionId`. */
export function isSessionResponse(value: unknown): value is SessionResponse {
  return isRecord(value) && isSessionId(value['sessionId']);
}

/** Result of a validator: the normalised value, or every problem found, each naming its field. */
export type { ValidationResult };

// ---------------------------------------------------------------------------------------------
// Field schemas (messages name no path: the path is added from the issue)
// ---------------------------------------------------------------------------------------------

const EMBED_TENANT_NAME_MESSAGE =
  "5 to 36 characters, lowercase letters, digits and '-', starting with a letter and ending with a letter or digit";

const TRI_STATE_MESSAGE = 'must be true or false, or left out to inherit the account setting';

const ATTRIBUTE_VALUE_MESSAGE =
  'must be a string, a number, a boolean, an array of strings, an array of numbers, or null (null clears the value)';

function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

function isLanguageTag(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

/** A plain object (not an array, not null) whose known fields are checked; others pass through. */
function objectWith<const TEntries extends v.ObjectEntries>(entries: TEntries, message: string) {
  return v.pipe(v.custom<Record<string, unknown>>(isRecord, message), v.looseObject(entries, message));
}

const nonEmptyString = (message: string) =>
  v.pipe(
    v.string(message),
    v.check((s) => s.trim() !== '', message),
  );

const optionalString = v.optional(v.string('must be a string'));
const triState = v.optional(v.boolean(TRI_STATE_MESSAGE));

const finiteNumber = v.pipe(v.number(), v.finite('must be a finite number'));

const AttributeValueSchema = v.union(
  [v.string(), finiteNumber, v.boolean(), v.array(v.string()), v.array(finiteNumber), v.null()],
  ATTRIBUTE_VALUE_MESSAGE,
);

const UserAttributeSchema = objectWith(
  {
    name: nonEmptyString('must be a non-empty string, the name of a configured attribute'),
    value: AttributeValueSchema,
  },
  'must be an object { name, value }',
);

const UserAttributeDefinitionSchema = objectWith(
  {
    name: nonEmptyString('must be a non-empty string, the attribute name'),
    type: v.picklist(USER_ATTRIBUTE_DEFINITION_TYPES, `must be one of ${USER_ATTRIBUTE_DEFINITION_TYPES.join(', ')}`),
    displayName: optionalString,
    defaultValue: optionalString,
    description: optionalString,
  },
  'must be an object { name, type, displayName?, defaultValue?, description? }',
);

const GroupDefinitionSchema = objectWith(
  {
    name: nonEmptyString('must be a non-empty string, the group name'),
    description: optionalString,
  },
  'must be an object { name, description? }',
);

const EmbedThemeSchema = objectWith(
  {
    font: optionalString,
    primaryColor: optionalString,
    borderRadius: v.optional(v.union([v.string(), finiteNumber], 'must be a CSS length such as "8px"')),
    analyticsChat: v.optional(
      objectWith(
        {
          backgroundColor: optionalString,
          chatInput: v.optional(
            objectWith(
              { backgroundColor: optionalString, borderColor: optionalString },
              'must be an object { backgroundColor?, borderColor? }',
            ),
          ),
        },
        'must be an object { backgroundColor?, chatInput? }',
      ),
    ),
  },
  'must be an object such as { "primaryColor": "#4E79A7", "font": "Inter, sans-serif" }',
);

const SettingsSchema = objectWith(
  {
    showDashboardChat: triState,
    allowAi: triState,
    showWorkbookChat: triState,
    showAiWidgets: triState,
    showWorkbookShare: triState,
    locale: v.optional(
      v.pipe(
        v.string('must be a BCP 47 language tag such as en-US or de'),
        v.check(isLanguageTag, 'must be a BCP 47 language tag such as en-US or de'),
      ),
    ),
    timezone: v.optional(nonEmptyString('must be an IANA time zone name such as Europe/Berlin')),
  },
  'must be an object of per-session overrides such as { "showDashboardChat": false }',
);

const SessionRequestSchema = v.looseObject(
  {
    deploymentId: v.optional(
      v.pipe(
        v.number('must be a number, the id of the deployment, for example 42'),
        v.integer('must be a positive whole number, the id of the deployment'),
        v.minValue(1, 'must be a positive whole number, the id of the deployment'),
      ),
    ),
    externalId: v.optional(
      v.pipe(
        v.string('must be a string, the stable id of the user in your system'),
        v.transform(normalizeExternalId),
        v.minLength(1, 'must not be empty or only spaces'),
      ),
    ),
    internalId: v.optional(nonEmptyString('must be a non-empty string, the username of an existing internal user')),
    email: v.optional(v.string('must be a string, the email address of the external user')),
    userProfile: v.optional(
      objectWith(
        {
          displayName: optionalString,
          picture: v.optional(
            v.pipe(
              v.string('must be a string'),
              v.check(
                isHttpUrl,
                'must be an absolute http:// or https:// URL, for example https://cdn.example.com/avatar.png',
              ),
            ),
          ),
        },
        'must be an object { displayName?, picture? }',
      ),
    ),
    embedTenantName: v.optional(
      v.pipe(v.string(EMBED_TENANT_NAME_MESSAGE), v.regex(EMBED_TENANT_NAME_PATTERN, EMBED_TENANT_NAME_MESSAGE)),
    ),
    creatorMode: v.optional(v.boolean('must be true or false')),
    userAttributes: v.optional(v.array(UserAttributeSchema, 'must be an array of { name, value } objects')),
    groups: v.optional(
      v.array(nonEmptyString('must be a non-empty string, the name of a group'), 'must be an array of group names'),
    ),
    userAttributeDefinitions: v.optional(
      v.array(UserAttributeDefinitionSchema, 'must be an array of { name, type } objects'),
    ),
    groupDefinitions: v.optional(v.array(GroupDefinitionSchema, 'must be an array of { name } objects')),
    securityContext: v.optional(
      v.custom<Record<string, unknown>>(isRecord, 'must be an object, passed to data queries as the security context'),
    ),
    settings: v.optional(SettingsSchema),
    embedTheme: v.optional(EmbedThemeSchema),
    tenantGroups: v.optional(v.array(v.unknown(), 'must be an array')),
    tenantGroupDefinitions: v.optional(v.array(v.unknown(), 'must be an array')),
    embedTenantProfile: v.optional(objectWith({ displayName: optionalString }, 'must be an object { displayName? }')),
  },
  'must be an object such as { "deploymentId": 42, "externalId": "user-123" }',
);

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

/** Fields §2.7 / §4.2 rule 8 reject alongside `internalId` (`email` has its own rule). */
const NOT_WITH_INTERNAL_ID = [
  'userProfile',
  'userAttributes',
  'groups',
  'userAttributeDefinitions',
  'groupDefinitions',
  'securityContext',
] as const;

/** Field names whose case-only misspellings are flagged, as they would otherwise be ignored silently. */
const KNOWN_FIELDS = Object.keys(SessionRequestSchema.entries);

/** Renders a valibot issue path as `userAttributes[2].value` (or `files["a.js"]`). */
function formatPath(issue: v.BaseIssue<unknown>): string {
  let path = '';
  for (const item of issue.path ?? []) {
    const key: unknown = item.key;
    if (typeof key === 'number') path += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) path += path === '' ? key : `.${key}`;
    // Keys such as file paths (`src/a.js`) would read as nested fields; quote them instead.
    else path += `[${JSON.stringify(String(key))}]`;
  }
  return path;
}

/** A missing required key: valibot reports it on the object with the key as `expected`. */
function isMissingKey(issue: v.BaseIssue<unknown>): boolean {
  return /object$/.test(issue.type) && issue.input === undefined && (issue.expected ?? '').startsWith('"');
}

/**
 * Turns valibot issues into problem sentences that start with the field path: the issue's path
 * under `root` (`meta.dashboardDraft`), or `fallback` for an issue about the root value itself.
 * Shared by the protocol validators; not part of the public API.
 *
 * @internal
 */
export function issuesToProblems(
  issues: readonly v.BaseIssue<unknown>[] | undefined,
  options: { root?: string; fallback: string },
): string[] {
  const root = options.root ?? '';
  return (issues ?? []).map((issue) => {
    const path = formatPath(issue);
    const joiner = root === '' || path.startsWith('[') ? '' : '.';
    const where = path === '' ? root || options.fallback : `${root}${joiner}${path}`;
    return `${where}: ${isMissingKey(issue) ? 'is required' : issue.message}`;
  });
}

/** The name of each element that is an object with a string `name`, by index. */
function namesOf(list: unknown): Array<[index: number, name: string]> {
  if (!Array.isArray(list)) return [];
  const names: Array<[number, string]> = [];
  list.forEach((item: unknown, index) => {
    if (isRecord(item) && typeof item['name'] === 'string') names.push([index, item['name']]);
  });
  return names;
}

function duplicateNameProblems(field: string, list: unknown, what: string): string[] {
  const firstIndex = new Map<string, number>();
  const problems: string[] = [];
  for (const [index, name] of namesOf(list)) {
    const first = firstIndex.get(name);
    if (first === undefined) firstIndex.set(name, index);
    else
      problems.push(
        `${field}[${index}].name: "${name}" is given more than once (first at ${field}[${first}]); ` +
          `give each ${what} once`,
      );
  }
  return problems;
}

/**
 * §4.2 rule 5, the one home of "a value matches its attribute's type": `string`, `number` (finite),
 * `boolean` (tenant-wide attributes only; behaviour §4), `string_array`, `number_array`. `null` is
 * not a value of any type: callers treat it as "clear" before asking.
 */
export function attributeValueMatchesType(value: unknown, type: UserAttributeDefinitionType | 'boolean'): boolean {
  const isNumber = (x: unknown) => typeof x === 'number' && Number.isFinite(x);
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return isNumber(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string_array':
      return Array.isArray(value) && value.every((x) => typeof x === 'string');
    case 'number_array':
      return Array.isArray(value) && value.every(isNumber);
  }
}

const TYPE_WORDS: Record<UserAttributeDefinitionType, string> = {
  string: 'a string',
  number: 'a number',
  string_array: 'an array of strings',
  number_array: 'an array of numbers',
};

/** §4.2 rule 5: a value must match the type of a definition given in the same request. */
function definitionTypeProblems(input: Record<string, unknown>): string[] {
  const definitions = new Map<string, { index: number; type: UserAttributeDefinitionType }>();
  const rawDefinitions = input['userAttributeDefinitions'];
  for (const [index, name] of namesOf(rawDefinitions)) {
    const type = (rawDefinitions as Array<Record<string, unknown>>)[index]?.['type'];
    const known = USER_ATTRIBUTE_DEFINITION_TYPES.find((t) => t === type);
    if (known && !definitions.has(name)) definitions.set(name, { index, type: known });
  }
  const problems: string[] = [];
  const attributes = input['userAttributes'];
  for (const [index, name] of namesOf(attributes)) {
    const definition = definitions.get(name);
    const value = (attributes as Array<Record<string, unknown>>)[index]?.['value'];
    if (!definition || value === null || value === undefined) continue;
    if (!attributeValueMatchesType(value, definition.type))
      problems.push(
        `userAttributes[${index}].value: must be ${TYPE_WORDS[definition.type]} (or null) because ` +
          `userAttributeDefinitions[${definition.index}] defines "${name}" as ${definition.type}`,
      );
  }
  return problems;
}

function crossFieldProblems(input: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const has = (key: string) => input[key] !== undefined;

  if (has('ephemeralTtlSeconds'))
    problems.push(
      'ephemeralTtlSeconds: no longer accepted by the embed session request (removed in 0.2.0); remove it. ' +
        'It remains a chat sessionSettings field.',
    );

  for (const key of Object.keys(input)) {
    if (KNOWN_FIELDS.includes(key)) continue;
    const meant = KNOWN_FIELDS.find((known) => known.toLowerCase() === key.toLowerCase());
    if (meant) problems.push(`${key}: unknown field; did you mean ${meant}?`);
  }

  if (!has('deploymentId'))
    problems.push('deploymentId: is required; give the id of the deployment the session grants access to');

  if (has('externalId') === has('internalId')) problems.push('externalId and internalId: give exactly one');

  if (has('internalId')) {
    if (has('email'))
      problems.push('email: only allowed with externalId; remove it (an internal user already has an email)');
    for (const key of NOT_WITH_INTERNAL_ID)
      if (has(key))
        problems.push(
          `${key}: not allowed with internalId (the internal user's own permissions apply); ` +
            'remove it or use externalId',
        );
  }

  for (const key of ['groupDefinitions', 'userAttributeDefinitions'] as const) {
    if (!has(key)) continue;
    if (input['creatorMode'] !== true)
      problems.push(`${key}: needs creatorMode: true; definitions only apply to creator-mode sessions`);
    if (!has('embedTenantName'))
      problems.push(`${key}: needs an embedTenantName; definitions are scoped to an embed tenant`);
  }

  problems.push(
    ...duplicateNameProblems('userAttributes', input['userAttributes'], 'attribute'),
    ...duplicateNameProblems('userAttributeDefinitions', input['userAttributeDefinitions'], 'attribute definition'),
    ...duplicateNameProblems('groupDefinitions', input['groupDefinitions'], 'group definition'),
    ...definitionTypeProblems(input),
  );
  return problems;
}

/**
 * Checks an embed session request against every rule of §2.7, §4.2 and behaviour §4 that needs no
 * server state, and normalises it.
 *
 * - `externalId` is trimmed and lowercased in `value` (the service does the same, so this accepts
 *   rather than rejects mixed case; an id that is empty after trimming is a problem).
 * - Unknown fields pass through unchanged so that fields the service adds within `v1` keep working;
 *   a field that differs from a known one only by case (`externalID`) is reported, as the service
 *   would ignore it.
 * - `ephemeralTtlSeconds` is rejected: it was removed from this request in 0.2.0.
 *
 * Every problem is a sentence that starts with the field path, e.g.
 * `userAttributes[2].name: "region" is given more than once (first at userAttributes[0]); ...`.
 */
export function validateSessionRequest(input: unknown): ValidationResult<SessionRequest> {
  if (!isRecord(input))
    return {
      ok: false,
      problems: ['session request: must be an object such as { "deploymentId": 42, "externalId": "user-123" }'],
    };
  const parsed = v.safeParse(SessionRequestSchema, input, { abortEarly: false });
  const problems = [...issuesToProblems(parsed.issues, { fallback: 'session request' }), ...crossFieldProblems(input)];
  if (!parsed.success || problems.length > 0 || parsed.output.deploymentId === undefined)
    return { ok: false, problems };
  // Rebuilding the object (rather than casting) makes the compiler check that the schema's output
  // fits the documented SessionRequest type.
  return { ok: true, value: { ...parsed.output, deploymentId: parsed.output.deploymentId } };
}
