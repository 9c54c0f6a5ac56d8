/**
 * Embed sessions (interface 2.7, 4.2, 5, 7, 8; behaviour 2 and 4): minting, revoking, and the
 * exchange the emulator's embed pages perform.
 *
 * | method | path | auth | answer |
 * |---|---|---|---|
 * | POST | `/api/v1/embed/generate-session` | `Authorization: Api-Key <admin key>` | 200 `{ sessionId }` |
 * | POST | `/api/v1/embed/session/revoke` | `Authorization: Api-Key <admin key>` | 204, whether or not the session exists |
 *
 * generate-session, in this order (each step answers `{"error": message}`, and `problems: string[]`
 * where a rule can find several):
 *
 * 1. 401 without a valid `Api-Key` credential (a `Bearer` credential is malformed here), 403 for a
 *    personal key (admin required, behaviour 4).
 * 2. 415 unless `Content-Type` is `application/json` (4.2 lists it as required; the live service
 *    would otherwise see no body).
 * 3. 400 for a body that is not JSON, or that fails `validateSessionRequest` (every stateless rule
 *    of 2.7 and 4.2): `error` is the problems joined with `; `, `problems` lists them.
 * 4. 403 when the key is scoped and `deploymentId` is outside its scope (4.2 rule 9).
 * 5. 400 when `deploymentId` names no deployment (choice: a missing thing named in the body is a
 *    400; a missing thing named in the path is a 404).
 * 6. 403 for `creatorMode: true` while the `useCreatorMode` tenant flag is off (choice: the request
 *    is valid but the tenant does not permit it).
 * 7. `internalId`: 400 `Internal user "<id>" not found ...` unless an internal user has that
 *    username (email, matched trimmed and case-insensitively).
 * 8. `externalId`: every stateful rule is checked before anything is written (so a failing request
 *    changes nothing, 4.2 rule 4), all with 400 in this order of `error`: `cannot change type`
 *    (via `attributeTypeChangeMessage`), `User attributes not found`,
 *    `Groups with names <missing> not found`, a value whose type does not match its attribute.
 *    Then 403 `External user limit reached ...` when the user is new and the account already has
 *    {@link MAX_EXTERNAL_USERS} live external users (any embed tenant, any source; 8).
 *    Then, in one synchronous step: the embed tenant is created on first use, definitions are
 *    upserted, the user is created or updated.
 *
 * Name resolution (4.2 rules 1–2): read-only sessions resolve attribute and group names against
 * the tenant-wide catalog. Creator-mode sessions resolve them against the embed tenant's scoped
 * tables, after the request's own definitions; a creator-mode session without `embedTenantName`
 * belongs to the current tenant (the account), whose scoped tables ARE the tenant-wide catalog
 * (choice). `tenantGroups` and `tenantGroupDefinitions` (4.2 rule 10, shapes not published) are
 * accepted and kept on the session's `request`; `embedTenantProfile.displayName` updates the embed
 * tenant's display name when supplied and different.
 *
 * Users: one external user per (embed tenant, externalId); `embedTenantName` defaults to the
 * account (`acme`, which is never an embed tenant of the 4.3 admin). Attribute values persist;
 * `null` deletes one; names not sent keep their values (rule 5). `groups`: omitted keeps, `[]`
 * clears, a list replaces (rule 6). `userProfile`: the properties sent overwrite, the others keep
 * (rule 7). `email` is overwritten when sent. A user the embed API provisions is persistent: an
 * ephemeral chat user with the same key loses its expiry (choice).
 *
 * Sessions: 32 lowercase hex characters from the Web Crypto RNG, single use, exchangeable for
 * {@link EMBED_SESSION_TTL_MS} (5 minutes, the emulator clock), for a token that lasts
 * {@link EMBED_TOKEN_TTL_MS} (24 hours). The embed pages call {@link exchangeEmbedSession} and
 * {@link verifyEmbedToken}.
 *
 * revoke: body `{ sessionId: string }` (400 otherwise); 204 for an unknown, used, expired or
 * already revoked session (idempotent, behaviour 4); 403 when the session exists and belongs to a
 * deployment outside a scoped key (interface 5 rule 2 wins over "always"). Revoking also ends
 * the tokens already exchanged for the session (it is what a partner calls on logout).
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import {
  MAX_EXTERNAL_USERS,
  USER_ATTRIBUTES_NOT_FOUND,
  attributeTypeChangeMessage,
  attributeValueMatchesType,
  groupsNotFoundMessage,
  type SessionRequest,
  type SessionResponse,
  type UserProfile,
  validateSessionRequest,
} from '../../core/protocol/session';
import { isRecord } from '../../core/protocol/shared';
import { assertDeploymentAllowed, requireApiKey, signDeploymentToken } from '../auth';
import type { EmulatorContext, EmulatorEnv, EmulatorFeature } from '../context';
import { httpError, jsonError, jsonResponse, readJson } from '../http';
import {
  EMBED_SESSION_TTL_MS,
  EMBED_TOKEN_TTL_MS,
  externalUserKey,
  pruneExpiredExternalUsers,
  type EmbedSession,
  type EmbedTenant,
  type EmulatorState,
  type ExternalUser,
  type InternalUser,
  type StoredAttributeValue,
  type UserRef,
} from '../state';
import { findDeployment, type UserAttributeType } from '../world';

/** Path of generate-session (4.2). */
export const GENERATE_SESSION_PATH = '/api/v1/embed/generate-session';
/** Path of revoke (behaviour 4). */
export const REVOKE_SESSION_PATH = '/api/v1/embed/session/revoke';

