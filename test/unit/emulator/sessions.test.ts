// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  CANNOT_CHANGE_TYPE,
  MAX_EXTERNAL_USERS,
  USER_ATTRIBUTES_NOT_FOUND,
  isSessionId,
  validateSessionRequest,
} from '../../../src/core/protocol/session';
import { ADMIN_API_KEY, PERSONAL_API_KEY, SCOPED_ADMIN_API_KEY, createManualClock } from '../../../src/emulator';
import { exchangeEmbedSession, verifyEmbedToken } from '../../../src/emulator/features/sessions';
import { EMBED_SESSION_TTL_MS, EMBED_TOKEN_TTL_MS, externalUserKey } from '../../../src/emulator/state';
import { mintSession, useEmulator } from '../../helpers/emulator';
import { loadData, requestJson } from './helpers';

type Json = Record<string, unknown>;

const clock = createManualClock(Date.parse('2026-03-01T12:00:00.000Z'));

const emulator = useEmulator({ clock });

/** POSTs to the emulator with `Api-Key <key>` and a JSON content type unless told otherwise. */
function post(
  path: string,
  body: unknown,
  options: { authorization?: string | null; contentType?: string | null; raw?: string } = {},
) {
  return requestJson(emulator, path, {
    method: 'POST',
    body,
    raw: options.raw,
    authorization: options.authorization === undefined ? `Api-Key ${ADMIN_API_KEY}` : options.authorization,
    contentType: options.contentType === undefined ? 'application/json' : options.contentType,
  });
}

const generate = (body: unknown, options?: Parameters<typeof post>[2]) =>
  post('/api/v1/embed/generate-session', body, options);
const revoke = (body: unknown, options?: Parameters<typeof post>[2]) =>
  post('/api/v1/embed/session/revoke', body, options);

/** Mints a session and expects 200. */
const mint = (body: Json): Promise<string> => mintSession(emulator, body);

const state = () => emulator.context.state;
const externalUser = (externalId: string, tenant = 'acme') =>
  state().externalUsers.get(externalUserKey(tenant, externalId));
const attributesOf = (externalId: string, tenant = 'acme') =>
  Object.fromEntries(externalUser(externalId, tenant)?.attributes ?? []);

