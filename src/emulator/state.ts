/**
 * The emulator's mutable state: everything requests create or change, all in memory, fresh for
 * every start ({@link createState} copies the fixed world of `world.ts`). Features read and write
 * it through `EmulatorContext.state`.
 *
 * State that several features share lives here with a type: users and their attributes and groups
 * (generate-session writes them, chat and the embed pages read them), embed sessions and the
 * tokens they are exchanged for (generate-session mints, the embed pages exchange), workbooks and
 * dashboards (management writes, embed pages read), chat threads. State that only one feature
 * uses (live chat streams, a fault-injection hook) stays inside that feature, or, when it must
 * outlive the feature's sub-app, goes in {@link EmulatorState.featureState}.
 *
 * @module
 */
import type { SessionRequest, EmbedSessionSettings, EmbedTheme, UserProfile } from '../core/protocol/session';
import type { StreamMessage } from '../core/protocol/chat';
import type { DashboardConfig, DashboardStatus } from '../core/protocol/workbook';
import type { Clock } from './clock';
import type { UserAttributeType, World, WorldApiKey } from './world';

/** A single-use embed session must be exchanged within 5 minutes (behaviour 2). */
export const EMBED_SESSION_TTL_MS = 5 * 60 * 1000;
/** The token an embed session is exchanged for lasts 24 hours (behaviour 2). */
export const EMBED_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
/** Ephemeral chat users live one week unless `ephemeralTtlSeconds` says otherwise (3, 8). */
export const DEFAULT_EPHEMERAL_TTL_SECONDS = 7 * 24 * 60 * 60;

/** A stored attribute value (never `null`: `null` in a request deletes the value, 4.2 rule 5). */
export type StoredAttributeValue = string | number | boolean | readonly string[] | readonly number[];

/** An attribute definition, tenant-wide or scoped to an embed tenant. */
export interface AttributeDefinition {
  id: number;
  name: string;
  type: UserAttributeType;
  displayName?: string;
  description?: string;
  defaultValue?: string;
}

/** A group, tenant-wide or scoped to an embed tenant. */
export interface Group {
  id: number;
  name: string;
  description?: string;
}

/** An internal (account) user. */
export interface InternalUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: 'admin' | 'editor' | 'viewer';
  /** Names of tenant-wide groups. */
  groups: Set<string>;
  /** Values of tenant-wide attributes, by name. */
  attributes: Map<string, StoredAttributeValue>;
  /** Set while the user is deactivated (users bulk `DEACTIVATE`, SCIM `active: false`). */
  deactivatedAt?: number;
  /** When the user was created (the start, for the world's users). */
  createdAt: number;
  /** When the user last changed through the management API. */
  updatedAt: number;
}

/** An embed tenant and its scoped tables (creator mode, 4.2 rule 2; admin, 4.3). */
export interface EmbedTenant {
  name: string;
  displayName?: string;
  createdAt: number;
  /** Scoped groups by name. */
  groups: Map<string, Group>;
  /** Scoped attribute definitions by name. */
  attributeDefinitions: Map<string, AttributeDefinition>;
}

/**
 * An external user: one per (embed tenant, externalId). Created by generate-session (`source:
 * 'embed'`) or by chat with an API key or a deployment token (`source: 'chat'`).
 */
export interface ExternalUser {
  /** Numeric id (`embedUserId` in embed-tenant admin bodies). */
  id: number;
  /** Normalised (trimmed, lowercased) external id. */
  externalId: string;
  /** Embed tenant; the account's own name ({@link World.accountName}) for the current tenant. */
  embedTenantName: string;
  email?: string;
  /** Saved profile; overwritten per property when a request sends one (4.2 rule 7). */
  profile: UserProfile;
  /** Attribute values by name. */
  attributes: Map<string, StoredAttributeValue>;
  /** Group names (tenant-wide or scoped to the embed tenant, by the session's mode). */
  groups: Set<string>;
  /** Latest security context given for this user. */
  securityContext?: Record<string, unknown>;
  source: 'embed' | 'chat';
  createdAt: number;
  updatedAt: number;
  /** Ephemeral chat users are removed at this time (Unix ms); `undefined` for persistent users. */
  expiresAt?: number;
}