// ---------------------------------------------------------------------------------------------
// Exchange API for the embed pages
// ---------------------------------------------------------------------------------------------

/**
 * Who an embed session or token acts as, resolved from the current state (a snapshot: later
 * sessions for the same user change the state, not this object).
 */
export interface EmbedViewer {
  /** `external`: provisioned from `externalId`; `internal`: an account user named by `internalId`. */
  kind: 'external' | 'internal';
  /** The normalised `externalId`, or the internal user's email. */
  id: string;
  /** `ExternalUser.id` (the `embedUserId` of 4.3) or `InternalUser.id`. */
  userId: number;
  email: string | null;
  /** From `userProfile.displayName` (external) or first and last name (internal). */
  displayName: string | null;
  /** From `userProfile.picture`; internal users have none. */
  picture: string | null;
  /** Embed tenant of the session: the account name (`acme`) when the request named none. */
  embedTenant: string;
  /** Group names: scoped to the embed tenant in creator mode, tenant-wide otherwise. */
  groups: readonly string[];
  /** Attribute values by name (what row-level security reads). */
  attributes: Readonly<Record<string, StoredAttributeValue>>;
  /** Role of an internal user; `undefined` for external users. */
  role?: InternalUser['role'];
}

/** Why an exchange or a token check failed. */
export type EmbedSessionFailureReason = 'unknown' | 'expired' | 'used' | 'revoked';

/** Result of {@link exchangeEmbedSession}. */
export type EmbedSessionExchange =
  | {
      ok: true;
      /**
       * An HS256 JWT signed with the session's deployment secret, valid for 24 hours: the data API
       * accepts it (row-level security from the viewer's attributes and security context), and
       * {@link verifyEmbedToken} resolves it. Claims: `sessionId`, `embedTenant`, `creatorMode`,
       * `scope: ['embed', 'chat']`, `externalId` (external) or `internalId` (internal), `email`,
       * `groups`, `userAttributes` (object), `securityContext` (when the request had one).
       */
      token: string;
      /** When the token expires (Unix ms): exchange time + {@link EMBED_TOKEN_TTL_MS}. */
      expiresAt: number;
      session: EmbedSession;
      user: EmbedViewer;
    }
  | { ok: false; reason: EmbedSessionFailureReason; message: string };

/** Result of {@link verifyEmbedToken}. */
export type EmbedTokenVerification =
  | { ok: true; session: EmbedSession; user: EmbedViewer; expiresAt: number }
  | { ok: false; reason: Exclude<EmbedSessionFailureReason, 'used'>; message: string };

