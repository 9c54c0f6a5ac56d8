/**
 * Who a chat request acts as (protocol 2.8, 3, 5 rules 4 and 5, 8): the chat user is
 * provisioned from `sessionSettings` with an API key, or from the deployment token's claims, and
 * everything the agent queries runs with that user's row-level security.
 *
 * - `sessionSettings.externalId`: an external user of the account's own tenant, created on first
 *   use. Ephemeral by default: removed `ephemeralTtlSeconds` (default one week) after creation, by
 *   the emulator's clock. `isEphemeral: false` keeps it, within the limit of 10,000 non-ephemeral
 *   external users per account; an existing ephemeral user becomes persistent then, and a
 *   persistent one never becomes ephemeral. Attribute names must be configured tenant-wide and
 *   group names must exist; values and groups persist per user like the embed session's.
 * - `sessionSettings.internalId`: an existing internal user (by email); their own attributes apply.
 * - Token: `externalId` (lowercased) or `sub`, `scope` with `chat`, optional `email`; the other
 *   claims are the security context. Ephemeral with the default lifetime.
 *
 * @module
 */
import { MAX_NON_EPHEMERAL_CHAT_USERS, type SessionSettings } from '../../core/protocol/chat';
import { USER_ATTRIBUTES_NOT_FOUND, groupsNotFoundMessage, normalizeExternalId } from '../../core/protocol/session';
import type { EmulatorContext } from '../context';
import { isValidTimeZone, type QueryScope } from '../data/engine';
import { attributesFromClaims, rowLevelPredicates, type TokenClaims } from '../data/security';
import { httpError } from '../http';
import {
  DEFAULT_EPHEMERAL_TTL_SECONDS,
  externalUserKey,
  pruneExpiredExternalUsers,
  type ExternalUser,
  type StoredAttributeValue,
  type UserRef,
} from '../state';

/** The chat user of a request. */
export interface ChatUser {
  /** Owner of the threads this user starts. */
  ref: UserRef;
  /** What the agent's SQL may see: row-level security and time zone. */
  scope: QueryScope;
}

/** Claims of a chat token that name the token or the user, not the security context. */
const IDENTITY_CLAIMS = new Set(['externalId', 'sub', 'email', 'scope', 'iss', 'aud', 'exp', 'nbf', 'iat', 'jti']);

function scopeOf(context: EmulatorContext, claims: TokenClaims, timezone?: string): QueryScope {
  const predicates = rowLevelPredicates(context.world.rowLevelSecurity, attributesFromClaims(claims));
  return timezone === undefined ? { predicates } : { predicates, timezone };
}

function claimsOfExternalUser(user: ExternalUser): TokenClaims {
  return { securityContext: { ...user.securityContext }, userAttributes: Object.fromEntries(user.attributes) };
}

function findInternalUser(context: EmulatorContext, email: string) {
  const wanted = email.trim().toLowerCase();
  return [...context.state.internalUsers.values()].find((user) => user.email.toLowerCase() === wanted);
}

function persistentUserCount(context: EmulatorContext): number {
  let count = 0;
  for (const user of context.state.externalUsers.values()) if (user.expiresAt === undefined) count += 1;
  return count;
}

/** Throws 400 when one more non-ephemeral external user would pass the limit (8). */
function assertRoomForPersistentUser(context: EmulatorContext): void {
  if (persistentUserCount(context) >= MAX_NON_EPHEMERAL_CHAT_USERS) {
    throw httpError(
      400,
      `Limit of ${MAX_NON_EPHEMERAL_CHAT_USERS} non-ephemeral external users reached: chat with ephemeral users (omit isEphemeral) or remove users`,
    );
  }
}

interface Upsert {
  externalId: string;
  email?: string;
  attributes?: Readonly<Record<string, unknown>>;
  groups?: readonly string[];
  securityContext?: Record<string, unknown>;
  persistent: boolean;
  ttlSeconds: number;
}

/** Creates or updates an external chat user of the account's own tenant. */
function upsertExternalUser(context: EmulatorContext, upsert: Upsert): ExternalUser {
  const { state, clock, world } = context;
  const now = clock.now();
  pruneExpiredExternalUsers(state, now);
  const key = externalUserKey(world.accountName, upsert.externalId);
  let user = state.externalUsers.get(key);
  if (!user) {
    if (upsert.persistent) assertRoomForPersistentUser(context);
    user = {
      id: state.nextId('externalUser'),
      externalId: upsert.externalId,
      embedTenantName: world.accountName,
      profile: {},
      attributes: new Map(),
      groups: new Set(),
      source: 'chat',
      createdAt: now,
      updatedAt: now,
      ...(upsert.persistent ? {} : { expiresAt: now + upsert.ttlSeconds * 1000 }),
    };
    state.externalUsers.set(key, user);
  } else if (upsert.persistent && user.expiresAt !== undefined) {
    assertRoomForPersistentUser(context);
    delete user.expiresAt;
  }
  if (upsert.email !== undefined) user.email = upsert.email;
  if (upsert.attributes) {
    for (const [name, value] of Object.entries(upsert.attributes)) {
      // `null` clears the value, as in the session API (4.2 rule 5).
      if (value === null) user.attributes.delete(name);
      else user.attributes.set(name, value as StoredAttributeValue);
    }
  }
  if (upsert.groups) user.groups = new Set(upsert.groups);
  if (upsert.securityContext) user.securityContext = { ...upsert.securityContext };
  user.updatedAt = now;
  return user;
}

