/**
 * SCIM 2.0 provisioning (interface 1, 4.6, 5; RFC 7643 and 7644), part of the client's `people`
 * group: `/api/scim/v2/Users` over the account's internal users and `/api/scim/v2/Groups` over its
 * tenant-wide groups, the same records `people.ts` and generate-session use.
 *
 * | method | path |
 * |---|---|
 * | GET, POST | `/api/scim/v2/Users`, `/api/scim/v2/Groups` |
 * | GET, PUT, PATCH, DELETE | `/api/scim/v2/Users/{id}`, `/api/scim/v2/Groups/{id}` |
 *
 * Auth (5): the SCIM token is an API key, sent as `Bearer <key>` or `Api-Key <key>`; an admin key
 * is required (401 for a missing, malformed or unknown one, 403 for a personal key, in the
 * management API's `{ error }`). Every other error is RFC 7644's body with the management API's
 * `error` beside it: `{ error, schemas: [Error URN], status: "404", detail, scimType? }` (`problems`
 * too when a body broke several rules).
 *
 * - Lists answer `{ schemas: [ListResponse URN], totalResults, startIndex, itemsPerPage,
 *   Resources }`, by id. `startIndex` is 1-based (below 1 reads as 1), `count` defaults to and is
 *   capped at {@link SCIM_MAX_COUNT} (below 0 reads as 0, which answers only `totalResults`);
 *   anything not a whole number is a 400 `invalidValue`. `filter` takes `<attribute> eq "<value>"`
 *   on `userName` (any case), `externalId` and `displayName`; any other filter is a 400
 *   `invalidFilter`.
 * - User `{ schemas, id, externalId?, userName (the email), name: { givenName, familyName,
 *   formatted }, displayName, emails: [{ value, primary: true, type: 'work' }], active, groups:
 *   [{ value, display }], meta }`. Create (201, with `Location`) needs a unique `userName` (409
 *   `uniqueness`); a new user is a `viewer`. `active: false` deactivates the user. PUT replaces
 *   `userName`, the names, `active` and `externalId`. DELETE removes the user (204), except the
 *   user the key acts as (409).
 * - Group `{ schemas, id, externalId?, displayName, members: [{ value, display }], meta }`.
 *   Members are user ids that must exist (400 `invalidValue`); a rename carries every membership.
 * - PATCH (`Operations` of `add`, `remove`, `replace`, any case): users take the paths `active`
 *   (also `"True"`/`"False"` strings), `userName`, `name`, `name.givenName`, `name.familyName`,
 *   `externalId`, or no path with an object of those; groups take `displayName`, `externalId`,
 *   `members` (add a list, replace the list, remove a list or all) and `members[value eq "<id>"]`
 *   (remove one). Other paths are a 400 `invalidPath`. The operations apply in order, all or none.
 *
 * @module
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { validateBody } from '../../../core/protocol/management';
import {
  SCIM_ERROR_SCHEMA,
  SCIM_GROUP_SCHEMA,
  SCIM_LIST_RESPONSE_SCHEMA,
  SCIM_USER_SCHEMA,
  ScimGroupSchema,
  ScimPatchSchema,
  ScimUserSchema,
  type ScimPatchOperation,
} from '../../../core/protocol/scim';
import { isRecord } from '../../../core/protocol/shared';
import { requireApiKey } from '../../auth';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { jsonError, readJson } from '../../http';
import type { Group, InternalUser } from '../../state';
import { MAX_MANAGEMENT_BODY_BYTES } from '../../world';
import { createUser, findUserByEmail, selfProblem, setActive } from './people';
import { iso, parseId } from './shared';

/** Largest SCIM page, and the page size when `count` is not given. */
export const SCIM_MAX_COUNT = 100;

/** A SCIM error (RFC 7644 §3.12) with the management API's `error` beside it. */
function scimError(status: 400 | 404 | 409, detail: string, scimType?: string, problems?: readonly string[]) {
  return jsonError(status, {
    error: detail,
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(status),
    detail,
    ...(scimType === undefined ? {} : { scimType }),
    ...(problems === undefined ? {} : { problems }),
  });
}

function scimJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/scim+json; charset=utf-8', ...headers },
  });
}

/** Reads and checks a SCIM body with a protocol schema: 400 `invalidValue` naming every problem. */
async function readScim<T>(c: Context, schema: v.GenericSchema<unknown, T>): Promise<T> {
  const checked = validateBody(schema, await readJson(c, MAX_MANAGEMENT_BODY_BYTES));
  if (!checked.ok) throw scimError(400, checked.problems.join('; '), 'invalidValue', checked.problems);
  return checked.value;
}

/** `Bearer` or `Api-Key` (5: the SCIM token is an API key), admin keys only. */
function scimAuth(context: EmulatorContext): MiddlewareHandler<EmulatorEnv> {
  const bearer = requireApiKey(context, { scheme: 'Bearer', admin: true });
  const apiKey = requireApiKey(context, { scheme: 'Api-Key', admin: true });
  return (c, next) => (/^\s*api-key\s/i.test(c.req.header('authorization') ?? '') ? apiKey : bearer)(c, next);
}

/** Reads `startIndex` and `count` as RFC 7644 §3.4.2.4 says. */
function pageOf(c: Context): { startIndex: number; count: number } {
  const read = (name: string, fallback: number) => {
    const raw = c.req.query(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw.trim())) throw scimError(400, `${name}: must be a whole number`, 'invalidValue');
    return Number(raw);
  };
  return {
    startIndex: Math.max(1, read('startIndex', 1)),
    count: Math.min(SCIM_MAX_COUNT, Math.max(0, read('count', SCIM_MAX_COUNT))),
  };
}

/** The `<attribute> eq "<value>"` of a filter, or a 400 `invalidFilter`. */
function filterOf(c: Context, attributes: readonly string[]): { attribute: string; value: string } | undefined {
  const raw = c.req.query('filter');
  if (raw === undefined || raw.trim() === '') return undefined;
  const match = /^\s*([A-Za-z.]+)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(raw);
  const attribute = attributes.find((name) => name.toLowerCase() === match?.[1]?.toLowerCase());
  if (!match || !attribute)
    throw scimError(
      400,
      `filter: only <attribute> eq "<value>" on ${attributes.join(', ')} is supported`,
      'invalidFilter',
    );
  return { attribute, value: JSON.parse(`"${match[2]!}"`) as string };
}

function listResponse<T>(c: Context, all: T[], toWire: (item: T) => unknown): Response {
  const { startIndex, count } = pageOf(c);
  const page = all.slice(startIndex - 1, startIndex - 1 + count);
  return scimJson(200, {
    schemas: [SCIM_LIST_RESPONSE_SCHEMA],
    totalResults: all.length,
    startIndex,
    itemsPerPage: page.length,
    Resources: page.map(toWire),
  });
}

const toBoolean = (value: unknown, path: string): boolean => {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw scimError(400, `${path}: must be true or false`, 'invalidValue');
};

const toText = (value: unknown, path: string): string => {
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw scimError(400, `${path}: must be a non-empty string`, 'invalidValue');
};

// ---------------------------------------------------------------------------------------------
// The sub-app
// ---------------------------------------------------------------------------------------------

const EXTERNAL_IDS = Symbol('emulator.management.scimExternalIds');