/** The viewer of a session, or `undefined` when its user no longer exists (tenant deleted). */
export function describeEmbedViewer(context: EmulatorContext, session: EmbedSession): EmbedViewer | undefined {
  const { user } = session;
  if (user.kind === 'internal') {
    const internal = context.state.internalUsers.get(user.userId);
    if (!internal) return undefined;
    return {
      kind: 'internal',
      id: internal.email,
      userId: internal.id,
      email: internal.email,
      displayName: `${internal.firstName} ${internal.lastName}`.trim() || null,
      picture: null,
      embedTenant: session.embedTenantName,
      groups: [...internal.groups],
      attributes: Object.fromEntries(internal.attributes),
      role: internal.role,
    };
  }
  pruneExpiredExternalUsers(context.state, context.clock.now());
  const external = context.state.externalUsers.get(user.userKey);
  if (!external) return undefined;
  return {
    kind: 'external',
    id: external.externalId,
    userId: external.id,
    email: external.email ?? null,
    displayName: external.profile.displayName ?? null,
    picture: external.profile.picture ?? null,
    embedTenant: session.embedTenantName,
    groups: [...external.groups],
    attributes: Object.fromEntries(external.attributes),
  };
}

/**
 * Exchanges a session id (from the `session` or `sessionId` URL parameter of an embed page) for an
 * embed token: what the embed pages call once per page load.
 *
 * Fails with `unknown` (never minted, malformed, or its user was deleted with its embed tenant),
 * `revoked`, `used` (exchanged before: sessions are single use) or `expired` (not exchanged within
 * 5 minutes of minting, by the emulator clock), checked in that order. The session is marked used
 * synchronously, before the token is signed, so two concurrent page loads with the same session
 * cannot both succeed.
 */
export async function exchangeEmbedSession(context: EmulatorContext, sessionId: string): Promise<EmbedSessionExchange> {
  const { state } = context;
  const now = context.clock.now();
  const session = state.embedSessions.get(sessionId);
  if (!session) return { ok: false, reason: 'unknown', message: 'Unknown embed session' };
  if (session.revokedAt !== undefined)
    return { ok: false, reason: 'revoked', message: 'This embed session was revoked' };
  if (session.usedAt !== undefined)
    return {
      ok: false,
      reason: 'used',
      message: 'This embed session was already used: every page load needs a new session',
    };
  if (now >= session.expiresAt)
    return { ok: false, reason: 'expired', message: 'This embed session expired: it must be used within 5 minutes' };
  const user = describeEmbedViewer(context, session);
  if (!user) return { ok: false, reason: 'unknown', message: 'The user of this embed session no longer exists' };
  session.usedAt = now;

  const claims: Record<string, unknown> = {
    sessionId: session.sessionId,
    embedTenant: session.embedTenantName,
    creatorMode: session.creatorMode,
    scope: ['embed', 'chat'],
    ...(user.kind === 'external' ? { externalId: user.id } : { internalId: user.id }),
    ...(user.email === null ? {} : { email: user.email }),
    groups: user.groups,
    userAttributes: user.attributes,
    ...(session.securityContext === undefined ? {} : { securityContext: session.securityContext }),
  };
  const token = await signDeploymentToken(context.world, {
    deploymentId: session.deploymentId,
    claims,
    expiresInSeconds: EMBED_TOKEN_TTL_MS / 1000,
    now,
  });
  const expiresAt = now + EMBED_TOKEN_TTL_MS;
  state.embedTokens.set(token, { token, sessionId: session.sessionId, createdAt: now, expiresAt });
  return { ok: true, token, expiresAt, session, user };
}

/**
 * Checks a token from {@link exchangeEmbedSession} (for embed-page requests after the first):
 * `unknown` when this emulator did not issue it, `revoked` when its session was revoked since,
 * `expired` 24 hours after the exchange (emulator clock). The viewer is read from the current state.
 */