/** Who an embed session or a chat request acts as. */
export type UserRef = { kind: 'internal'; userId: number } | { kind: 'external'; userKey: string };

/** A minted embed session (4.2): 32 hex characters, single use, exchanged within 5 minutes. */
export interface EmbedSession {
  sessionId: string;
  deploymentId: number;
  user: UserRef;
  /** Embed tenant of the session (the account name for the current tenant). */
  embedTenantName: string;
  creatorMode: boolean;
  securityContext?: Record<string, unknown>;
  settings?: EmbedSessionSettings;
  embedTheme?: EmbedTheme;
  /** The validated request as received. */
  request: SessionRequest;
  createdAt: number;
  /** `createdAt` + {@link EMBED_SESSION_TTL_MS}. */
  expiresAt: number;
  /** Set when an embed page exchanged it; a second exchange fails. */
  usedAt?: number;
  /** Set by `POST /api/v1/embed/session/revoke`. */
  revokedAt?: number;
}

/** The token an embed page got for a session; its JWT is what the page's data queries send. */
export interface EmbedToken {
  token: string;
  sessionId: string;
  createdAt: number;
  /** `createdAt` + {@link EMBED_TOKEN_TTL_MS}. */
  expiresAt: number;
}

/** A folder. */
export interface Folder {
  id: number;
  deploymentId: number;
  name: string;
  parentId: number | null;
  createdAt: number;
}

/** A published dashboard (2.4), owned by a workbook. */
export interface DashboardRecord {
  id: number;
  publicId: string;
  deploymentId: number;
  workbookId: number;
  status: DashboardStatus;
  allowEmbed: boolean;
  config: DashboardConfig;
  versionNumber: number;
  versionId: number;
  createdBy: number | null;
}

/** A workbook (2.1) as stored; the management feature turns it into the wire shape. */
export interface WorkbookRecord {
  id: number;
  deploymentId: number;
  name: string;
  /** Normalised slug, or `null`. */
  slug: string | null;
  folderId: number | null;
  meta: Record<string, unknown>;
  calculatedFields: Record<string, unknown>;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
  /** Public id of its published dashboard, if any (see {@link EmulatorState.dashboards}). */
  dashboardPublicId: string | null;
}

/** A saved report. */
export interface ReportRecord {
  id: number;
  deploymentId: number;
  publicId: string;
  name: string;
  folderId: number | null;
  sqlQuery: string;
  createdAt: number;
  updatedAt: number;
  /** The external workbook it feeds (`connect-workbook`), if any. */
  connection?: { externalWorkbookId: string; resultLocation: string | null; endResultCell: string | null };
}

/** A chat thread: its messages persist per `chatId` with their owner (4.4). */
export interface ChatThread {
  chatId: string;
  agentId: string;
  deploymentId: number;
  /** Owner: only they may read, continue or abort it. */
  owner: UserRef;
  /** Messages in `sort` order, as they were last sent whole (`isDelta: false`). */
  messages: StreamMessage[];
  createdAt: number;
  updatedAt: number;
}

/** Everything mutable of one emulator start. */
export interface EmulatorState {
  /** API keys by key. Static in this release, but here so that a key could be revoked. */
  apiKeys: Map<string, WorldApiKey>;
  /** Tenant flags, by name (`useCreatorMode`, `showDashboardChat`). */
  tenantFlags: Map<string, boolean>;
  /** Tenant-wide attribute definitions by name. */
  userAttributes: Map<string, AttributeDefinition>;
  /** Tenant-wide groups by name. */
  groups: Map<string, Group>;
  /** Internal users by id. */
  internalUsers: Map<number, InternalUser>;
  /** Embed tenants by name. */
  embedTenants: Map<string, EmbedTenant>;
  /** External users by {@link externalUserKey}. */
  externalUsers: Map<string, ExternalUser>;
  /** Embed sessions by session id. */
  embedSessions: Map<string, EmbedSession>;
  /** Exchanged embed tokens by token. */
  embedTokens: Map<string, EmbedToken>;
  folders: Map<number, Folder>;
  workbooks: Map<number, WorkbookRecord>;
  /** Published dashboards by public id. */
  dashboards: Map<string, DashboardRecord>;
  reports: Map<number, ReportRecord>;
  /** Chat threads by chat id. */
  threads: Map<string, ChatThread>;
  /** A new id for a kind of record: increasing, starting above every id of the world. */
  nextId(kind: IdKind): number;
  /**
   * State private to one feature that must live as long as the emulator: created by `init` on
   * first use, then the same object every time. Use a `Symbol` as `key` so features never collide.
   */
  featureState<T>(key: symbol, init: () => T): T;
}