/**
 * The chat user of an API-key request, provisioned from its (already validated) `sessionSettings`
 * (5 rule 4). Throws 400 for names that are not configured, an unknown internal user, an unknown
 * time zone, or the non-ephemeral limit.
 */
export function provisionFromSessionSettings(context: EmulatorContext, settings: SessionSettings): ChatUser {
  const { timezone } = settings;
  if (timezone !== undefined && !isValidTimeZone(timezone)) {
    throw httpError(
      400,
      `sessionSettings.timezone: unknown time zone "${timezone}"; use an IANA name such as "Europe/Berlin"`,
    );
  }
  if (settings.internalId !== undefined) {
    const internal = findInternalUser(context, settings.internalId);
    if (!internal) throw httpError(400, `sessionSettings.internalId: no user with the email "${settings.internalId}"`);
    return {
      ref: { kind: 'internal', userId: internal.id },
      scope: scopeOf(context, { userAttributes: Object.fromEntries(internal.attributes) }, timezone),
    };
  }
  // No prototype: `__proto__` must be an own key, and so reach the unknown-name check below.
  const attributes: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const { name, value } of settings.userAttributes ?? []) attributes[name] = value;
  const unknownAttributes = Object.keys(attributes).filter((name) => !context.state.userAttributes.has(name));
  if (unknownAttributes.length > 0)
    throw httpError(400, `${USER_ATTRIBUTES_NOT_FOUND}: ${unknownAttributes.join(', ')}`);
  const unknownGroups = (settings.groups ?? []).filter((name) => !context.state.groups.has(name));
  if (unknownGroups.length > 0) throw httpError(400, groupsNotFoundMessage(unknownGroups));
  const user = upsertExternalUser(context, {
    externalId: normalizeExternalId(settings.externalId ?? ''),
    ...(settings.email === undefined ? {} : { email: settings.email }),
    ...(settings.userAttributes === undefined ? {} : { attributes }),
    ...(settings.groups === undefined ? {} : { groups: settings.groups }),
    ...(settings.securityContext === undefined ? {} : { securityContext: settings.securityContext }),
    persistent: settings.isEphemeral === false,
    ttlSeconds: settings.ephemeralTtlSeconds ?? DEFAULT_EPHEMERAL_TTL_SECONDS,
  });
  return {
    ref: { kind: 'external', userKey: externalUserKey(user.embedTenantName, user.externalId) },
    scope: scopeOf(context, claimsOfExternalUser(user), timezone),
  };
}

/** Identity claims of a chat token, or why it cannot be used for chat (5 rules 5 and 7). */
export function tokenIdentity(
  claims: TokenClaims,
): { ok: true; externalId: string; email?: string } | { ok: false; reason: string } {
  const { externalId, sub, scope, email } = claims as Record<string, unknown>;
  const id =
    typeof externalId === 'string' && externalId.trim() !== ''
      ? externalId
      : typeof sub === 'string' && sub.trim() !== ''
        ? sub
        : undefined;
  if (id === undefined) return { ok: false, reason: 'the token has neither an externalId nor a sub claim' };
  if (!Array.isArray(scope) || !scope.includes('chat'))
    return { ok: false, reason: 'the token\'s scope claim must be an array that includes "chat"' };
  return { ok: true, externalId: normalizeExternalId(id), ...(typeof email === 'string' ? { email } : {}) };
}

/**
 * The chat user of a token request, provisioned from the claims (5 rule 5); `sessionSettings` is
 * ignored. The claims themselves are the security context of the agent's queries.
 */
export function provisionFromToken(
  context: EmulatorContext,
  claims: TokenClaims,
  externalId: string,
  email?: string,
): ChatUser {
  const securityContext = Object.fromEntries(Object.entries(claims).filter(([name]) => !IDENTITY_CLAIMS.has(name)));
  const user = upsertExternalUser(context, {
    externalId,
    ...(email === undefined ? {} : { email }),
    securityContext,
    persistent: false,
    ttlSeconds: DEFAULT_EPHEMERAL_TTL_SECONDS,
  });
  return {
    ref: { kind: 'external', userKey: externalUserKey(user.embedTenantName, user.externalId) },
    scope: scopeOf(context, claims),
  };
}

/** Who `sessionSettings` names, without provisioning anyone (abort, 4.4); `undefined` for nobody known. */
export function identify(context: EmulatorContext, settings: SessionSettings): UserRef | undefined {
  if (settings.internalId !== undefined) {
    const internal = findInternalUser(context, settings.internalId);
    return internal ? { kind: 'internal', userId: internal.id } : undefined;
  }
  if (settings.externalId === undefined) return undefined;
  return {
    kind: 'external',
    userKey: externalUserKey(context.world.accountName, normalizeExternalId(settings.externalId)),
  };
}

/** The external user a token stands for (abort). */
export function tokenUserRef(context: EmulatorContext, externalId: string): UserRef {
  return { kind: 'external', userKey: externalUserKey(context.world.accountName, externalId) };
}

/** True when two user references name the same user. */
export function sameUser(a: UserRef, b: UserRef): boolean {
  return a.kind === 'internal'
    ? b.kind === 'internal' && a.userId === b.userId
    : b.kind === 'external' && a.userKey === b.userKey;
}
