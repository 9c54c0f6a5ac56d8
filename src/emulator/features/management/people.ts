/**
 * People of the account (interface 4.6), as the client's `people` group, without SCIM
 * (`scim.ts`): internal users and their bulk actions, tenant-wide user attributes and per-user
 * values. `Bearer` auth with an admin key (403 for a personal key); a scoped admin key may manage
 * them too (its scope limits deployments, and these belong to the account).
 *
 * | method | path |
 * |---|---|
 * | GET, POST | `/api/v1/users/` (also without the slash) |
 * | PUT, DELETE | `/api/v1/users/{id}` |
 * | POST | `/api/v1/users/bulk` |
 * | GET, POST | `/api/v1/user-attributes/` |
 * | GET, PUT | `/api/v1/user-attributes/{id}` |
 * | GET | `/api/v1/user-attribute-values/{userId}` |
 * | POST | `/api/v1/user-attribute-values/` |
 *
 * These are the users, groups and attributes the rest of the emulator reads: generate-session
 * resolves `internalId`, read-only `userAttributes` and `groups` against them, so a renamed
 * attribute or a deleted user changes what sessions accept.
 *
 * - User `{ id, email, firstName, lastName, role, status: 'active'|'deactivated', groups,
 *   createdAt, updatedAt }`, listed by id. Create (201) and change check the body with the
 *   protocol's validators, then the emulator's choices: `role` one of `admin`, `editor`, `viewer`
 *   (default `viewer`), emails unique regardless of case (409). The user an API key acts as cannot
 *   be deleted or deactivated through it (409).
 * - Bulk `{ action: 'DEACTIVATE'|'ACTIVATE'|'DELETE', userIds }` → 200 `{ succeeded: [id],
 *   failed: [{ item: id, error, code }] }` in the order sent: `not_found` for an unknown user,
 *   `conflict` for the key's own user; activating an active user (or deactivating a deactivated
 *   one) succeeds.
 * - Attribute `{ id, name, type, displayName, description, defaultValue }`; the type is one of
 *   the interface's five (400 otherwise) and immutable (400 `cannot change type`); names are unique
 *   (409); a rename carries every user's value along.
 * - Values `{ userId, values: [{ name, value }] }` sorted by name; the upsert names each attribute
 *   once, every name must be an attribute (400 `User attributes not found`), each value must match
 *   its type (400), `null` clears a value, names not sent keep theirs. The user must exist (404
 *   for the GET's path, 400 for the upsert's body).
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import {
  validateBulkUserUpdate,
  validateTenantUserAttributeInput,
  validateTenantUserAttributePatch,
  validateUserAttributeValues,
  validateUserInput,
  validateUserPatch,
  type BulkFailure,
} from '../../../core/protocol/management';
import {
  USER_ATTRIBUTES_NOT_FOUND,
  attributeTypeChangeMessage,
  attributeValueMatchesType,
} from '../../../core/protocol/session';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonResponse } from '../../http';
import type { AttributeDefinition, InternalUser } from '../../state';
import { apiKeyOf, invalid, iso, listAnswer, managementAuth, noContent, parseId, readValid, withSlash } from './shared';

/** The roles of the emulator's internal users. */
export const USER_ROLES = ['admin', 'editor', 'viewer'] as const;

const roleProblems = (role: string | undefined) =>
  role === undefined || USER_ROLES.some((known) => known === role)
    ? []
    : [`role: must be one of ${USER_ROLES.join(', ')}`];

/** The wire shape of an internal user. */
export function userWire(user: InternalUser) {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    status: user.deactivatedAt === undefined ? 'active' : 'deactivated',
    groups: [...user.groups].sort(),
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
  };
}

/** The user with this email, regardless of case. */
export function findUserByEmail(context: EmulatorContext, email: string): InternalUser | undefined {
  const wanted = email.trim().toLowerCase();
  return [...context.state.internalUsers.values()].find((user) => user.email.toLowerCase() === wanted);
}