/** Kinds of record that get numeric ids. */
export type IdKind =
  | 'user'
  | 'externalUser'
  | 'group'
  | 'attribute'
  | 'folder'
  | 'workbook'
  | 'dashboard'
  | 'report'
  | 'version'
  | 'deployment'
  | 'notification'
  | 'integration'
  | 'oidcConfig'
  | 'job';

/** Key of an external user in {@link EmulatorState.externalUsers}: `<embedTenantName>/<externalId>`. */
export function externalUserKey(embedTenantName: string, externalId: string): string {
  return `${embedTenantName}/${externalId}`;
}

/** The live external users: ephemeral users past their `expiresAt` are removed first (3). */
export function pruneExpiredExternalUsers(state: EmulatorState, now: number): void {
  for (const [key, user] of state.externalUsers) {
    if (user.expiresAt !== undefined && user.expiresAt <= now) state.externalUsers.delete(key);
  }
}

/** Most entries a bookkeeping map of a feature keeps (attempt counters): see {@link setBounded}. */
export const MAX_BOOKKEEPING_ENTRIES = 10_000;

/**
 * `map.set(key, value)`, dropping the oldest entries beyond `max`: counters keyed by what clients
 * send (message ids, slow-query identities) must not grow without bound on a shared emulator.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number = MAX_BOOKKEEPING_ENTRIES): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}

/** How often, by the emulator clock, {@link sweepExpired} runs at most (on the next request). */
export const SWEEP_INTERVAL_MS = 60 * 1000;

/**
 * Drops what can never be used again, so a long-running emulator stays flat: embed tokens past
 * their expiry, embed sessions that can no longer be exchanged and whose tokens have all expired
 * (a revoked session stays while its tokens live, so they stay refused), and ephemeral chat users
 * past their expiry. Returns how many records were dropped.
 */
export function sweepExpired(state: EmulatorState, now: number): number {
  let dropped = 0;
  for (const [token, record] of state.embedTokens) {
    if (record.expiresAt <= now) {
      state.embedTokens.delete(token);
      dropped += 1;
    }
  }
  for (const [sessionId, session] of state.embedSessions) {
    const usefulUntil = session.usedAt === undefined ? session.expiresAt : session.usedAt + EMBED_TOKEN_TTL_MS;
    if (usefulUntil <= now) {
      state.embedSessions.delete(sessionId);
      dropped += 1;
    }
  }
  const users = state.externalUsers.size;
  pruneExpiredExternalUsers(state, now);
  return dropped + users - state.externalUsers.size;
}

