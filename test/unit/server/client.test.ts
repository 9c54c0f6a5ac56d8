// @vitest-environment node
/**
 * createServiceClient against the emulator through real sockets (and, for answers the emulator
 * never gives, small scripted `node:http` servers): validation before sending, error mapping,
 * retries, the 409 upsert retry, pagination, the embed-tenant operations, auth headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_API_KEY, GLOBEX, PERSONAL_API_KEY, SCOPED_ADMIN_API_KEY } from '../../../src/emulator';
import {
  ConnectionLostError,
  ServiceAbortError,
  ServiceConfigError,
  ServiceHttpError,
  ServiceValidationError,
  createServiceClient,
  type ServiceClientOptions,
} from '../../../src/server';
import { useEmulator } from '../../helpers/emulator';
import { caught, closedPort, recordingFetch, sendJson, startScriptedServer, type ScriptedServer } from './helpers';

const emulator = useEmulator({ port: 0 });

/** A client of the emulator with fast retries, recording what it sends. */
function clientOf(options: Partial<ServiceClientOptions> = {}, onResponse?: Parameters<typeof recordingFetch>[0]) {
  const recorder = recordingFetch(onResponse);
  const client = createServiceClient({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    fetch: recorder.fetch,
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
  return { client, seen: recorder.seen };
}

async function control(path: string, method: string, body?: unknown): Promise<Response> {
  return fetch(`${emulator.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe('options', () => {
  it('5 rule 1: refuses a base URL that is not https, except http on loopback', () => {
    expect(() => createServiceClient({ baseUrl: 'http://acme.example.com', apiKey: 'k' })).toThrow(ServiceConfigError);
    expect(() => createServiceClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrow(/baseUrl/);
    expect(() => createServiceClient({ baseUrl: 'https://acme.example.com/', apiKey: 'k' })).not.toThrow();
    expect(() => createServiceClient({ baseUrl: 'http://127.0.0.1:4010', apiKey: 'k' })).not.toThrow();
    expect(() => createServiceClient({ baseUrl: 'http://localhost:4010', apiKey: 'k' })).not.toThrow();
  });

  it('refuses a missing API key and bad retry options, never naming the key', () => {
    expect(() => createServiceClient({ baseUrl: 'https://acme.example.com', apiKey: ' ' })).toThrow(/apiKey/);
    let thrown: unknown;
    try {
      createServiceClient({ baseUrl: 'http//x', apiKey: 'secret key value' });
    } catch (error) {
      thrown = error;
    }
    expect(ServiceConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/apiKey/);
    expect((thrown as Error).message).not.toContain('secret key value');
    expect(() => createServiceClient({ baseUrl: 'https://a.example', apiKey: 'k', retry: { retries: -1 } })).toThrow(
      /retries/,
    );
  });
});

describe('generateSession (2.7, 4.2)', () => {
  it('4.2: answers a sessionId of 32 hex characters; externalId is trimmed and lowercased (2.7)', async () => {
    const { client, seen } = clientOf();
    const { sessionId } = await client.generateSession({
      deploymentId: 1,
      externalId: '  Zed@Globex.TEST ',
      embedTenantName: GLOBEX.name,
    });
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(seen[0]!.body!)).toMatchObject({ externalId: 'zed@globex.test' });
    const users = await client.listEmbedTenantUsers(GLOBEX.name).toArray();
    expect(users.map((user) => user.externalId)).toContain('zed@globex.test');
  });

  it.each([
    [{ deploymentId: 1, externalId: 'a', internalId: 'ada@acme.test' }, 'externalId and internalId: give exactly one'],
    [{ deploymentId: 1 }, 'externalId and internalId: give exactly one'],
    [{ externalId: 'a' }, 'deploymentId: is required'],
    [{ deploymentId: 1, externalId: 'a', embedTenantName: 'ab' }, 'embedTenantName: 5 to 36 characters'],
    [{ deploymentId: 1, internalId: 'ada@acme.test', groups: ['sales'] }, 'groups: not allowed with internalId'],
    [
      { deploymentId: 1, externalId: 'a', groupDefinitions: [{ name: 'g' }] },
      'groupDefinitions: needs creatorMode: true',
    ],
    [
      { deploymentId: 1, externalId: 'a', userProfile: { picture: 'ftp://x/y.png' } },
      'userProfile.picture: must be an absolute http://',
    ],
    [
      {
        deploymentId: 1,
        externalId: 'a',
        userAttributes: [
          { name: 'region', value: 'NA' },
          { name: 'region', value: 'EU' },
        ],
      },
      'userAttributes[1].name: "region" is given more than once',
    ],
  ])('2.7: rejects %j before sending anything', async (request, problem) => {
    const { client, seen } = clientOf();
    const error = await caught(() => client.generateSession(request as never));
    expect(ServiceValidationError.isInstance(error)).toBe(true);
    expect((error as ServiceValidationError).problems.some((p) => p.startsWith(problem))).toBe(true);
    expect(seen).toHaveLength(0);
  });

  it('4.2, 7: maps a refused key to 401 `unauthorized` with the service message', async () => {
    const { client } = clientOf({ apiKey: 'svc_admin_acme_nope_0000' });
    const error = await caught(() => client.generateSession({ deploymentId: 1, externalId: 'ann' }));
    expect(ServiceHttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', serviceMessage: 'Invalid API key' });
    expect(String((error as Error).message)).not.toContain('svc_admin_acme_nope_0000');
  });

  it('4.2 rule 9, 5 rule 2: a key scoped to deployment 1 gets 403 `forbidden` for deployment 2', async () => {
    const { client } = clientOf({ apiKey: SCOPED_ADMIN_API_KEY });
    const error = await caught(() => client.generateSession({ deploymentId: 2, externalId: 'ann' }));
    expect(error).toMatchObject({ status: 403, code: 'forbidden' });
    await expect(client.generateSession({ deploymentId: 1, externalId: 'ann' })).resolves.toHaveProperty('sessionId');
  });

  it('behaviour 4: a personal (non-admin) key gets 403', async () => {
    const { client } = clientOf({ apiKey: PERSONAL_API_KEY });
    await expect(client.generateSession({ deploymentId: 1, externalId: 'ann' })).rejects.toMatchObject({ status: 403 });
  });

  it('4.2 rule 5, 7: the service answers duplicate attribute names with 400 `bad_request` (sent raw, past the validator)', async () => {
    const { client } = clientOf();
    const error = await caught(() =>
      client.request({
        method: 'POST',
        path: '/api/v1/embed/generate-session',
        scheme: 'Api-Key',
        body: {
          deploymentId: 1,
          externalId: 'ann',
          userAttributes: [
            { name: 'region', value: 'NA' },
            { name: 'region', value: 'EU' },
          ],
        },
      }),
    );
    expect(error).toMatchObject({ status: 400, code: 'bad_request' });
    expect((error as ServiceHttpError).serviceMessage).toContain('region');
  });

  it('4.2 rule 1, 7: an unknown attribute name is `user_attributes_not_found`', async () => {
    const { client } = clientOf();
    const error = await caught(() =>
      client.generateSession({
        deploymentId: 1,
        externalId: 'ann',
        userAttributes: [{ name: 'shoe_size', value: '42' }],
      }),
    );
    expect(ServiceHttpError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'user_attributes_not_found' });
    expect((error as ServiceHttpError).serviceMessage).toContain('User attributes not found');
  });

  it('4.2 rule 1, 7: unknown group names are `groups_not_found`, naming them', async () => {
    const { client } = clientOf();
    const error = await caught(() =>
      client.generateSession({ deploymentId: 1, externalId: 'ann', groups: ['sales', 'astronauts'] }),
    );
    expect(error).toMatchObject({ status: 400, code: 'groups_not_found' });
    expect((error as ServiceHttpError).serviceMessage).toMatch(/^Groups with names .*astronauts.* not found$/);
  });

  it('4.2 rule 4, 7: changing the type of an attribute definition is `cannot_change_type`', async () => {
    const { client } = clientOf();
    const error = await caught(() =>
      client.generateSession({
        deploymentId: 1,
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: GLOBEX.name,
        userAttributeDefinitions: [{ name: 'region', type: 'number' }],
      }),
    );
    expect(error).toMatchObject({ status: 400, code: 'cannot_change_type' });
    expect((error as ServiceHttpError).serviceMessage).toContain('cannot change type');
  });

  it('is never retried: a 5xx or a network failure of generate-session is thrown after one try', async () => {
    const failing = await startScriptedServer((_request, res) => sendJson(res, 503, { error: 'Down for maintenance' }));
    try {
      const client = createServiceClient({ baseUrl: failing.url, apiKey: 'k', retry: { retries: 3, baseDelayMs: 1 } });
      await expect(client.generateSession({ deploymentId: 1, externalId: 'ann' })).rejects.toMatchObject({
        status: 503,
        code: 'server_error',
        serviceMessage: 'Down for maintenance',
      });
      expect(failing.received).toHaveLength(1);
    } finally {
      await failing.close();
    }
    const port = await closedPort();
    const unreachable = createServiceClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'k',
      retry: { retries: 3, baseDelayMs: 1 },
    });
    const error = await caught(() => unreachable.generateSession({ deploymentId: 1, externalId: 'ann' }));
    expect(ConnectionLostError.isInstance(error)).toBe(true);
    expect((error as ConnectionLostError).attempts).toBe(1);
  });

  it('behaviour 4: revokeSession answers for known and unknown sessions alike', async () => {
    const { client, seen } = clientOf();
    const { sessionId } = await client.generateSession({ deploymentId: 1, externalId: 'ann' });
    await expect(client.revokeSession(sessionId)).resolves.toBeUndefined();
    await expect(client.revokeSession(sessionId)).resolves.toBeUndefined();
    await expect(client.revokeSession('0'.repeat(32))).resolves.toBeUndefined();
    expect(emulator.context.state.embedSessions.get(sessionId)?.revokedAt).toBeDefined();
    expect(seen.filter((r) => r.url.endsWith('/api/v1/embed/session/revoke'))).toHaveLength(3);
  });
});

describe('retries of idempotent requests', () => {
  let flaky: ScriptedServer;
  let failuresLeft = 0;

  beforeAll(async () => {
    flaky = await startScriptedServer((_request, res) => {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        sendJson(res, 502, { error: 'Bad gateway' });
      } else sendJson(res, 200, { items: [{ id: 1, name: 'Prod' }] });
    });
  });
  afterAll(() => flaky.close());

  it('a GET that meets 5xx is retried and then succeeds', async () => {
    failuresLeft = 2;
    flaky.received.length = 0;
    const client = createServiceClient({ baseUrl: flaky.url, apiKey: 'k', retry: { retries: 2, baseDelayMs: 1 } });
    await expect(client.listDeployments().toArray()).resolves.toEqual([{ id: 1, name: 'Prod' }]);
    expect(flaky.received).toHaveLength(3);
  });

  it('gives up after `retry.retries` and throws the last 5xx; `retry: false` tries once', async () => {
    failuresLeft = 10;
    flaky.received.length = 0;
    const client = createServiceClient({ baseUrl: flaky.url, apiKey: 'k', retry: { retries: 2, baseDelayMs: 1 } });
    await expect(client.listDeployments().toArray()).rejects.toMatchObject({
      status: 502,
      serviceMessage: 'Bad gateway',
    });
    expect(flaky.received).toHaveLength(3);
    flaky.received.length = 0;
    const once = createServiceClient({ baseUrl: flaky.url, apiKey: 'k', retry: false });
    await expect(once.listDeployments().toArray()).rejects.toMatchObject({ status: 502 });
    expect(flaky.received).toHaveLength(1);
  });

  it('a POST that creates something (a group) meets 5xx once and is not resent', async () => {
    failuresLeft = 1;
    flaky.received.length = 0;
    const client = createServiceClient({ baseUrl: flaky.url, apiKey: 'k', retry: { retries: 2, baseDelayMs: 1 } });
    await expect(client.createEmbedTenantGroup(GLOBEX.name, { name: 'x' })).rejects.toMatchObject({ status: 502 });
    expect(flaky.received).toHaveLength(1);
  });

  it('network failures of a GET are retried, then reported as ConnectionLostError with the number of tries', async () => {
    const port = await closedPort();
    const { fetch: recording, seen } = recordingFetch();
    const client = createServiceClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'k',
      fetch: recording,
      retry: { retries: 2, baseDelayMs: 1 },
    });
    const error = await caught(() => client.listDeployments().toArray());
    expect(ConnectionLostError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'connection_lost', attempts: 3 });
    expect(seen).toHaveLength(3);
  });

  it('an abort during the wait between retries rejects at once with ServiceAbortError', async () => {
    failuresLeft = 10;
    const controller = new AbortController();
    const client = createServiceClient({
      baseUrl: flaky.url,
      apiKey: 'k',
      retry: { retries: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        // The first failure is in: the client now waits a minute before its retry.
        queueMicrotask(() => controller.abort());
        return response;
      },
    });
    const error = await caught(() => client.listDeployments({ signal: controller.signal }).toArray());
    expect(ServiceAbortError.isInstance(error)).toBe(true);
  });
});

describe('upsertWorkbookBySlug (3, 4.1)', () => {
  it('4.1 rules 1–3: normalises the slug, creates, then updates only the fields sent', async () => {
    const { client, seen } = clientOf();
    const created = await client.upsertWorkbookBySlug(1, '  Q3-Review ', { name: 'Q3 review', meta: { owner: 'ada' } });
    expect(created).toMatchObject({ slug: 'q3-review', name: 'Q3 review', deploymentId: 1, type: 'WORKBOOK' });
    expect(new URL(seen[0]!.url).pathname).toBe('/api/v1/deployments/1/workbooks/by-slug/q3-review');
    expect(seen[0]!.method).toBe('PUT');
    const updated = await client.upsertWorkbookBySlug(1, 'q3-review', { meta: { quarter: 3 } });
    expect(updated.id).toBe(created.id);
    expect(updated.name).toBe('Q3 review');
    expect(updated.meta).toMatchObject({ owner: 'ada', quarter: 3 });
    // The body is optional (2.2): re-applying nothing is a no-op (rule 4).
    const again = await client.upsertWorkbookBySlug(1, 'Q3-REVIEW');
    expect(again).toMatchObject({ id: created.id, updatedAt: updated.updatedAt });
  });

  it('2.2: an invalid body or an empty slug is refused before sending', async () => {
    const { client, seen } = clientOf();
    const error = await caught(() => client.upsertWorkbookBySlug(1, '   ', { name: 5 } as never));
    expect(ServiceValidationError.isInstance(error)).toBe(true);
    expect((error as ServiceValidationError).problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^slug: /), expect.stringMatching(/^name: /)]),
    );
    expect(seen).toHaveLength(0);
  });

  it('4.1 rule 8, 7: a deployment that does not exist is a 404', async () => {
    const { client } = clientOf();
    await expect(client.upsertWorkbookBySlug(99, 'x')).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('3, 4.1 rule 7: retries 409 upsert_branch_changed and succeeds after N conflicts', async () => {
    const answers: number[] = [];
    const { client, seen } = clientOf({}, (_request, response) => answers.push(response.status));
    const injected = await control('/__emulator/upsert-conflicts', 'POST', {
      deploymentId: 1,
      slug: 'Race-Slug',
      times: 2,
    });
    expect(injected.status).toBe(200);
    const workbook = await client.upsertWorkbookBySlug(1, 'race-slug', { name: 'Race' }, { attempts: 5 });
    expect(workbook.slug).toBe('race-slug');
    expect(answers).toEqual([409, 409, 200]);
    expect(seen.every((request) => request.method === 'PUT')).toBe(true);
  });

  it('3: gives up after `attempts` tries and throws the last 409 with its code', async () => {
    const { client, seen } = clientOf();
    await control('/__emulator/upsert-conflicts', 'POST', { deploymentId: 1, slug: 'always-racing', times: 10 });
    try {
      const error = await caught(() => client.upsertWorkbookBySlug(1, 'always-racing', undefined, { attempts: 3 }));
      expect(ServiceHttpError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ status: 409, code: 'upsert_branch_changed' });
      expect(seen).toHaveLength(3);
      seen.length = 0;
      await expect(client.upsertWorkbookBySlug(1, 'always-racing', undefined, { attempts: 1 })).rejects.toMatchObject({
        status: 409,
      });
      expect(seen).toHaveLength(1);
    } finally {
      await control('/__emulator/upsert-conflicts', 'DELETE');
    }
  });

  it('3: an abort while waiting to retry a conflict rejects with ServiceAbortError', async () => {
    const controller = new AbortController();
    const { client } = clientOf({ retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 } }, (_request, response) => {
      if (response.status === 409) queueMicrotask(() => controller.abort());
    });
    await control('/__emulator/upsert-conflicts', 'POST', { deploymentId: 1, slug: 'aborted-race', times: 10 });
    try {
      const error = await caught(() =>
        client.upsertWorkbookBySlug(1, 'aborted-race', undefined, { signal: controller.signal }),
      );
      expect(ServiceAbortError.isInstance(error)).toBe(true);
    } finally {
      await control('/__emulator/upsert-conflicts', 'DELETE');
    }
  });

  it('7: another 409, and other 4xx, are not retried', async () => {
    const conflicting = await startScriptedServer((request, res) =>
      request.path.includes('other-conflict')
        ? sendJson(res, 409, { error: 'Slug is reserved', code: 'slug_reserved' })
        : sendJson(res, 409, { error: 'Conflict' }),
    );
    try {
      const client = createServiceClient({ baseUrl: conflicting.url, apiKey: 'k', retry: { baseDelayMs: 1 } });
      await expect(client.upsertWorkbookBySlug(1, 'other-conflict')).rejects.toMatchObject({
        status: 409,
        code: 'slug_reserved',
      });
      await expect(client.upsertWorkbookBySlug(1, 'plain')).rejects.toMatchObject({ status: 409, code: 'conflict' });
      expect(conflicting.received).toHaveLength(2);
    } finally {
      await conflicting.close();
    }
    const { client, seen } = clientOf({ apiKey: 'svc_unknown_key_0000' });
    await expect(client.upsertWorkbookBySlug(1, 'x')).rejects.toMatchObject({ status: 401 });
    expect(seen).toHaveLength(1);
  });
});

describe('lists (4.3, 4.6, behaviour 4)', () => {
  it('follows pageInfo cursors across pages of one item each', async () => {
    const { client, seen } = clientOf();
    const all = await client.listWorkbooks(1, { first: 100 }).toArray();
    expect(all.length).toBeGreaterThanOrEqual(4);
    seen.length = 0;
    const paged = [];
    for await (const workbook of client.listWorkbooks(1, { first: 1 })) paged.push(workbook);
    expect(paged.map((w) => w.id)).toEqual(all.map((w) => w.id));
    expect(seen.length).toBeGreaterThanOrEqual(all.length);
    const afters = seen.map((request) => new URL(request.url).searchParams.get('after'));
    expect(afters[0]).toBeNull();
    expect(new Set(afters.slice(1)).size).toBe(afters.length - 1);
    for (const request of seen) expect(new URL(request.url).searchParams.get('first')).toBe('1');
  });

  it('pages() yields the pages as answered, with their pageInfo', async () => {
    const { client } = clientOf();
    const pages = [];
    for await (const page of client.listFolders(1, { first: 3 }).pages()) pages.push(page);
    expect(pages.length).toBe(2);
    expect(pages[0]!.items).toHaveLength(3);
    expect(pages[0]!.pageInfo?.hasNextPage).toBe(true);
    expect(pages.at(-1)!.pageInfo?.hasNextPage).toBe(false);
  });

  it('4.6: reports take sortBy and search; paging works with them', async () => {
    const { client, seen } = clientOf();
    const byName = await client.listReports(1, { sortBy: 'name', first: 1 }).toArray();
    expect(byName.map((report) => report.name)).toEqual(['Orders by status', 'Revenue by month', 'Top customers']);
    expect(new URL(seen[0]!.url).searchParams.get('sortBy')).toBe('name');
    const found = await client.listReports(1, { search: 'revenue' }).toArray();
    expect(found.map((report) => report.id)).toEqual([301]);
  });

  it('4.6: the deployments list is `items` without pageInfo, read as one page', async () => {
    const { client, seen } = clientOf();
    const deployments = await client.listDeployments().toArray();
    expect(deployments.map((d) => d.id)).toEqual([1, 2]);
    expect(seen).toHaveLength(1);
    const scoped = await clientOf({ apiKey: SCOPED_ADMIN_API_KEY }).client.listDeployments().toArray();
    expect(scoped.map((d) => d.id)).toEqual([1]);
  });

  it('9: reads the deprecated `data` where `items` is absent, and stops on a repeated cursor', async () => {
    const legacy = await startScriptedServer((request, res) => {
      const after = new URL(request.path, 'http://x').searchParams.get('after');
      if (request.path.startsWith('/api/v1/deployments/1/folders')) {
        if (after === null)
          sendJson(res, 200, {
            data: [{ id: 1, name: 'A' }],
            count: 1,
            pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: 'c0', endCursor: 'c1' },
          });
        else
          sendJson(res, 200, {
            data: [{ id: 2, name: 'B' }],
            count: 1,
            pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: 'c1', endCursor: 'c2' },
          });
      } else
        sendJson(res, 200, {
          items: [{ id: 9, name: 'loop' }],
          pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: 'same', endCursor: 'same' },
        });
    });
    try {
      const client = createServiceClient({ baseUrl: legacy.url, apiKey: 'k' });
      await expect(client.listFolders(1).toArray()).resolves.toEqual([
        { id: 1, name: 'A' },
        { id: 2, name: 'B' },
      ]);
      const error = await caught(() => client.listWorkbooks(1).toArray());
      expect(error).toMatchObject({ code: 'invalid_response' });
      expect(legacy.received.filter((r) => r.path.includes('/workbooks'))).toHaveLength(2);
    } finally {
      await legacy.close();
    }
  });

  it('rejects a bad argument when iteration starts, without a request', async () => {
    const { client, seen } = clientOf();
    await expect(client.listWorkbooks(0).toArray()).rejects.toBeInstanceOf(ServiceValidationError);
    await expect(client.listFolders(1, { first: 0 }).toArray()).rejects.toBeInstanceOf(ServiceValidationError);
    expect(seen).toHaveLength(0);
  });
});

describe('embed tenants (4.3)', () => {
  it('lists embed tenants and their users', async () => {
    const { client } = clientOf();
    const tenants = await client.listEmbedTenants({ first: 1 }).toArray();
    expect(tenants.map((tenant) => tenant.name)).toContain(GLOBEX.name);
    const users = await client.listEmbedTenantUsers(GLOBEX.name).toArray();
    expect(users.map((user) => user.externalId)).toContain('dana@globex.test');
  });

  it('creates, reads, updates and deletes a group; adds and removes members by externalId and embedUserId', async () => {
    const { client, seen } = clientOf();
    const group = await client.createEmbedTenantGroup(GLOBEX.name, { name: 'globex-finance', description: 'Finance' });
    expect(group).toMatchObject({ name: 'globex-finance', description: 'Finance' });
    await expect(client.getEmbedTenantGroup(GLOBEX.name, group.id)).resolves.toMatchObject({ id: group.id });
    await expect(client.updateEmbedTenantGroup(GLOBEX.name, group.id, { description: 'Money' })).resolves.toMatchObject(
      {
        name: 'globex-finance',
        description: 'Money',
      },
    );
    const groups = await client.listEmbedTenantGroups(GLOBEX.name).toArray();
    expect(groups.map((g) => g.name)).toEqual(expect.arrayContaining(['globex-analysts', 'globex-finance']));

    await client.addEmbedTenantGroupMember(GLOBEX.name, group.id, { externalId: ' Dana@Globex.test ' });
    let members = await client.listEmbedTenantGroupMembers(GLOBEX.name, group.id).toArray();
    expect(members.map((member) => member.externalId)).toEqual(['dana@globex.test']);
    await client.removeEmbedTenantGroupMember(GLOBEX.name, group.id, { embedUserId: members[0]!.id });
    members = await client.listEmbedTenantGroupMembers(GLOBEX.name, group.id).toArray();
    expect(members).toEqual([]);
    await client.addEmbedTenantGroupMember(GLOBEX.name, group.id, {
      embedUserId: (await client.listEmbedTenantUsers(GLOBEX.name).toArray())[0]!.id,
    });
    expect(await client.listEmbedTenantGroupMembers(GLOBEX.name, group.id).toArray()).toHaveLength(1);
    await client.removeEmbedTenantGroupMember(GLOBEX.name, group.id, { externalId: 'dana@globex.test' });
    expect(await client.listEmbedTenantGroupMembers(GLOBEX.name, group.id).toArray()).toEqual([]);

    await client.deleteEmbedTenantGroup(GLOBEX.name, group.id);
    await expect(client.getEmbedTenantGroup(GLOBEX.name, group.id)).rejects.toMatchObject({ status: 404 });
    const removal = seen.find((request) => request.method === 'DELETE' && request.url.endsWith('/users'));
    expect(JSON.parse(removal!.body!)).toEqual({ embedUserId: expect.any(Number) });
  });

  it('refuses a member that is neither or both of externalId and embedUserId, unsent', async () => {
    const { client, seen } = clientOf();
    for (const member of [{}, { externalId: 'a', embedUserId: 1 }, { embedUserId: 0 }]) {
      await expect(client.addEmbedTenantGroupMember(GLOBEX.name, 1, member as never)).rejects.toBeInstanceOf(
        ServiceValidationError,
      );
    }
    expect(seen).toHaveLength(0);
  });

  it('deletes an embed tenant (no trailing slash, 0.3.0)', async () => {
    const { client, seen } = clientOf();
    await client.generateSession({ deploymentId: 1, externalId: 'wanda', embedTenantName: 'initech-co' });
    expect((await client.listEmbedTenants().toArray()).map((t) => t.name)).toContain('initech-co');
    await client.deleteEmbedTenant('initech-co');
    expect(new URL(seen.find((r) => r.method === 'DELETE')!.url).pathname).toBe('/api/v1/embed-tenants/initech-co');
    expect((await client.listEmbedTenants().toArray()).map((t) => t.name)).not.toContain('initech-co');
    await expect(client.deleteEmbedTenant('initech-co')).rejects.toMatchObject({ status: 404 });
  });
});

describe('embedding switches (4.6)', () => {
  it('setDashboardEmbedding enables and disables signed embedding of a dashboard', async () => {
    const { client } = clientOf();
    await expect(client.setDashboardEmbedding('internal-finance', true)).resolves.toMatchObject({
      publicId: 'internal-finance',
      allowEmbed: true,
    });
    await expect(client.setDashboardEmbedding('internal-finance', false)).resolves.toMatchObject({ allowEmbed: false });
    await expect(
      clientOf({ apiKey: PERSONAL_API_KEY }).client.setDashboardEmbedding('internal-finance', true),
    ).rejects.toMatchObject({ status: 403 });
    await expect(client.setDashboardEmbedding('no-such-dashboard', true)).rejects.toMatchObject({ status: 404 });
  });

  it('gets and sets the embed access of a workbook', async () => {
    const { client } = clientOf();
    const before = await client.getWorkbookEmbedAccess(1, 101);
    expect(before).toMatchObject({ allEmbedUsers: 'none' });
    const after = await client.setWorkbookEmbedAccess(1, 101, { action: 'read', embedTenantName: GLOBEX.name });
    expect(after).toMatchObject({ embedTenants: [{ embedTenantName: GLOBEX.name, action: 'read' }] });
    await expect(client.getWorkbookEmbedAccess(1, 101)).resolves.toEqual(after);
    await expect(client.setWorkbookEmbedAccess(1, 101, { action: 'all' } as never)).rejects.toBeInstanceOf(
      ServiceValidationError,
    );
  });
});

describe('5: auth header per API', () => {
  it('Bearer for the management API, Api-Key for the embed session and embed-tenant APIs', async () => {
    const recorder = await startScriptedServer((request, res) => {
      if (
        request.method === 'DELETE' ||
        request.path.endsWith('/revoke') ||
        (request.method === 'POST' && request.path.endsWith('/users'))
      ) {
        res.writeHead(204).end();
      } else if (request.path.endsWith('/generate-session')) sendJson(res, 200, { sessionId: 'a'.repeat(32) });
      else if (request.path.includes('/by-slug/'))
        sendJson(res, 200, {
          id: 1,
          deploymentId: 1,
          name: 'x',
          type: 'WORKBOOK',
          meta: {},
          calculatedFields: {},
          createdAt: 'x',
          updatedAt: 'x',
        });
      else if (/\/groups(\/\d+)?$/.test(request.path) && request.method !== 'GET')
        sendJson(res, 200, { id: 1, name: 'g' });
      else if (/\/groups\/\d+$/.test(request.path)) sendJson(res, 200, { id: 1, name: 'g' });
      else if (request.path.includes('embed-access') || request.path.includes('/embed/dashboard/'))
        sendJson(res, 200, {});
      else sendJson(res, 200, { items: [] });
    });
    try {
      const key = 'svc_test_key';
      const client = createServiceClient({ baseUrl: recorder.url, apiKey: key });
      await client.generateSession({ deploymentId: 1, externalId: 'a' });
      await client.revokeSession('a'.repeat(32));
      await client.listEmbedTenants().toArray();
      await client.listEmbedTenantUsers('globex-corp').toArray();
      await client.listEmbedTenantGroups('globex-corp').toArray();
      await client.createEmbedTenantGroup('globex-corp', { name: 'g' });
      await client.getEmbedTenantGroup('globex-corp', 1);
      await client.updateEmbedTenantGroup('globex-corp', 1, { name: 'h' });
      await client.listEmbedTenantGroupMembers('globex-corp', 1).toArray();
      await client.addEmbedTenantGroupMember('globex-corp', 1, { externalId: 'a' });
      await client.removeEmbedTenantGroupMember('globex-corp', 1, { externalId: 'a' });
      await client.deleteEmbedTenantGroup('globex-corp', 1);
      await client.deleteEmbedTenant('globex-corp');
      const embedCount = recorder.received.length;
      await client.upsertWorkbookBySlug(1, 's');
      await client.listWorkbooks(1).toArray();
      await client.listFolders(1).toArray();
      await client.listReports(1).toArray();
      await client.listDeployments().toArray();
      await client.setDashboardEmbedding('p', true);
      await client.getWorkbookEmbedAccess(1, 1);
      await client.setWorkbookEmbedAccess(1, 1, { action: 'none' });
      const embed = recorder.received.slice(0, embedCount);
      const management = recorder.received.slice(embedCount);
      expect(embed.length).toBe(13);
      for (const request of embed)
        expect([request.method, request.path, request.headers.authorization]).toEqual([
          request.method,
          request.path,
          `Api-Key ${key}`,
        ]);
      for (const request of management)
        expect([request.method, request.path, request.headers.authorization]).toEqual([
          request.method,
          request.path,
          `Bearer ${key}`,
        ]);
      expect(recorder.received.find((r) => r.path.endsWith('/generate-session'))!.headers['content-type']).toBe(
        'application/json',
      );
    } finally {
      await recorder.close();
    }
  });
});

describe('errors never carry the API key', () => {
  it('in message, serviceMessage or body, even when the service echoes it', async () => {
    const echo = await startScriptedServer((request, res) =>
      sendJson(res, 400, {
        error: `bad header ${request.headers.authorization}`,
        echo: { authorization: request.headers.authorization },
      }),
    );
    try {
      const client = createServiceClient({ baseUrl: echo.url, apiKey: 'svc_echoed_secret' });
      const error = await caught(() => client.listDeployments().toArray());
      expect(ServiceHttpError.isInstance(error)).toBe(true);
      const { message, serviceMessage, body } = error as ServiceHttpError;
      expect(serviceMessage).toBe('bad header Bearer [redacted]');
      expect(JSON.stringify({ message, serviceMessage, body, text: String(error) })).not.toContain('svc_echoed_secret');
    } finally {
      await echo.close();
    }
    const { client } = clientOf();
    const error = await caught(() => client.upsertWorkbookBySlug(99, 'x'));
    expect(JSON.stringify({ message: (error as Error).message, body: (error as ServiceHttpError).body })).not.toContain(
      ADMIN_API_KEY,
    );
  });
});
