/**
 * Embed-tenant admin (interface 4.3, behaviour 4): the embedding concern of the management API,
 * as the client's `embedding` group. `Api-Key` auth with an admin key (401 for a `Bearer` or
 * missing key, 403 for a personal key).
 *
 * | method | path |
 * |---|---|
 * | GET | `/api/v1/embed-tenants/` (also without the slash) |
 * | DELETE | `/api/v1/embed-tenants/{name}` (no trailing slash: 404 with one, 0.3.0) |
 * | GET | `/api/v1/embed-tenants/{name}/users` |
 * | GET, POST | `/api/v1/embed-tenants/{name}/groups` |
 * | GET, PATCH, DELETE | `/api/v1/embed-tenants/{name}/groups/{id}` |
 * | GET, POST, DELETE | `/api/v1/embed-tenants/{name}/groups/{id}/users` |
 *
 * `DELETE {name}` removes the tenant, its users, groups and embed-access entries (204); the
 * account itself (`acme`) is not an embed tenant (404). `POST groups` `{ name, description? }` →
 * 201 group (409 when the name exists). `PATCH groups/{id}` `{ name?, description? }` (description
 * `null` clears it; a rename carries the memberships) → 200 group. `DELETE groups/{id}` → 204.
 * Members: `POST` and `DELETE groups/{id}/users` with `{ externalId }` or `{ embedUserId }`
 * (exactly one; for DELETE also as query parameters) → 204, idempotent; the user must belong to
 * the tenant (400).
 *
 * Wire shapes: embed tenant `{ name, displayName, createdAt, userCount, groupCount }`; embed user
 * `{ id (the embedUserId), externalId, email, displayName, picture, groups, createdAt, updatedAt }`;
 * embed group `{ id, name, description, memberCount }`.
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import { normalizeExternalId } from '../../../core/protocol/session';
import * as v from 'valibot';
import { filledString, positiveId, validateBody } from '../../../core/protocol/management';
import { deferred, objectWith } from '../../../core/protocol/workbook';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonResponse, readJson } from '../../http';
import { pruneExpiredExternalUsers, type EmbedTenant, type ExternalUser, type Group } from '../../state';
import { MAX_MANAGEMENT_BODY_BYTES } from '../../world';
import { embedAccessState, iso, listAnswer, managementAuth, noContent, parseId, readSchema, withSlash } from './shared';

function embedUserWire(user: ExternalUser) {
  return {
    id: user.id,
    externalId: user.externalId,
    email: user.email ?? null,
    displayName: user.profile.displayName ?? null,
    picture: user.profile.picture ?? null,
    groups: [...user.groups],
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  };
}

function requireTenant(context: EmulatorContext, c: Context<EmulatorEnv>): EmbedTenant {
  const name = c.req.param('embedTenantName') ?? '';
  const tenant = context.state.embedTenants.get(name);
  if (!tenant) throw httpError(404, `Embed tenant "${name}" not found`);
  return tenant;
}

function tenantUsers(context: EmulatorContext, tenant: EmbedTenant): ExternalUser[] {
  pruneExpiredExternalUsers(context.state, context.clock.now());
  return [...context.state.externalUsers.values()].filter((user) => user.embedTenantName === tenant.name);
}

function requireGroup(context: EmulatorContext, c: Context<EmulatorEnv>, tenant: EmbedTenant): Group {
  const id = parseId(c.req.param('groupId'));
  const group = [...tenant.groups.values()].find((candidate) => candidate.id === id);
  if (!group) throw httpError(404, `Group ${c.req.param('groupId') ?? ''} not found in embed tenant "${tenant.name}"`);
  return group;
}

function groupWire(context: EmulatorContext, tenant: EmbedTenant, group: Group) {
  const memberCount = tenantUsers(context, tenant).filter((user) => user.groups.has(group.name)).length;
  return { id: group.id, name: group.name, description: group.description ?? null, memberCount };
}

/** Reads `{ externalId }` or `{ embedUserId }` (exactly one) and finds that user of the tenant. */
/** A member body (behaviour 4): exactly one of `{ externalId }` and `{ embedUserId }`; query strings too. */
const MemberSchema = /*#__PURE__*/ deferred(() =>
  v.pipe(
    objectWith(
      {
        externalId: v.optional(filledString('must be a non-empty string')),
        embedUserId: v.optional(
          v.pipe(
            v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))], 'must be a whole number'),
            positiveId('must be a whole number, the id of an embed user'),
          ),
        ),
      },
      'must be an object { externalId } or { embedUserId }',
    ),
    v.check(
      (member) => (member.externalId === undefined) !== (member.embedUserId === undefined),
      'give exactly one of externalId and embedUserId',
    ),
  ),
);

/** Finds the user a member body names in the tenant (400 when there is none). */
function memberOf(context: EmulatorContext, tenant: EmbedTenant, source: unknown): ExternalUser {
  const checked = validateBody(MemberSchema, source);
  // 4.3 answers member errors as `{ error }` alone, as it always has.
  if (!checked.ok) throw httpError(400, checked.problems.join('; '));
  const { externalId, embedUserId } = checked.value;
  const users = tenantUsers(context, tenant);
  const user =
    externalId === undefined
      ? users.find((candidate) => candidate.id === embedUserId)
      : users.find((candidate) => candidate.externalId === normalizeExternalId(externalId));
  if (!user) {
    const which = externalId === undefined ? `embedUserId ${String(embedUserId)}` : `externalId "${externalId}"`;
    throw httpError(400, `No user with ${which} in embed tenant "${tenant.name}"`);
  }
  return user;
}