export function verifyEmbedToken(context: EmulatorContext, token: string): EmbedTokenVerification {
  const record = context.state.embedTokens.get(token);
  const session = record && context.state.embedSessions.get(record.sessionId);
  if (!record || !session) return { ok: false, reason: 'unknown', message: 'Unknown embed token' };
  if (session.revokedAt !== undefined)
    return { ok: false, reason: 'revoked', message: 'The embed session of this token was revoked' };
  if (context.clock.now() >= record.expiresAt)
    return { ok: false, reason: 'expired', message: 'The embed token expired (tokens last 24 hours)' };
  const user = describeEmbedViewer(context, session);
  if (!user) return { ok: false, reason: 'unknown', message: 'The user of this embed token no longer exists' };
  return { ok: true, session, user, expiresAt: record.expiresAt };
}

// ---------------------------------------------------------------------------------------------
// generate-session
// ---------------------------------------------------------------------------------------------

/** A 400 (or other status) whose `error` is the first failure and `problems` all of them. */
function rejected(status: 400 | 403, error: string, problems: readonly string[]) {
  return jsonError(status, { error, problems });
}

/** 32 lowercase hex characters from the Web Crypto RNG (behaviour 4). */
function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function findInternalUser(context: EmulatorContext, internalId: string): InternalUser | undefined {
  const wanted = internalId.trim().toLowerCase();
  for (const user of context.state.internalUsers.values()) if (user.email.toLowerCase() === wanted) return user;
  return undefined;
}

/** Profile properties sent overwrite, the others keep their saved values (4.2 rule 7). */
function mergeProfile(saved: UserProfile, sent: UserProfile | undefined): UserProfile {
  if (!sent) return saved;
  const next: UserProfile = { ...saved };
  if (sent.displayName !== undefined) next.displayName = sent.displayName;
  if (sent.picture !== undefined) next.picture = sent.picture;
  return next;
}

/**
 * Checks every stateful rule for an external user, then applies the request in one synchronous
 * step. Throws (with nothing written) on the first failing rule category.
 */
function provisionExternalUser(
  context: EmulatorContext,
  request: SessionRequest & { externalId: string },
): { user: ExternalUser; tenantName: string } {
  const { state } = context;
  const now = context.clock.now();
  const isAccountTenant = request.embedTenantName === undefined;
  const tenantName = request.embedTenantName ?? context.world.accountName;
  const tenant = isAccountTenant ? undefined : state.embedTenants.get(tenantName);
  const scoped = request.creatorMode === true && !isAccountTenant;
  checkNames(state, tenant, tenantName, scoped, request);

  // 8: the limit counts live external users of the whole account.
  pruneExpiredExternalUsers(state, now);
  const key = externalUserKey(tenantName, request.externalId);
  if (!state.externalUsers.has(key) && state.externalUsers.size >= MAX_EXTERNAL_USERS) {
    const message = `External user limit reached: the account already has ${MAX_EXTERNAL_USERS.toLocaleString('en-US')} external users`;
    throw rejected(403, message, [message]);
  }

  // Every rule passed: apply, with no await in between.
  let tenantRecord: EmbedTenant | undefined = tenant;
  if (!isAccountTenant && !tenantRecord) {
    tenantRecord = { name: tenantName, createdAt: now, groups: new Map(), attributeDefinitions: new Map() };
    state.embedTenants.set(tenantName, tenantRecord);
  }
  const profileName = request.embedTenantProfile?.displayName;
  if (tenantRecord && profileName !== undefined && profileName !== tenantRecord.displayName)
    tenantRecord.displayName = profileName;
  if (scoped && tenantRecord) upsertTenantDefinitions(state, tenantRecord, request);
  return { user: upsertExternalUser(state, key, tenantName, request, now), tenantName };
}

/**
 * The name rules of 4.2 (1, 2, 4, 5): the attribute and group names of the request against the
 * catalog they resolve in (overlaid with the request's own definitions), and the attribute
 * values against their types. Throws the first failing category; writes nothing.
 */