describe('4.2 / 5 generate-session authentication', () => {
  const body = { deploymentId: 1, externalId: 'auth-user' };

  it('5 rule 3: missing, malformed or unknown Api-Key credential is 401 {"error"}', async () => {
    for (const authorization of [
      null,
      'Api-Key',
      `Bearer ${ADMIN_API_KEY}`,
      `Basic ${ADMIN_API_KEY}`,
      'Api-Key svc_not_a_key',
    ]) {
      const answer = await generate(body, { authorization });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
  });

  it('behaviour 4: generate-session requires an admin key; a personal key is 403', async () => {
    const answer = await generate(body, { authorization: `Api-Key ${PERSONAL_API_KEY}` });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: expect.any(String) });
  });

  it('4.2 rule 9: a scoped key minting for a deploymentId outside its scope is 403; unscoped keys mint for any', async () => {
    const refused = await generate({ ...body, deploymentId: 2 }, { authorization: `Api-Key ${SCOPED_ADMIN_API_KEY}` });
    expect(refused.status).toBe(403);
    expect(refused.body['error']).toEqual(expect.stringContaining('deployment 2'));
    expect((await generate(body, { authorization: `Api-Key ${SCOPED_ADMIN_API_KEY}` })).status).toBe(200);
    expect((await generate({ ...body, deploymentId: 2 })).status).toBe(200);
  });

  it('4.2 headers: Content-Type application/json is required (415 otherwise)', async () => {
    expect((await generate(body, { contentType: null })).status).toBe(415);
    const plain = await generate(body, { contentType: 'text/plain' });
    expect(plain.status).toBe(415);
    expect(plain.body['error']).toEqual(expect.stringContaining('application/json'));
    expect((await generate(body, { contentType: 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('4.2 an unknown deployment named in the body is 400', async () => {
    const answer = await generate({ ...body, deploymentId: 99 });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining('99'));
  });
});

describe('2.7 / 4.2 body validation (validateSessionRequest)', () => {
  it('2.7 a body failing the protocol validator is 400 with every problem, joined in error and listed in problems', async () => {
    const bad = { deploymentId: 0, externalId: 'x', internalId: 'ada@acme.test', embedTenantName: 'A' };
    const expected = validateSessionRequest(bad);
    expect(expected.ok).toBe(false);
    const answer = await generate(bad);
    expect(answer.status).toBe(400);
    if (expected.ok) return;
    expect(answer.body).toEqual({ error: expected.problems.join('; '), problems: expected.problems });
    expect(expected.problems.length).toBeGreaterThan(2);
  });

  it('2.7 a body that is not JSON, or no body, is 400 {"error"}', async () => {
    expect((await generate(undefined, { raw: '{"deploymentId":' })).status).toBe(400);
    const empty = await generate(undefined, { raw: '' });
    expect(empty.status).toBe(400);
    expect(empty.body['problems']).toEqual([expect.stringContaining('must be an object')]);
  });

  it('4.2 rule 5: duplicate names in userAttributes are 400', async () => {
    const answer = await generate({
      deploymentId: 1,
      externalId: 'dup-user',
      userAttributes: [
        { name: 'region', value: 'NA' },
        { name: 'region', value: 'EMEA' },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining('more than once'));
    expect(externalUser('dup-user')).toBeUndefined();
  });

  it('4.2 rule 8 / 2.7: fields not allowed with internalId are rejected (400)', async () => {
    for (const extra of [
      { userAttributes: [] },
      { groups: ['sales'] },
      { userProfile: { displayName: 'A' } },
      { securityContext: {} },
      { email: 'a@b.c' },
    ]) {
      const answer = await generate({ deploymentId: 1, internalId: 'ben@acme.test', ...extra });
      expect(answer.status, JSON.stringify(extra)).toBe(400);
      expect(answer.body['error']).toEqual(expect.stringContaining(Object.keys(extra)[0]!));
    }
  });

  it('4.2 rule 3: definitions without creatorMode: true are 400', async () => {
    const answer = await generate({
      deploymentId: 1,
      externalId: 'def-user',
      embedTenantName: 'globex-corp',
      groupDefinitions: [{ name: 'x' }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining('creatorMode'));
  });
});

describe('behaviour 4 / 2 sessions: 32 hex characters, single use, 5 minutes, token 24 h', () => {
  it('behaviour 4: the response is { sessionId } of 32 hex characters, different every time', async () => {
    const answer = await generate({ deploymentId: 1, externalId: 'hex-user' });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['sessionId']);
    expect(answer.body['sessionId']).toMatch(/^[0-9a-f]{32}$/);
    expect(isSessionId(answer.body['sessionId'])).toBe(true);
    const ids = new Set(
      await Promise.all(Array.from({ length: 5 }, () => mint({ deploymentId: 1, externalId: 'hex-user' }))),
    );
    expect(ids.size).toBe(5);
  });

  it('behaviour 2: a session is exchanged once; a second exchange fails as used', async () => {
    const sessionId = await mint({ deploymentId: 1, externalId: 'once-user' });
    const first = await exchangeEmbedSession(emulator.context, sessionId);
    expect(first.ok).toBe(true);
    const second = await exchangeEmbedSession(emulator.context, sessionId);
    expect(second).toEqual({ ok: false, reason: 'used', message: expect.any(String) });
  });

  it('behaviour 2: two concurrent exchanges of one session: exactly one succeeds', async () => {
    const sessionId = await mint({ deploymentId: 1, externalId: 'race-user' });
    const results = await Promise.all([
      exchangeEmbedSession(emulator.context, sessionId),
      exchangeEmbedSession(emulator.context, sessionId),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });

  it('behaviour 2: a session must be exchanged within 5 minutes of the emulator clock', async () => {
    const late = await mint({ deploymentId: 1, externalId: 'late-user' });
    const inTime = await mint({ deploymentId: 1, externalId: 'late-user' });
    clock.advance(EMBED_SESSION_TTL_MS - 1);
    expect((await exchangeEmbedSession(emulator.context, inTime)).ok).toBe(true);
    clock.advance(1);
    expect(await exchangeEmbedSession(emulator.context, late)).toEqual({
      ok: false,
      reason: 'expired',
      message: expect.any(String),
    });
  });

  it('behaviour 2: an unknown session id fails as unknown', async () => {
    expect(await exchangeEmbedSession(emulator.context, '0'.repeat(32))).toEqual({
      ok: false,
      reason: 'unknown',
      message: expect.any(String),
    });
    expect((await exchangeEmbedSession(emulator.context, 'not-a-session')).ok).toBe(false);
  });

  it('behaviour 2: the exchanged token lasts 24 hours', async () => {
    const sessionId = await mint({ deploymentId: 1, externalId: 'token-user' });
    const exchange = await exchangeEmbedSession(emulator.context, sessionId);
    if (!exchange.ok) throw new Error(exchange.message);
    expect(exchange.expiresAt).toBe(clock.now() + EMBED_TOKEN_TTL_MS);
    const verified = verifyEmbedToken(emulator.context, exchange.token);
    expect(verified).toMatchObject({ ok: true, session: { sessionId }, user: { kind: 'external', id: 'token-user' } });
    clock.advance(EMBED_TOKEN_TTL_MS - 1);
    expect(verifyEmbedToken(emulator.context, exchange.token).ok).toBe(true);
    clock.advance(1);
    expect(verifyEmbedToken(emulator.context, exchange.token)).toEqual({
      ok: false,
      reason: 'expired',
      message: expect.any(String),
    });
    expect(verifyEmbedToken(emulator.context, 'not-a-token')).toMatchObject({ ok: false, reason: 'unknown' });
  });

  it('5 rule 8 / 4.2: the token is a deployment JWT the data API accepts, with row-level security from the session user', async () => {
    const sessionId = await mint({
      deploymentId: 1,
      externalId: 'rls-user',
      userAttributes: [{ name: 'region', value: 'EMEA' }],
    });
    const exchange = await exchangeEmbedSession(emulator.context, sessionId);
    if (!exchange.ok) throw new Error(exchange.message);
    expect(exchange.user.attributes).toEqual({ region: 'EMEA' });
    const result = await loadData(emulator, exchange.token, {
      measures: ['orders.count'],
      dimensions: ['orders.region'],
    });
    expect(result.data.map((row) => row['orders.region'])).toEqual(['EMEA']);
  });

  it('2.7 / 4.2 rule 10: the session keeps deploymentId, settings, embedTheme, securityContext, mode and tenantGroups of the request', async () => {
    const sessionId = await mint({
      deploymentId: 2,
      externalId: 'settings-user',
      settings: { showDashboardChat: false, locale: 'de-DE' },
      embedTheme: { primaryColor: '#4E79A7' },
      securityContext: { region: 'APAC' },
      tenantGroups: ['finance'],
    });
    const exchange = await exchangeEmbedSession(emulator.context, sessionId);
    if (!exchange.ok) throw new Error(exchange.message);
    expect(exchange.session).toMatchObject({
      deploymentId: 2,
      creatorMode: false,
      embedTenantName: 'acme',
      settings: { showDashboardChat: false, locale: 'de-DE' },
      embedTheme: { primaryColor: '#4E79A7' },
      securityContext: { region: 'APAC' },
      request: { tenantGroups: ['finance'] },
    });
  });
});

describe('behaviour 4 revoke', () => {
  it('behaviour 4: revoke answers 204 for known and unknown sessions, again and again (idempotent)', async () => {
    const sessionId = await mint({ deploymentId: 1, externalId: 'revoke-user' });
    for (const id of [sessionId, sessionId, '0'.repeat(32), 'whatever']) {
      const answer = await revoke({ sessionId: id });
      expect(answer.status).toBe(204);
      expect(answer.body).toEqual({});
    }
    expect(await exchangeEmbedSession(emulator.context, sessionId)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('behaviour 4: revoking on logout also ends the token already exchanged for the session', async () => {
    const sessionId = await mint({ deploymentId: 1, externalId: 'logout-user' });
    const exchange = await exchangeEmbedSession(emulator.context, sessionId);
    if (!exchange.ok) throw new Error(exchange.message);
    expect(verifyEmbedToken(emulator.context, exchange.token).ok).toBe(true);
    expect((await revoke({ sessionId })).status).toBe(204);
    expect(verifyEmbedToken(emulator.context, exchange.token)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('behaviour 4 / 5: revoke needs an admin Api-Key (401, 403), a sessionId (400), and the key scope of the session (403)', async () => {
    expect((await revoke({ sessionId: 'x' }, { authorization: null })).status).toBe(401);
    expect((await revoke({ sessionId: 'x' }, { authorization: `Api-Key ${PERSONAL_API_KEY}` })).status).toBe(403);
    const missing = await revoke({});
    expect(missing.status).toBe(400);
    expect(missing.body['error']).toEqual(expect.stringContaining('sessionId'));
    const other = await mint({ deploymentId: 2, externalId: 'scope-revoke' });
    expect((await revoke({ sessionId: other }, { authorization: `Api-Key ${SCOPED_ADMIN_API_KEY}` })).status).toBe(403);
    expect(state().embedSessions.get(other)?.revokedAt).toBeUndefined();
  });
});

describe('4.2 rule 1 read-only mode resolves names against the tenant-wide catalog', () => {
  it(`4.2 rule 1 / 7: an unknown attribute name is 400 "${USER_ATTRIBUTES_NOT_FOUND}"`, async () => {
    const answer = await generate({
      deploymentId: 1,
      externalId: 'ro-attr',
      userAttributes: [
        { name: 'region', value: 'NA' },
        { name: 'plan', value: 'gold' },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toBe(USER_ATTRIBUTES_NOT_FOUND);
    expect(answer.body['problems']).toEqual([expect.stringContaining('"plan"')]);
    expect(externalUser('ro-attr')).toBeUndefined();
  });

  it('4.2 rule 1 / 7: unknown group names are 400 "Groups with names <missing> not found"', async () => {
    const answer = await generate({ deploymentId: 1, externalId: 'ro-groups', groups: ['sales', 'nope', 'nada'] });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toBe('Groups with names nope, nada not found');
    expect(externalUser('ro-groups')).toBeUndefined();
  });

  it("4.2 rule 1: an embed tenant's scoped names do not resolve in read-only mode", async () => {
    const answer = await generate({
      deploymentId: 1,
      externalId: 'ro-scoped',
      embedTenantName: 'globex-corp',
      groups: ['globex-analysts'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toBe('Groups with names globex-analysts not found');
    const tenantWide = await generate({
      deploymentId: 1,
      externalId: 'ro-scoped',
      embedTenantName: 'globex-corp',
      groups: ['sales'],
      userAttributes: [{ name: 'is_vip', value: true }],
    });
    expect(tenantWide.status).toBe(200);
    expect(externalUser('ro-scoped', 'globex-corp')?.groups).toEqual(new Set(['sales']));
  });
});

describe('4.2 rule 5 attribute values', () => {
  it('4.2 rule 5: a value must match the attribute type (string, number, boolean, string_array, number_array)', async () => {
    const wrong = [
      { name: 'region', value: 5 },
      { name: 'max_discount', value: '15' },
      { name: 'is_vip', value: 'yes' },
      { name: 'allowed_regions', value: [1, 2] },
      { name: 'allowed_store_ids', value: ['1'] },
    ];
    for (const attribute of wrong) {
      const answer = await generate({ deploymentId: 1, externalId: 'typed-user', userAttributes: [attribute] });
      expect(answer.status, attribute.name).toBe(400);
      expect(answer.body['error']).toEqual(expect.stringContaining(`"${attribute.name}"`));
    }
    expect(externalUser('typed-user')).toBeUndefined();
    const right = await generate({
      deploymentId: 1,
      externalId: 'typed-user',
      userAttributes: [
        { name: 'region', value: 'NA' },
        { name: 'max_discount', value: 15 },
        { name: 'is_vip', value: true },
        { name: 'allowed_regions', value: ['NA', 'EMEA'] },
        { name: 'allowed_store_ids', value: [1, 2] },
      ],
    });
    expect(right.status).toBe(200);
    expect(attributesOf('typed-user')).toEqual({
      region: 'NA',
      max_discount: 15,
      is_vip: true,
      allowed_regions: ['NA', 'EMEA'],
      allowed_store_ids: [1, 2],
    });
  });

  it('4.2 rule 5: values persist per user; later calls overwrite only the names they send; null clears', async () => {
    await mint({
      deploymentId: 1,
      externalId: 'persist-user',
      userAttributes: [
        { name: 'region', value: 'NA' },
        { name: 'max_discount', value: 10 },
      ],
    });
    await mint({ deploymentId: 1, externalId: 'persist-user' });
    expect(attributesOf('persist-user')).toEqual({ region: 'NA', max_discount: 10 });
    await mint({ deploymentId: 1, externalId: 'persist-user', userAttributes: [{ name: 'region', value: 'LATAM' }] });
    expect(attributesOf('persist-user')).toEqual({ region: 'LATAM', max_discount: 10 });
    await mint({
      deploymentId: 1,
      externalId: 'persist-user',
      userAttributes: [{ name: 'max_discount', value: null }],
    });
    expect(attributesOf('persist-user')).toEqual({ region: 'LATAM' });
  });

  it('2.7: externalId is trimmed and lowercased, so both spellings are one user', async () => {
    await mint({
      deploymentId: 1,
      externalId: '  Mixed@Case.Test ',
      userAttributes: [{ name: 'region', value: 'NA' }],
    });
    await mint({
      deploymentId: 1,
      externalId: 'mixed@case.test',
      userAttributes: [{ name: 'max_discount', value: 3 }],
    });
    expect(attributesOf('mixed@case.test')).toEqual({ region: 'NA', max_discount: 3 });
  });
});

describe('4.2 rule 6 groups and rule 7 userProfile', () => {
  const groupsOf = (externalId: string) => [...(externalUser(externalId)?.groups ?? [])].sort();

  it('4.2 rule 6: omitted groups preserve memberships, [] clears them, a list replaces them', async () => {
    await mint({ deploymentId: 1, externalId: 'groups-user', groups: ['sales', 'analysts'] });
    expect(groupsOf('groups-user')).toEqual(['analysts', 'sales']);
    await mint({ deploymentId: 1, externalId: 'groups-user' });
    expect(groupsOf('groups-user')).toEqual(['analysts', 'sales']);
    await mint({ deploymentId: 1, externalId: 'groups-user', groups: ['executives'] });
    expect(groupsOf('groups-user')).toEqual(['executives']);
    await mint({ deploymentId: 1, externalId: 'groups-user', groups: [] });
    expect(groupsOf('groups-user')).toEqual([]);
  });

  it('4.2 rule 7: userProfile is stored per externalId; sent properties overwrite, omitted ones keep', async () => {
    await mint({
      deploymentId: 1,
      externalId: 'profile-user',
      userProfile: { displayName: 'Pat', picture: 'https://cdn.example.com/pat.png' },
    });
    await mint({ deploymentId: 1, externalId: 'profile-user' });
    expect(externalUser('profile-user')?.profile).toEqual({
      displayName: 'Pat',
      picture: 'https://cdn.example.com/pat.png',
    });
    await mint({ deploymentId: 1, externalId: 'profile-user', userProfile: { displayName: 'Patricia' } });
    expect(externalUser('profile-user')?.profile).toEqual({
      displayName: 'Patricia',
      picture: 'https://cdn.example.com/pat.png',
    });
    const exchange = await exchangeEmbedSession(
      emulator.context,
      await mint({ deploymentId: 1, externalId: 'profile-user', email: 'pat@example.com' }),
    );
    expect(exchange).toMatchObject({
      ok: true,
      user: { displayName: 'Patricia', picture: 'https://cdn.example.com/pat.png', email: 'pat@example.com' },
    });
  });
});

describe('4.2 rule 8 internalId', () => {
  it("4.2 rule 8: internalId mints a session for the internal user with that user's own permissions", async () => {
    const sessionId = await mint({ deploymentId: 1, internalId: 'Ben@Acme.test' });
    const exchange = await exchangeEmbedSession(emulator.context, sessionId);
    expect(exchange).toMatchObject({
      ok: true,
      user: { kind: 'internal', id: 'ben@acme.test', role: 'editor', attributes: { region: 'EMEA' } },
    });
    if (!exchange.ok) return;
    const result = await loadData(emulator, exchange.token, {
      measures: ['orders.count'],
      dimensions: ['orders.region'],
    });
    expect(result.data.map((row) => row['orders.region'])).toEqual(['EMEA']);
  });

  it('2.7: an internalId that names no existing user is 400 with a clear error', async () => {
    const answer = await generate({ deploymentId: 1, internalId: 'nobody@acme.test' });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining('"nobody@acme.test" not found'));
  });
});

describe('4.2 rules 2-4 creator mode', () => {
  it('4.2 rule 2: creator mode resolves groups and attributes against the embed tenant scoped tables', async () => {
    const ok = await generate({
      deploymentId: 1,
      externalId: 'creator-user',
      embedTenantName: 'globex-corp',
      creatorMode: true,
      groups: ['globex-analysts'],
      userAttributes: [{ name: 'region', value: 'EMEA' }],
    });
    expect(ok.status).toBe(200);
    expect(externalUser('creator-user', 'globex-corp')).toMatchObject({
      groups: new Set(['globex-analysts']),
      attributes: new Map([['region', 'EMEA']]),
    });
    const tenantWideGroup = await generate({
      deploymentId: 1,
      externalId: 'creator-user',
      embedTenantName: 'globex-corp',
      creatorMode: true,
      groups: ['analysts'],
    });
    expect(tenantWideGroup.body['error']).toBe('Groups with names analysts not found');
    const tenantWideAttribute = await generate({
      deploymentId: 1,
      externalId: 'creator-user',
      embedTenantName: 'globex-corp',
      creatorMode: true,
      userAttributes: [{ name: 'max_discount', value: 1 }],
    });
    expect(tenantWideAttribute.body['error']).toBe(USER_ATTRIBUTES_NOT_FOUND);
  });

  it('4.2 rule 2: definitions in the same request are upserted first, then groups and attributes applied; a new embed tenant is created on first use', async () => {
    const answer = await generate({
      deploymentId: 1,
      externalId: 'initech-user',
      embedTenantName: 'initech-ltd',
      creatorMode: true,
      embedTenantProfile: { displayName: 'Initech' },
      groupDefinitions: [{ name: 'tps-reports', description: 'TPS' }],
      userAttributeDefinitions: [
        { name: 'plan', type: 'string', displayName: 'Plan' },
        { name: 'seats', type: 'number' },
      ],
      groups: ['tps-reports'],
      userAttributes: [
        { name: 'plan', value: 'gold' },
        { name: 'seats', value: 12 },
      ],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const tenant = state().embedTenants.get('initech-ltd');
    expect(tenant?.displayName).toBe('Initech');
    expect(tenant?.groups.get('tps-reports')).toMatchObject({ description: 'TPS' });
    expect(tenant?.attributeDefinitions.get('plan')).toMatchObject({ type: 'string', displayName: 'Plan' });
    expect(externalUser('initech-user', 'initech-ltd')).toMatchObject({ groups: new Set(['tps-reports']) });
    expect(attributesOf('initech-user', 'initech-ltd')).toEqual({ plan: 'gold', seats: 12 });
    // Scoped definitions stay in the tenant: the tenant-wide catalog is unchanged.
    expect(state().userAttributes.has('plan')).toBe(false);
    expect(state().groups.has('tps-reports')).toBe(false);
  });

  it('4.2 rule 3: definitions are idempotent; description, displayName, defaultValue update when supplied and different, never cleared', async () => {
    const base = { deploymentId: 1, externalId: 'idem-user', embedTenantName: 'idem-tenant', creatorMode: true };
    await mint({
      ...base,
      groupDefinitions: [{ name: 'team', description: 'First' }],
      userAttributeDefinitions: [
        { name: 'tier', type: 'string', displayName: 'Tier', defaultValue: 'free', description: 'Plan tier' },
      ],
    });
    const tenant = () => state().embedTenants.get('idem-tenant')!;
    const groupId = tenant().groups.get('team')?.id;
    const attributeId = tenant().attributeDefinitions.get('tier')?.id;
    await mint({
      ...base,
      groupDefinitions: [{ name: 'team' }],
      userAttributeDefinitions: [{ name: 'tier', type: 'string' }],
    });
    expect(tenant().groups.size).toBe(1);
    expect(tenant().groups.get('team')).toEqual({ id: groupId, name: 'team', description: 'First' });
    expect(tenant().attributeDefinitions.get('tier')).toEqual({
      id: attributeId,
      name: 'tier',
      type: 'string',
      displayName: 'Tier',
      defaultValue: 'free',
      description: 'Plan tier',
    });
    await mint({
      ...base,
      groupDefinitions: [{ name: 'team', description: 'Second' }],
      userAttributeDefinitions: [{ name: 'tier', type: 'string', displayName: 'Plan', defaultValue: 'pro' }],
    });
    expect(tenant().groups.get('team')).toEqual({ id: groupId, name: 'team', description: 'Second' });
    expect(tenant().attributeDefinitions.get('tier')).toEqual({
      id: attributeId,
      name: 'tier',
      type: 'string',
      displayName: 'Plan',
      defaultValue: 'pro',
      description: 'Plan tier',
    });
  });

  it(`4.2 rule 4 / 7: changing a definition's type fails with "${CANNOT_CHANGE_TYPE}" and nothing is upserted`, async () => {
    const before = state().embedTenants.get('globex-corp')!;
    const groupCount = before.groups.size;
    const answer = await generate({
      deploymentId: 1,
      externalId: 'type-change-user',
      embedTenantName: 'globex-corp',
      creatorMode: true,
      embedTenantProfile: { displayName: 'Renamed' },
      groupDefinitions: [{ name: 'new-group' }],
      userAttributeDefinitions: [
        { name: 'new-attribute', type: 'number' },
        { name: 'region', type: 'number' },
      ],
      groups: ['new-group'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining(CANNOT_CHANGE_TYPE));
    const tenant = state().embedTenants.get('globex-corp')!;
    expect(tenant.groups.size).toBe(groupCount);
    expect(tenant.groups.has('new-group')).toBe(false);
    expect(tenant.attributeDefinitions.has('new-attribute')).toBe(false);
    expect(tenant.attributeDefinitions.get('region')?.type).toBe('string');
    expect(tenant.displayName).toBe('Globex Corporation');
    expect(externalUser('type-change-user', 'globex-corp')).toBeUndefined();
    // A new tenant is not created by a failing request either.
    const fresh = await generate({
      ...{ deploymentId: 1, externalId: 'u', embedTenantName: 'ghost-tenant', creatorMode: true },
      groups: ['missing'],
    });
    expect(fresh.status).toBe(400);
    expect(state().embedTenants.has('ghost-tenant')).toBe(false);
  });

  it('4.2 rule 5: a value must match the type of a scoped definition', async () => {
    const answer = await generate({
      deploymentId: 1,
      externalId: 'scoped-type',
      embedTenantName: 'globex-corp',
      creatorMode: true,
      userAttributes: [{ name: 'region', value: ['NA'] }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toEqual(expect.stringContaining('"region" is of type string'));
  });

  it('4.2 rule 3: creator mode needs the useCreatorMode tenant flag (403 without it)', async () => {
    state().tenantFlags.set('useCreatorMode', false);
    try {
      const answer = await generate({
        deploymentId: 1,
        externalId: 'flag-user',
        embedTenantName: 'globex-corp',
        creatorMode: true,
      });
      expect(answer.status).toBe(403);
      expect(answer.body['error']).toEqual(expect.stringContaining('useCreatorMode'));
    } finally {
      state().tenantFlags.set('useCreatorMode', true);
    }
    expect(
      (await generate({ deploymentId: 1, externalId: 'flag-user', embedTenantName: 'globex-corp', creatorMode: true }))
        .status,
    ).toBe(200);
  });
});

describe('2.7 embedTenantName', () => {
  it('2.7: embedTenantName defaults to the current tenant (the account); a named tenant is created on first use', async () => {
    const sessionId = await mint({ deploymentId: 1, externalId: 'default-tenant-user' });
    expect(state().embedSessions.get(sessionId)?.embedTenantName).toBe('acme');
    expect(externalUser('default-tenant-user', 'acme')).toBeDefined();
    expect(state().embedTenants.has('acme')).toBe(false);
    expect(state().embedTenants.has('umbrella-co')).toBe(false);
    await mint({ deploymentId: 1, externalId: 'default-tenant-user', embedTenantName: 'umbrella-co' });
    expect(state().embedTenants.has('umbrella-co')).toBe(true);
    expect(externalUser('default-tenant-user', 'umbrella-co')).toBeDefined();
  });
});

describe('8 external user limit', () => {
  it('8: at 10,000 external users a new user is refused (403) while existing users still get sessions', async () => {
    const users = state().externalUsers;
    const added: string[] = [];
    for (let index = 0; users.size < MAX_EXTERNAL_USERS; index += 1) {
      const key = externalUserKey('acme', `filler-${index}`);
      if (users.has(key)) continue;
      added.push(key);
      users.set(key, {
        id: 900_000 + index,
        externalId: `filler-${index}`,
        embedTenantName: 'acme',
        profile: {},
        attributes: new Map(),
        groups: new Set(),
        source: 'embed',
        createdAt: 0,
        updatedAt: 0,
      });
    }
    try {
      const refused = await generate({ deploymentId: 1, externalId: 'one-too-many' });
      expect(refused.status).toBe(403);
      expect(refused.body['error']).toEqual(expect.stringContaining('10,000'));
      expect(externalUser('one-too-many')).toBeUndefined();
      expect((await generate({ deploymentId: 1, externalId: 'filler-0' })).status).toBe(200);
      // An ephemeral user past its lifetime no longer counts.
      users.get(added[0]!)!.expiresAt = clock.now();
      expect((await generate({ deploymentId: 1, externalId: 'one-too-many' })).status).toBe(200);
    } finally {
      for (const key of added) users.delete(key);
    }
  });
});