/** A fresh state holding a copy of the world; `clock` stamps the records it creates. */
export function createState(world: World, clock: Clock): EmulatorState {
  const now = clock.now();
  const counters = new Map<IdKind, number>();
  const start: Record<IdKind, number> = {
    user: 100,
    externalUser: 1000,
    group: 100,
    attribute: 100,
    folder: 100,
    workbook: 1000,
    dashboard: 1000,
    report: 1000,
    version: 5000,
    deployment: 100,
    notification: 1000,
    integration: 100,
    oidcConfig: 100,
    job: 0,
  };
  const nextId = (kind: IdKind): number => {
    const next = (counters.get(kind) ?? start[kind]) + 1;
    counters.set(kind, next);
    return next;
  };
  const features = new Map<symbol, unknown>();

  const state: EmulatorState = {
    apiKeys: new Map(world.apiKeys.map((key) => [key.key, key])),
    tenantFlags: new Map([
      ['useCreatorMode', world.tenant.useCreatorMode],
      ['showDashboardChat', world.tenant.showDashboardChat],
    ]),
    userAttributes: new Map(
      world.userAttributes.map((attribute) => [
        attribute.name,
        {
          id: attribute.id,
          name: attribute.name,
          type: attribute.type,
          displayName: attribute.displayName,
          description: attribute.description,
        },
      ]),
    ),
    groups: new Map(
      world.groups.map((group) => [group.name, { id: group.id, name: group.name, description: group.description }]),
    ),
    internalUsers: new Map(
      world.internalUsers.map((user) => [
        user.id,
        {
          id: user.id,
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          role: user.role,
          groups: new Set(user.groups),
          attributes: new Map(Object.entries(user.attributes)),
          createdAt: now,
          updatedAt: now,
        },
      ]),
    ),
    embedTenants: new Map(),
    externalUsers: new Map(),
    embedSessions: new Map(),
    embedTokens: new Map(),
    folders: new Map(world.folders.map((folder) => [folder.id, { ...folder, createdAt: now }])),
    workbooks: new Map(),
    dashboards: new Map(),
    reports: new Map(
      world.reports.map((report) => {
        const created = Date.parse(report.createdAt);
        return [report.id, { ...report, createdAt: created, updatedAt: created }];
      }),
    ),
    threads: new Map(),
    nextId,
    featureState<T>(key: symbol, init: () => T): T {
      if (!features.has(key)) features.set(key, init());
      return features.get(key) as T;
    },
  };

  seedEmbedTenants(state, world, now);
  seedWorkbooks(state, world);
  return state;
}

/** The world's embed tenants, with their groups, attribute definitions and users. */
function seedEmbedTenants(state: EmulatorState, world: World, now: number): void {
  const { nextId } = state;
  for (const tenant of world.embedTenants) {
    state.embedTenants.set(tenant.name, {
      name: tenant.name,
      displayName: tenant.displayName,
      createdAt: now,
      groups: new Map(tenant.groups.map((group) => [group.name, { id: nextId('group'), ...group }])),
      attributeDefinitions: new Map(
        tenant.userAttributeDefinitions.map((definition) => [
          definition.name,
          { id: nextId('attribute'), ...definition },
        ]),
      ),
    });
    for (const user of tenant.users) {
      state.externalUsers.set(externalUserKey(tenant.name, user.externalId), {
        id: nextId('externalUser'),
        externalId: user.externalId,
        embedTenantName: tenant.name,
        email: user.email,
        profile: { displayName: user.displayName },
        attributes: new Map(Object.entries(user.attributes)),
        groups: new Set(user.groups),
        source: 'embed',
        createdAt: now,
        updatedAt: now,
      });
    }
  }
}

/** The world's workbooks and their published dashboards. */
function seedWorkbooks(state: EmulatorState, world: World): void {
  const { nextId } = state;
  for (const workbook of world.workbooks) {
    const created = Date.parse(workbook.createdAt);
    state.workbooks.set(workbook.id, {
      id: workbook.id,
      deploymentId: workbook.deploymentId,
      name: workbook.name,
      slug: workbook.slug,
      folderId: workbook.folderId,
      meta: {},
      calculatedFields: {},
      createdBy: workbook.createdBy,
      createdAt: created,
      updatedAt: created,
      dashboardPublicId: workbook.dashboard?.publicId ?? null,
    });
    if (workbook.dashboard) {
      state.dashboards.set(workbook.dashboard.publicId, {
        id: workbook.dashboard.id,
        publicId: workbook.dashboard.publicId,
        deploymentId: workbook.deploymentId,
        workbookId: workbook.id,
        status: 'published',
        allowEmbed: workbook.dashboard.allowEmbed,
        // A deep, mutable copy: the world's config is frozen.
        config: structuredClone(workbook.dashboard.config),
        versionNumber: 1,
        versionId: nextId('version'),
        createdBy: workbook.createdBy,
      });
    }
  }
}