function checkNames(
  state: EmulatorState,
  tenant: EmbedTenant | undefined,
  tenantName: string,
  scoped: boolean,
  request: SessionRequest,
): void {
  // Catalogs the names resolve against (4.2 rules 1-2), overlaid with this request's definitions.
  const attributeTypes = new Map<string, UserAttributeType>();
  const groupNames = new Set<string>();
  if (scoped) {
    for (const definition of tenant?.attributeDefinitions.values() ?? [])
      attributeTypes.set(definition.name, definition.type);
    for (const name of tenant?.groups.keys() ?? []) groupNames.add(name);
  } else {
    for (const definition of state.userAttributes.values()) attributeTypes.set(definition.name, definition.type);
    for (const name of state.groups.keys()) groupNames.add(name);
  }

  // 4.2 rule 4: an existing definition keeps its type, or nothing is upserted.
  const typeChanges: string[] = [];
  for (const definition of request.userAttributeDefinitions ?? []) {
    const existing = attributeTypes.get(definition.name);
    if (existing !== undefined && existing !== definition.type)
      typeChanges.push(attributeTypeChangeMessage(definition.name, existing, definition.type));
  }
  if (typeChanges.length > 0) throw rejected(400, typeChanges[0]!, typeChanges);
  for (const definition of request.userAttributeDefinitions ?? []) attributeTypes.set(definition.name, definition.type);
  for (const definition of request.groupDefinitions ?? []) groupNames.add(definition.name);

  const where = scoped ? `the attributes of embed tenant "${tenantName}"` : 'the account attributes';
  const known = [...attributeTypes.keys()].join(', ') || 'none';
  const unknownAttributes: string[] = [];
  const typeMismatches: string[] = [];
  (request.userAttributes ?? []).forEach((attribute, index) => {
    const type = attributeTypes.get(attribute.name);
    if (type === undefined) {
      unknownAttributes.push(`userAttributes[${index}].name: "${attribute.name}" is not one of ${where} (${known})`);
    } else if (attribute.value !== null && !attributeValueMatchesType(attribute.value, type)) {
      typeMismatches.push(
        `userAttributes[${index}].value: attribute "${attribute.name}" is of type ${type}; send a value of that type, or null to clear it`,
      );
    }
  });
  if (unknownAttributes.length > 0) throw rejected(400, USER_ATTRIBUTES_NOT_FOUND, unknownAttributes);

  const missingGroups = [...new Set((request.groups ?? []).filter((name) => !groupNames.has(name)))];
  if (missingGroups.length > 0) {
    const message = groupsNotFoundMessage(missingGroups);
    throw rejected(400, message, [
      `groups: ${message} (${scoped ? `groups of embed tenant "${tenantName}"` : 'account groups'}: ${[...groupNames].join(', ') || 'none'})`,
    ]);
  }
  if (typeMismatches.length > 0) throw rejected(400, typeMismatches[0]!, typeMismatches);
}

/** Creator mode: the request's group and attribute definitions, upserted into the embed tenant (4.2 rule 3). */
function upsertTenantDefinitions(state: EmulatorState, tenant: EmbedTenant, request: SessionRequest): void {
  for (const definition of request.groupDefinitions ?? []) {
    const existing = tenant.groups.get(definition.name);
    if (!existing) {
      tenant.groups.set(definition.name, {
        id: state.nextId('group'),
        name: definition.name,
        description: definition.description,
      });
    } else if (definition.description !== undefined && definition.description !== existing.description) {
      existing.description = definition.description;
    }
  }
  for (const definition of request.userAttributeDefinitions ?? []) {
    const existing = tenant.attributeDefinitions.get(definition.name);
    if (!existing) {
      tenant.attributeDefinitions.set(definition.name, {
        id: state.nextId('attribute'),
        name: definition.name,
        type: definition.type,
        displayName: definition.displayName,
        description: definition.description,
        defaultValue: definition.defaultValue,
      });
      continue;
    }
    for (const field of ['displayName', 'description', 'defaultValue'] as const) {
      const value = definition[field];
      if (value !== undefined && value !== existing[field]) existing[field] = value;
    }
  }
}