const groupName = () => filledString('must be a non-empty string');
const groupDescription = () => v.nullish(v.string('must be a string or null'));
const GroupInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith({ name: groupName(), description: groupDescription() }, 'must be an object { name, description? }'),
);
const GroupPatchSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    { name: v.optional(groupName()), description: groupDescription() },
    'must be an object { name?, description? }',
  ),
);

/** The embed-tenant admin sub-app (4.3). */
export function embeddingApp(context: EmulatorContext): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const auth = managementAuth(context);
  const tenants = '/api/v1/embed-tenants';

  for (const path of withSlash(tenants)) {
    app.get(path, auth.embedAdmin, (c) =>
      listAnswer(c, {
        items: context.state.embedTenants.values(),
        tag: 'embed-tenants',
        key: (tenant) => [tenant.name],
        toWire: (tenant) => ({
          name: tenant.name,
          displayName: tenant.displayName ?? null,
          createdAt: iso(tenant.createdAt),
          userCount: tenantUsers(context, tenant).length,
          groupCount: tenant.groups.size,
        }),
      }),
    );
  }

  app.delete(`${tenants}/:embedTenantName`, auth.embedAdmin, (c) => {
    const tenant = requireTenant(context, c);
    for (const [key, user] of context.state.externalUsers)
      if (user.embedTenantName === tenant.name) context.state.externalUsers.delete(key);
    for (const access of embedAccessState(context).values()) access.embedTenants.delete(tenant.name);
    context.state.embedTenants.delete(tenant.name);
    return noContent();
  });

  app.get(`${tenants}/:embedTenantName/users`, auth.embedAdmin, (c) => {
    const tenant = requireTenant(context, c);
    return listAnswer(c, {
      items: tenantUsers(context, tenant),
      tag: `embed-users:${tenant.name}`,
      key: (user) => [user.id],
      toWire: embedUserWire,
    });
  });

  app.get(`${tenants}/:embedTenantName/groups`, auth.embedAdmin, (c) => {
    const tenant = requireTenant(context, c);
    return listAnswer(c, {
      items: tenant.groups.values(),
      tag: `embed-groups:${tenant.name}`,
      key: (group) => [group.id],
      toWire: (group) => groupWire(context, tenant, group),
    });
  });

  app.post(`${tenants}/:embedTenantName/groups`, auth.embedAdmin, async (c) => {
    const tenant = requireTenant(context, c);
    const input = await readSchema(c, GroupInputSchema);
    const name = input.name.trim();
    if (tenant.groups.has(name))
      throw httpError(409, `Group "${name}" already exists in embed tenant "${tenant.name}"`);
    const group: Group = { id: context.state.nextId('group'), name, description: input.description ?? undefined };
    tenant.groups.set(name, group);
    return jsonResponse(201, groupWire(context, tenant, group));
  });

  app.get(`${tenants}/:embedTenantName/groups/:groupId`, auth.embedAdmin, (c) => {
    const tenant = requireTenant(context, c);
    return jsonResponse(200, groupWire(context, tenant, requireGroup(context, c, tenant)));
  });

  app.patch(`${tenants}/:embedTenantName/groups/:groupId`, auth.embedAdmin, async (c) => {
    const tenant = requireTenant(context, c);
    const group = requireGroup(context, c, tenant);
    const patch = await readSchema(c, GroupPatchSchema);
    const input = { ...patch, name: patch.name?.trim() };
    if (input.name !== undefined && input.name !== group.name) {
      if (tenant.groups.has(input.name))
        throw httpError(409, `Group "${input.name}" already exists in embed tenant "${tenant.name}"`);
      for (const user of tenantUsers(context, tenant)) {
        if (user.groups.delete(group.name)) user.groups.add(input.name);
      }
      tenant.groups.delete(group.name);
      group.name = input.name;
      tenant.groups.set(group.name, group);
    }
    if (input.description !== undefined) group.description = input.description ?? undefined;
    return jsonResponse(200, groupWire(context, tenant, group));
  });

  app.delete(`${tenants}/:embedTenantName/groups/:groupId`, auth.embedAdmin, (c) => {
    const tenant = requireTenant(context, c);
    const group = requireGroup(context, c, tenant);
    for (const user of tenantUsers(context, tenant)) user.groups.delete(group.name);
    tenant.groups.delete(group.name);
    return noContent();
  });

  app.get(`${tenants}/:embedTenantName/groups/:groupId/users`, auth.embedAdmin, (c) => {
    const tenant = requireTenant(context, c);
    const group = requireGroup(context, c, tenant);
    return listAnswer(c, {
      items: tenantUsers(context, tenant).filter((user) => user.groups.has(group.name)),
      tag: `embed-group-users:${tenant.name}:${group.id}`,
      key: (user) => [user.id],
      toWire: embedUserWire,
    });
  });

  app.post(`${tenants}/:embedTenantName/groups/:groupId/users`, auth.embedAdmin, async (c) => {
    const tenant = requireTenant(context, c);
    const group = requireGroup(context, c, tenant);
    const user = memberOf(context, tenant, await readJson(c, MAX_MANAGEMENT_BODY_BYTES));
    if (!user.groups.has(group.name)) {
      user.groups.add(group.name);
      user.updatedAt = context.clock.now();
    }
    return noContent();
  });

  app.delete(`${tenants}/:embedTenantName/groups/:groupId/users`, auth.embedAdmin, async (c) => {
    const tenant = requireTenant(context, c);
    const group = requireGroup(context, c, tenant);
    // The member may come as query parameters: some clients send no body with DELETE.
    const body = await readJson(c, MAX_MANAGEMENT_BODY_BYTES);
    const user = memberOf(context, tenant, body === undefined ? c.req.query() : body);
    if (user.groups.delete(group.name)) user.updatedAt = context.clock.now();
    return noContent();
  });

  return app;
}