/** Creates an internal user; 409 when the email is taken. */
export function createUser(
  context: EmulatorContext,
  input: {
    email: string;
    firstName?: string | undefined;
    lastName?: string | undefined;
    role?: InternalUser['role'] | undefined;
  },
): InternalUser {
  if (findUserByEmail(context, input.email)) throw httpError(409, `A user with email "${input.email}" already exists`);
  const now = context.clock.now();
  const user: InternalUser = {
    id: context.state.nextId('user'),
    email: input.email.trim(),
    firstName: input.firstName ?? '',
    lastName: input.lastName ?? '',
    role: input.role ?? 'viewer',
    groups: new Set(),
    attributes: new Map(),
    createdAt: now,
    updatedAt: now,
  };
  context.state.internalUsers.set(user.id, user);
  return user;
}

/** Why the caller's key may not remove or deactivate `userId`, or `undefined`. */
export function selfProblem(c: Context<EmulatorEnv>, userId: number): string | undefined {
  return apiKeyOf(c).userId === userId
    ? `User ${userId} is the user this API key acts as: it cannot remove or deactivate itself`
    : undefined;
}

/** The internal user of the `:userId` path parameter, or 404. */
export function requireUser(context: EmulatorContext, raw: string | undefined): InternalUser {
  const id = parseId(raw);
  const user = id === undefined ? undefined : context.state.internalUsers.get(id);
  if (!user) throw httpError(404, `User ${raw ?? ''} not found`);
  return user;
}

/** Deactivates (or with `active`, activates) a user, recording when. */
export function setActive(context: EmulatorContext, user: InternalUser, active: boolean): void {
  const deactivated = user.deactivatedAt !== undefined;
  if (active === !deactivated) return;
  if (active) delete user.deactivatedAt;
  else user.deactivatedAt = context.clock.now();
  user.updatedAt = context.clock.now();
}

function attributeWire(attribute: AttributeDefinition) {
  return {
    id: attribute.id,
    name: attribute.name,
    type: attribute.type,
    displayName: attribute.displayName ?? null,
    description: attribute.description ?? null,
    defaultValue: attribute.defaultValue ?? null,
  };
}

function valuesWire(user: InternalUser) {
  return {
    userId: user.id,
    values: [...user.attributes]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => ({ name, value: structuredClone(value) })),
  };
}

function requireAttribute(context: EmulatorContext, raw: string | undefined): AttributeDefinition {
  const id = parseId(raw);
  const attribute = [...context.state.userAttributes.values()].find((candidate) => candidate.id === id);
  if (!attribute) throw httpError(404, `User attribute ${raw ?? ''} not found`);
  return attribute;
}