/** The SCIM sub-app. */
export function scimApp(context: EmulatorContext): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const auth = scimAuth(context);
  const { internalUsers: users, groups } = context.state;
  /** The identity provider's ids, by `User/<id>` or `Group/<id>`. */
  const externalIds = () => context.state.featureState(EXTERNAL_IDS, () => new Map<string, string>());
  const origin = (c: Context) => new URL(c.req.url).origin;

  // Users ------------------------------------------------------------------------------------

  const userWire = (c: Context, user: InternalUser) => {
    const externalId = externalIds().get(`User/${user.id}`);
    const formatted = `${user.firstName} ${user.lastName}`.trim();
    return {
      schemas: [SCIM_USER_SCHEMA],
      id: String(user.id),
      ...(externalId === undefined ? {} : { externalId }),
      userName: user.email,
      name: { givenName: user.firstName, familyName: user.lastName, formatted },
      displayName: formatted || user.email,
      emails: [{ value: user.email, primary: true, type: 'work' }],
      active: user.deactivatedAt === undefined,
      groups: [...user.groups]
        .map((name) => groups.get(name))
        .filter((group): group is Group => group !== undefined)
        .map((group) => ({ value: String(group.id), display: group.name })),
      meta: {
        resourceType: 'User',
        created: iso(user.createdAt),
        lastModified: iso(user.updatedAt),
        location: `${origin(c)}/api/scim/v2/Users/${user.id}`,
      },
    };
  };

  const requireScimUser = (c: Context): InternalUser => {
    const id = parseId(c.req.param('id'));
    const user = id === undefined ? undefined : users.get(id);
    if (!user) throw scimError(404, `User ${c.req.param('id') ?? ''} not found`);
    return user;
  };

  /** Sets what a SCIM user body carries; `userName` must stay unique. */
  const applyUser = (user: InternalUser, fields: Record<string, unknown>) => {
    const userName = fields['userName'];
    if (userName !== undefined) {
      const name = toText(userName, 'userName');
      const holder = findUserByEmail(context, name);
      if (holder && holder.id !== user.id) throw scimError(409, `userName "${name}" is taken`, 'uniqueness');
      user.email = name.trim();
    }
    const name = fields['name'];
    if (isRecord(name)) {
      if (name['givenName'] !== undefined) user.firstName = toText(name['givenName'], 'name.givenName');
      if (name['familyName'] !== undefined) user.lastName = toText(name['familyName'], 'name.familyName');
    }
    if (fields['active'] !== undefined) setActive(context, user, toBoolean(fields['active'], 'active'));
    if (typeof fields['externalId'] === 'string') externalIds().set(`User/${user.id}`, fields['externalId']);
    user.updatedAt = context.clock.now();
  };

  app.get('/api/scim/v2/Users', auth, (c) => {
    const filter = filterOf(c, ['userName', 'externalId', 'displayName']);
    const all = [...users.values()]
      .filter((user) => {
        if (!filter) return true;
        const wire = userWire(c, user) as Record<string, unknown>;
        const value = wire[filter.attribute];
        return filter.attribute === 'userName'
          ? String(value).toLowerCase() === filter.value.toLowerCase()
          : value === filter.value;
      })
      .sort((a, b) => a.id - b.id);
    return listResponse(c, all, (user) => userWire(c, user));
  });

  app.post('/api/scim/v2/Users', auth, async (c) => {
    const input = await readScim(c, ScimUserSchema);
    if (findUserByEmail(context, input.userName))
      throw scimError(409, `userName "${input.userName}" is taken`, 'uniqueness');
    const user = createUser(context, { email: input.userName });
    applyUser(user, input);
    const wire = userWire(c, user);
    return scimJson(201, wire, { location: wire.meta.location });
  });

  app.get('/api/scim/v2/Users/:id', auth, (c) => scimJson(200, userWire(c, requireScimUser(c))));

  app.put('/api/scim/v2/Users/:id', auth, async (c) => {
    const user = requireScimUser(c);
    const input = await readScim(c, ScimUserSchema);
    applyUser(user, { active: true, ...input });
    if (input['externalId'] === undefined) externalIds().delete(`User/${user.id}`);
    return scimJson(200, userWire(c, user));
  });

  app.patch('/api/scim/v2/Users/:id', auth, async (c) => {
    const user = requireScimUser(c);
    const { Operations } = await readScim(c, ScimPatchSchema);
    // All or none: apply to a copy, then keep it.
    const draft: InternalUser = { ...user, groups: new Set(user.groups), attributes: new Map(user.attributes) };
    const ids = new Map(externalIds());
    for (const operation of Operations as ScimPatchOperation[]) patchUser(draft, operation, ids);
    Object.assign(user, draft);
    if (draft.deactivatedAt === undefined) delete user.deactivatedAt;
    externalIds().clear();
    for (const [key, value] of ids) externalIds().set(key, value);
    return scimJson(200, userWire(c, user));
  });

  /** One PATCH operation on a user (module docs). */
  const patchUser = (user: InternalUser, operation: ScimPatchOperation, ids: Map<string, string>) => {
    const { op, value } = operation;
    const path = operation.path?.trim();
    if (path === undefined) {
      if (op === 'remove' || !isRecord(value))
        throw scimError(400, 'An operation without a path needs an object value', 'invalidValue');
      for (const [key, inner] of Object.entries(value)) patchUser(user, { op, path: key, value: inner }, ids);
      return;
    }
    const key = `User/${user.id}`;
    switch (path.toLowerCase()) {
      case 'externalid':
        if (op === 'remove') ids.delete(key);
        else ids.set(key, toText(value, path));
        return;
      case 'active':
      case 'username':
      case 'name':
      case 'name.givenname':
      case 'name.familyname': {
        if (op === 'remove') throw scimError(400, `${path}: cannot be removed`, 'mutability');
        const fields =
          path.toLowerCase() === 'name.givenname'
            ? { name: { givenName: value } }
            : path.toLowerCase() === 'name.familyname'
              ? { name: { familyName: value } }
              : { [path.toLowerCase() === 'username' ? 'userName' : path.toLowerCase()]: value };
        applyUser(user, fields);
        return;
      }
      default:
        throw scimError(
          400,
          `${path}: the emulator patches active, userName, name, name.givenName, name.familyName and externalId`,
          'invalidPath',
        );
    }
  };

  app.delete('/api/scim/v2/Users/:id', auth, (c) => {
    const user = requireScimUser(c);
    const refused = selfProblem(c, user.id);
    if (refused) throw scimError(409, refused);
    users.delete(user.id);
    externalIds().delete(`User/${user.id}`);
    return new Response(null, { status: 204 });
  });

  // Groups -----------------------------------------------------------------------------------

  const membersOf = (group: Group) =>
    [...users.values()].filter((user) => user.groups.has(group.name)).sort((a, b) => a.id - b.id);

  const groupWire = (c: Context, group: Group) => {
    const externalId = externalIds().get(`Group/${group.id}`);
    return {
      schemas: [SCIM_GROUP_SCHEMA],
      id: String(group.id),
      ...(externalId === undefined ? {} : { externalId }),
      displayName: group.name,
      members: membersOf(group).map((user) => ({ value: String(user.id), display: user.email })),
      meta: { resourceType: 'Group', location: `${origin(c)}/api/scim/v2/Groups/${group.id}` },
    };
  };

  const requireScimGroup = (c: Context): Group => {
    const id = parseId(c.req.param('id'));
    const group = [...groups.values()].find((candidate) => candidate.id === id);
    if (!group) throw scimError(404, `Group ${c.req.param('id') ?? ''} not found`);
    return group;
  };

  /** The users a members list names; 400 `invalidValue` for one that does not exist. */
  const usersOf = (members: unknown, path: string): InternalUser[] => {
    if (!Array.isArray(members)) throw scimError(400, `${path}: must be an array of { value }`, 'invalidValue');
    return members.map((member: unknown) => {
      const id = isRecord(member) && typeof member['value'] === 'string' ? parseId(member['value']) : undefined;
      const user = id === undefined ? undefined : users.get(id);
      if (!user)
        throw scimError(
          400,
          `${path}: no user ${JSON.stringify(isRecord(member) ? member['value'] : member)}`,
          'invalidValue',
        );
      return user;
    });
  };

  const rename = (group: Group, name: string) => {
    if (name === group.name) return;
    if (groups.has(name)) throw scimError(409, `displayName "${name}" is taken`, 'uniqueness');
    for (const user of [...users.values(), ...context.state.externalUsers.values()])
      if (user.groups.delete(group.name)) user.groups.add(name);
    groups.delete(group.name);
    group.name = name;
    groups.set(name, group);
  };

  const setMembers = (group: Group, members: InternalUser[]) => {
    for (const user of users.values()) user.groups.delete(group.name);
    for (const user of members) user.groups.add(group.name);
  };

  app.get('/api/scim/v2/Groups', auth, (c) => {
    const filter = filterOf(c, ['displayName', 'externalId']);
    const all = [...groups.values()]
      .filter(
        (group) =>
          !filter ||
          (filter.attribute === 'displayName'
            ? group.name === filter.value
            : externalIds().get(`Group/${group.id}`) === filter.value),
      )
      .sort((a, b) => a.id - b.id);
    return listResponse(c, all, (group) => groupWire(c, group));
  });

  app.post('/api/scim/v2/Groups', auth, async (c) => {
    const input = await readScim(c, ScimGroupSchema);
    if (groups.has(input.displayName))
      throw scimError(409, `displayName "${input.displayName}" is taken`, 'uniqueness');
    const members = usersOf(input.members ?? [], 'members');
    const group: Group = { id: context.state.nextId('group'), name: input.displayName };
    groups.set(group.name, group);
    setMembers(group, members);
    if (typeof input['externalId'] === 'string') externalIds().set(`Group/${group.id}`, input['externalId']);
    const wire = groupWire(c, group);
    return scimJson(201, wire, { location: wire.meta.location });
  });

  app.get('/api/scim/v2/Groups/:id', auth, (c) => scimJson(200, groupWire(c, requireScimGroup(c))));

  app.put('/api/scim/v2/Groups/:id', auth, async (c) => {
    const group = requireScimGroup(c);
    const input = await readScim(c, ScimGroupSchema);
    const members = usersOf(input.members ?? [], 'members');
    rename(group, input.displayName);
    setMembers(group, members);
    if (typeof input['externalId'] === 'string') externalIds().set(`Group/${group.id}`, input['externalId']);
    else externalIds().delete(`Group/${group.id}`);
    return scimJson(200, groupWire(c, group));
  });

  app.patch('/api/scim/v2/Groups/:id', auth, async (c) => {
    const group = requireScimGroup(c);
    const { Operations } = await readScim(c, ScimPatchSchema);
    // All or none: work out the end state first, then apply it.
    let name = group.name;
    let members = membersOf(group);
    let externalId = externalIds().get(`Group/${group.id}`);
    const apply = (operation: ScimPatchOperation): void => {
      const { op, value } = operation;
      const path = operation.path?.trim();
      if (path === undefined) {
        if (op === 'remove' || !isRecord(value))
          throw scimError(400, 'An operation without a path needs an object value', 'invalidValue');
        for (const [key, inner] of Object.entries(value)) apply({ op, path: key, value: inner });
        return;
      }
      const one = /^members\[\s*value\s+eq\s+"([^"]*)"\s*\]$/i.exec(path);
      if (one && op === 'remove') {
        members = members.filter((user) => String(user.id) !== one[1]);
        return;
      }
      switch (path.toLowerCase()) {
        case 'displayname':
          if (op === 'remove') throw scimError(400, 'displayName: cannot be removed', 'mutability');
          name = toText(value, path);
          return;
        case 'externalid':
          externalId = op === 'remove' ? undefined : toText(value, path);
          return;
        case 'members': {
          if (op === 'remove' && value === undefined) {
            members = [];
            return;
          }
          const named = usersOf(value, path);
          if (op === 'replace') members = named;
          else if (op === 'add') members = [...members, ...named.filter((user) => !members.includes(user))];
          else members = members.filter((user) => !named.includes(user));
          return;
        }
        default:
          throw scimError(400, `${path}: the emulator patches displayName, externalId and members`, 'invalidPath');
      }
    };
    for (const operation of Operations as ScimPatchOperation[]) apply(operation);
    rename(group, name);
    setMembers(group, members);
    if (externalId === undefined) externalIds().delete(`Group/${group.id}`);
    else externalIds().set(`Group/${group.id}`, externalId);
    return scimJson(200, groupWire(c, group));
  });

  app.delete('/api/scim/v2/Groups/:id', auth, (c) => {
    const group = requireScimGroup(c);
    for (const user of [...users.values(), ...context.state.externalUsers.values()]) user.groups.delete(group.name);
    groups.delete(group.name);
    externalIds().delete(`Group/${group.id}`);
    return new Response(null, { status: 204 });
  });

  return app;
}