/** The external user of `key`, created if new, with the request's email, profile, attributes and groups (4.2 rules 5-7). */
function upsertExternalUser(
  state: EmulatorState,
  key: string,
  tenantName: string,
  request: SessionRequest & { externalId: string },
  now: number,
): ExternalUser {
  let user = state.externalUsers.get(key);
  if (!user) {
    user = {
      id: state.nextId('externalUser'),
      externalId: request.externalId,
      embedTenantName: tenantName,
      profile: {},
      attributes: new Map(),
      groups: new Set(),
      source: 'embed',
      createdAt: now,
      updatedAt: now,
    };
    state.externalUsers.set(key, user);
  }
  delete user.expiresAt;
  if (request.email !== undefined) user.email = request.email;
  user.profile = mergeProfile(user.profile, request.userProfile);
  for (const attribute of request.userAttributes ?? []) {
    if (attribute.value === null) user.attributes.delete(attribute.name);
    else user.attributes.set(attribute.name, attribute.value);
  }
  if (request.groups !== undefined) user.groups = new Set(request.groups);
  if (request.securityContext !== undefined) user.securityContext = request.securityContext;
  user.updatedAt = now;
  return user;
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

async function generateSession(context: EmulatorContext, c: Context<EmulatorEnv>): Promise<Response> {
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw httpError(415, 'Content-Type must be application/json (generate-session, interface 4.2)');
  }
  const validation = validateSessionRequest(await readJson(c));
  if (!validation.ok) throw jsonError(400, { error: validation.problems.join('; '), problems: validation.problems });
  const request = validation.value;
  assertDeploymentAllowed(c, request.deploymentId);
  if (!findDeployment(context.world, request.deploymentId)) {
    const message = `deploymentId: deployment ${request.deploymentId} does not exist`;
    throw rejected(400, message, [message]);
  }
  if (request.creatorMode === true && context.state.tenantFlags.get('useCreatorMode') !== true) {
    const message = 'creatorMode: creator mode is not enabled for this tenant (tenant flag useCreatorMode)';
    throw rejected(403, message, [message]);
  }

  let user: UserRef;
  let tenantName: string;
  if (request.internalId !== undefined) {
    const internal = findInternalUser(context, request.internalId);
    if (!internal) {
      const message = `Internal user "${request.internalId}" not found: internalId must be the username (email) of an existing user of the account`;
      throw rejected(400, message, [`internalId: ${message}`]);
    }
    user = { kind: 'internal', userId: internal.id };
    tenantName = request.embedTenantName ?? context.world.accountName;
  } else {
    // The validator guarantees exactly one of externalId and internalId.
    const provisioned = provisionExternalUser(context, { ...request, externalId: request.externalId! });
    user = { kind: 'external', userKey: externalUserKey(provisioned.tenantName, provisioned.user.externalId) };
    tenantName = provisioned.tenantName;
  }

  const now = context.clock.now();
  const session: EmbedSession = {
    sessionId: newSessionId(),
    deploymentId: request.deploymentId,
    user,
    embedTenantName: tenantName,
    creatorMode: request.creatorMode === true,
    securityContext: request.securityContext,
    settings: request.settings,
    embedTheme: request.embedTheme,
    request,
    createdAt: now,
    expiresAt: now + EMBED_SESSION_TTL_MS,
  };
  context.state.embedSessions.set(session.sessionId, session);
  const body: SessionResponse = { sessionId: session.sessionId };
  return jsonResponse(200, body);
}

async function revokeSession(context: EmulatorContext, c: Context<EmulatorEnv>): Promise<Response> {
  const body = await readJson(c);
  const sessionId = isRecord(body) ? body['sessionId'] : undefined;
  if (typeof sessionId !== 'string')
    throw httpError(400, 'sessionId: is required, the sessionId returned by generate-session');
  const session = context.state.embedSessions.get(sessionId);
  if (session) {
    assertDeploymentAllowed(c, session.deploymentId);
    session.revokedAt ??= context.clock.now();
  }
  return new Response(null, { status: 204 });
}

/** The embed session feature: generate-session and revoke. */
export const sessionsFeature: EmulatorFeature = {
  name: 'sessions',
  basePath: '/',
  create(context: EmulatorContext) {
    const app = new Hono<EmulatorEnv>();
    const auth = requireApiKey(context, { scheme: 'Api-Key', admin: true });
    app.post(GENERATE_SESSION_PATH, auth, (c) => generateSession(context, c));
    app.post(REVOKE_SESSION_PATH, auth, (c) => revokeSession(context, c));
    return app;
  },
};