/** The people sub-app. */
export function peopleApp(context: EmulatorContext): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const { admin } = managementAuth(context);
  const users = context.state.internalUsers;
  const attributes = context.state.userAttributes;

  for (const path of withSlash('/api/v1/users')) {
    app.get(path, admin, (c) =>
      listAnswer(c, { items: users.values(), tag: 'users', key: (u) => [u.id], toWire: userWire }),
    );
    app.post(path, admin, async (c) => {
      const input = await readValid(c, validateUserInput);
      const problems = roleProblems(input.role);
      if (problems.length > 0) throw invalid(problems);
      return jsonResponse(201, userWire(createUser(context, { ...input, role: input.role as InternalUser['role'] })));
    });
  }

  app.post('/api/v1/users/bulk', admin, async (c) => {
    const { action, userIds } = await readValid(c, validateBulkUserUpdate);
    const outcome: { succeeded: number[]; failed: BulkFailure<number>[] } = { succeeded: [], failed: [] };
    for (const userId of userIds) {
      const user = users.get(userId);
      const refused = action === 'ACTIVATE' ? undefined : selfProblem(c, userId);
      if (!user) outcome.failed.push({ item: userId, error: `User ${userId} not found`, code: 'not_found' });
      else if (refused) outcome.failed.push({ item: userId, error: refused, code: 'conflict' });
      else {
        if (action === 'DELETE') users.delete(userId);
        else setActive(context, user, action === 'ACTIVATE');
        outcome.succeeded.push(userId);
      }
    }
    return jsonResponse(200, outcome);
  });

  app.put('/api/v1/users/:userId', admin, async (c) => {
    const user = requireUser(context, c.req.param('userId'));
    const patch = await readValid(c, validateUserPatch);
    const problems = roleProblems(patch.role);
    if (problems.length > 0) throw invalid(problems);
    const holder = patch.email === undefined ? undefined : findUserByEmail(context, patch.email);
    if (holder && holder.id !== user.id) throw httpError(409, `A user with email "${patch.email}" already exists`);
    const next = {
      email: patch.email?.trim() ?? user.email,
      firstName: patch.firstName ?? user.firstName,
      lastName: patch.lastName ?? user.lastName,
      role: (patch.role as InternalUser['role'] | undefined) ?? user.role,
    };
    if ((Object.keys(next) as (keyof typeof next)[]).some((key) => next[key] !== user[key]))
      Object.assign(user, next, { updatedAt: context.clock.now() });
    return jsonResponse(200, userWire(user));
  });

  app.delete('/api/v1/users/:userId', admin, (c) => {
    const user = requireUser(context, c.req.param('userId'));
    const refused = selfProblem(c, user.id);
    if (refused) throw httpError(409, refused);
    users.delete(user.id);
    return noContent();
  });

  for (const path of withSlash('/api/v1/user-attributes')) {
    app.get(path, admin, (c) =>
      listAnswer(c, { items: attributes.values(), tag: 'user-attributes', key: (a) => [a.id], toWire: attributeWire }),
    );
    app.post(path, admin, async (c) => {
      const input = await readValid(c, validateTenantUserAttributeInput);
      if (attributes.has(input.name)) throw httpError(409, `User attribute "${input.name}" already exists`);
      const attribute: AttributeDefinition = {
        id: context.state.nextId('attribute'),
        name: input.name,
        type: input.type,
        ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
        ...(input.description === undefined ? {} : { description: input.description }),
        ...(input.defaultValue === undefined ? {} : { defaultValue: input.defaultValue }),
      };
      attributes.set(attribute.name, attribute);
      return jsonResponse(201, attributeWire(attribute));
    });
  }

  app.get('/api/v1/user-attributes/:attributeId', admin, (c) =>
    jsonResponse(200, attributeWire(requireAttribute(context, c.req.param('attributeId')))),
  );

  app.put('/api/v1/user-attributes/:attributeId', admin, async (c) => {
    const attribute = requireAttribute(context, c.req.param('attributeId'));
    const patch = await readValid(c, validateTenantUserAttributePatch);
    if (patch.type !== undefined && patch.type !== attribute.type)
      throw invalid([`type: ${attributeTypeChangeMessage(attribute.name, attribute.type, patch.type)}`]);
    if (patch.name !== undefined && patch.name !== attribute.name) {
      if (attributes.has(patch.name)) throw httpError(409, `User attribute "${patch.name}" already exists`);
      // The values are kept by name: carry them to the new one.
      for (const user of [...users.values(), ...context.state.externalUsers.values()]) {
        const value = user.attributes.get(attribute.name);
        if (value === undefined) continue;
        user.attributes.delete(attribute.name);
        user.attributes.set(patch.name, value);
      }
      attributes.delete(attribute.name);
      attribute.name = patch.name;
      attributes.set(attribute.name, attribute);
    }
    for (const key of ['displayName', 'description', 'defaultValue'] as const)
      if (patch[key] !== undefined) attribute[key] = patch[key];
    return jsonResponse(200, attributeWire(attribute));
  });

  app.get('/api/v1/user-attribute-values/:userId', admin, (c) =>
    jsonResponse(200, valuesWire(requireUser(context, c.req.param('userId')))),
  );

  for (const path of withSlash('/api/v1/user-attribute-values')) {
    app.post(path, admin, async (c) => {
      const input = await readValid(c, validateUserAttributeValues);
      const user = users.get(input.userId);
      if (!user) throw invalid([`userId: no user ${input.userId}`]);
      const unknown = input.values.filter((entry) => !attributes.has(entry.name)).map((entry) => entry.name);
      if (unknown.length > 0) throw invalid([`${USER_ATTRIBUTES_NOT_FOUND}: ${unknown.join(', ')}`]);
      const problems = input.values.flatMap((entry, index) => {
        const type = attributes.get(entry.name)!.type;
        return entry.value === null || attributeValueMatchesType(entry.value, type)
          ? []
          : [`values[${index}].value: must be of type ${type}, the type of "${entry.name}"`];
      });
      if (problems.length > 0) throw invalid(problems);
      for (const entry of input.values) {
        if (entry.value === null) user.attributes.delete(entry.name);
        else user.attributes.set(entry.name, structuredClone(entry.value));
      }
      user.updatedAt = context.clock.now();
      return jsonResponse(200, valuesWire(user));
    });
  }

  return app;
}
