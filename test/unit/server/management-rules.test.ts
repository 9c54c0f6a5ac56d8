// @vitest-environment node
/**
 * The interface's rules for the management endpoints, each checked through the typed client
 * against the emulator over real HTTP (and small scripted servers for answers the emulator never
 * gives): inputs refused before sending, 401/403/404 by the kind of key, per-item bulk failures
 * resolved as data, cursor paging with the deprecated `data`/`count` as a fallback, SCIM paging.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN_API_KEY, PERSONAL_API_KEY, SCOPED_ADMIN_API_KEY } from '../../../src/emulator';
import {
  ServiceHttpError,
  ServiceValidationError,
  createServiceClient,
  type BulkUserUpdate,
  type LogListParams,
  type NotificationInput,
  type ServiceClient,
  type ServiceClientOptions,
  type WorkspaceItemRef,
} from '../../../src/server';
import {
  validateBody,
  validateBulkDeleteInput,
  validateBulkUserUpdate,
  validateNotificationInput,
} from '../../../src/core/protocol/management';
import { LogFiltersSchema } from '../../../src/core/protocol/platform';
import { useEmulator } from '../../helpers/emulator';
import { caught, recordingFetch, sendJson, startScriptedServer } from './helpers';

const emulator = useEmulator();

function clientOf(options: Partial<ServiceClientOptions> = {}) {
  const recorder = recordingFetch();
  const client = createServiceClient({
    baseUrl: emulator.url,
    apiKey: ADMIN_API_KEY,
    fetch: recorder.fetch,
    retry: false,
    ...options,
  });
  return { client, seen: recorder.seen };
}

/** The status and code of what `run` threw (`undefined` when it resolved). */
async function failure(run: () => Promise<unknown>): Promise<[number, string] | undefined> {
  const error = await caught(run);
  if (error === undefined) return undefined;
  if (!ServiceHttpError.isInstance(error)) throw error;
  return [error.status, error.code];
}

describe('inputs are checked before sending: a ServiceValidationError naming the rule, nothing sent', () => {
  const cases: [string, (client: ServiceClient) => Promise<unknown>, RegExp][] = [
    [
      'the bulk action enum',
      (c) => c.bulkUpdateUsers({ action: 'SUSPEND' as never, userIds: [2] }),
      /action: must be one of DEACTIVATE, ACTIVATE, DELETE/,
    ],
    ['a bulk action names users', (c) => c.bulkUpdateUsers({ action: 'DELETE', userIds: [] }), /userIds: must name/],
    [
      'the attribute type enum (create)',
      (c) => c.createUserAttribute({ name: 'x', type: 'date' as never }),
      /type: must be one of string, number, boolean, string_array, number_array/,
    ],
    [
      'the attribute type enum (change)',
      (c) => c.updateUserAttribute(1, { type: 'text' as never }),
      /type: must be one of string, number, boolean/,
    ],
    [
      'a notification names its dashboard (neither)',
      (c) => c.createNotification(1, { name: 'x' } as never),
      /dashboardId: give exactly one of dashboardId or dashboardPublicId/,
    ],
    [
      'a notification names its dashboard one way only (both)',
      (c) => c.createNotification(1, { dashboardId: 201, dashboardPublicId: 'sales-overview' } as never),
      /give exactly one of dashboardId or dashboardPublicId/,
    ],
    [
      'a notification change names at most one dashboard',
      (c) => c.updateNotification(1, 401, { dashboardId: 201, dashboardPublicId: 'sales-overview' }),
      /at most one of dashboardId or dashboardPublicId/,
    ],
    [
      'recipientEmbedTenantName goes with recipientExternalId',
      (c) => c.listNotifications(1, { recipientEmbedTenantName: 'globex-corp' }).toArray(),
      /recipientExternalId: recipientEmbedTenantName and recipientExternalId go together/,
    ],
    [
      'the sortBy values',
      (c) => c.listReports(1, { sortBy: 'size' as never }).toArray(),
      /sortBy: must be one of name, createdAt, updatedAt, lastViewedAt/,
    ],
    [
      'no cursor paging with lastViewedAt',
      (c) => c.listReports(1, { sortBy: 'lastViewedAt', after: 'cursor' }).toArray(),
      /after: cursor paging is unavailable with sortBy lastViewedAt/,
    ],
    [
      'the workspace item types',
      (c) => c.bulkDeleteWorkspaceItems(1, [{ type: 'DASHBOARD' as never, id: 201 }]),
      /items\[0\]\.type: must be one of FOLDER, WORKBOOK, REPORT/,
    ],
    ['a bulk move names items', (c) => c.bulkMoveWorkspaceItems(1, [], null), /items: must name at least one item/],
    [
      'the logs source enum',
      (c) => c.listLogs(1, { source: 'staging' as never }).toArray(),
      /source: must be one of production, dev/,
    ],
    [
      'the deploy mode enum',
      (c) => c.createDeployment({ name: 'x', deployMode: 'ftp' as never }),
      /deployMode: must be one of git, cli/,
    ],
    ["transform-sync's branchName", (c) => c.startTransformSync(1, {} as never), /branchName: is required/],
    [
      'data-model paths stay inside the model',
      (c) => c.writeDataModelFiles(1, { branchName: 'dev-1', files: [{ path: '../secrets.yml', content: '' }] }),
      /files\[0\]\.path: must not contain empty, "\." or "\.\." parts/,
    ],
    [
      'the embed access action enum',
      (c) => c.setWorkbookEmbedAccess(1, 101, { action: 'write' as never }),
      /action: must be one of read, none/,
    ],
    [
      'each attribute once per values upsert',
      (c) =>
        c.upsertUserAttributeValues(2, [
          { name: 'region', value: 'NA' },
          { name: 'region', value: 'EMEA' },
        ]),
      /values: must name each attribute once/,
    ],
    [
      'each env var once',
      (c) =>
        c.setEnvVars(1, [
          { name: 'A', value: '1' },
          { name: 'A', value: null },
        ]),
      /once/,
    ],
    [
      'connect-workbook names the external workbook',
      (c) => c.connectReportWorkbook(1, 301, {} as never),
      /externalWorkbookId: is required/,
    ],
    [
      'ai-widget-thread names the widget',
      (c) => c.setAiWidgetThread(1, 101, { threadId: 't' } as never),
      /widgetId: is required/,
    ],
    [
      'SCIM startIndex is 1-based',
      (c) => c.scimListUsers({ startIndex: 0 }).toArray(),
      /startIndex: must be a whole number of 1 or more/,
    ],
    ['SCIM count is not negative', (c) => c.scimListGroups({ count: -1 }).toArray(), /count: must be a whole number/],
    ['a SCIM user has a userName', (c) => c.scimCreateUser({} as never), /userName: is required/],
    ['a SCIM group has a displayName', (c) => c.scimCreateGroup({ displayName: ' ' }), /displayName: must be/],
    [
      'SCIM PATCH operations are add, remove or replace',
      (c) => c.scimPatchUser('1', { Operations: [{ op: 'move' }] }),
      /Operations\[0\]\.op: must be one of add, remove, replace/,
    ],
    ['a path segment is not ".."', (c) => c.upsertReportByPublicId(1, '..'), /publicId: must not be "\." or "\.\."/],
    ['a path segment has no "/"', (c) => c.scimGetUser('1/../2'), /id: must not contain "\/"/],
    ['a path segment is not empty', (c) => c.runDashboardPython(''), /publicId: must be a non-empty string/],
    [
      'repository segments are checked too',
      (c) => c.listRepoHostBranches('acme', '..').toArray(),
      /repo: must not be "\." or "\.\."/,
    ],
    ['ids are positive whole numbers', (c) => c.getUserAttributeValues(0), /userId: must be a positive whole number/],
    ['ids are whole', (c) => c.deleteUser(1.5), /id: must be a positive whole number/],
  ];

  it.each(cases)('%s', async (_name, call, problem) => {
    const { client, seen } = clientOf();
    const error = await caught(() => call(client));
    expect(ServiceValidationError.isInstance(error), String(error)).toBe(true);
    expect((error as ServiceValidationError).problems.join('\n')).toMatch(problem);
    expect(seen).toEqual([]);
  });
});

describe('the types state the same rules, so an editor flags them before anything runs', () => {
  it('one dashboard per notification, the enums of bulk actions, item types and log sources', () => {
    const ok: NotificationInput[] = [{ dashboardId: 201 }, { dashboardPublicId: 'sales-overview' }];
    // @ts-expect-error a notification names its dashboard one way only
    const both: NotificationInput = { dashboardId: 201, dashboardPublicId: 'sales-overview' };
    // @ts-expect-error the bulk action is one of DEACTIVATE, ACTIVATE, DELETE
    const action: BulkUserUpdate = { action: 'SUSPEND', userIds: [1] };
    // @ts-expect-error workspace items are FOLDER, WORKBOOK or REPORT
    const item: WorkspaceItemRef = { type: 'DASHBOARD', id: 1 };
    // @ts-expect-error the logs source is production or dev
    const logs: LogListParams = { source: 'staging' };
    // What the types refuse, the validators refuse too: the same rules in both places.
    expect(ok.map((input) => validateNotificationInput(input).ok)).toEqual([true, true]);
    expect(validateNotificationInput(both).ok).toBe(false);
    expect(validateBulkUserUpdate(action).ok).toBe(false);
    expect(validateBulkDeleteInput({ items: [item] }).ok).toBe(false);
    expect(validateBody(LogFiltersSchema, logs).ok).toBe(false);
  });
});

describe('5: 401, 403 and 404 by the kind of key, as the existing endpoints', () => {
  it('a personal key (an editor) reads and uses the data model, and is refused the admin endpoints (403)', async () => {
    const { client } = clientOf({ apiKey: PERSONAL_API_KEY });
    for (const [name, call] of [
      ['listUsers', () => client.listUsers().toArray()],
      ['bulkUpdateUsers', () => client.bulkUpdateUsers({ action: 'ACTIVATE', userIds: [2] })],
      ['listUserAttributes', () => client.listUserAttributes().toArray()],
      ['scimListUsers', () => client.scimListUsers().toArray()],
      ['getTenantSettings', () => client.getTenantSettings()],
      ['createOAuthIntegration', () => client.createOAuthIntegration({ name: 'x', provider: 'y', clientId: 'z' })],
      ['listOidcTokenConfigs', () => client.listOidcTokenConfigs().toArray()],
      ['listEnvVars', () => client.listEnvVars(1).toArray()],
      ['createDeployment', () => client.createDeployment({ name: 'x' })],
      ['startTransformSync', () => client.startTransformSync(1, { branchName: 'main' })],
      ['runDashboardPython', () => client.runDashboardPython('sales-overview')],
    ] as const) {
      expect(await failure(call), name).toEqual([403, 'forbidden']);
    }
    expect(await client.getAppConfig()).toMatchObject({ embedding: { locale: 'en-US' } });
    expect(await client.listUserOAuthTokens().toArray()).toEqual([]);
    expect((await client.listLogs(1).toArray()).length).toBeGreaterThan(0);
    expect(await client.startDevMode(1)).toMatchObject({ name: 'dev-2', devMode: true });
    expect(
      await client.writeDataModelFiles(1, { branchName: 'dev-2', files: [{ path: 'model/ben.yml', content: 'x' }] }),
    ).toEqual([expect.objectContaining({ path: 'model/ben.yml' })]);
  });

  it('a key scoped to deployment 1 gets 403 on deployment 2 and on ones that do not exist; account-level endpoints take it', async () => {
    const { client } = clientOf({ apiKey: SCOPED_ADMIN_API_KEY });
    for (const [name, call] of [
      ['listLogs(2)', () => client.listLogs(2).toArray()],
      ['setEnvVars(2)', () => client.setEnvVars(2, [{ name: 'A', value: '1' }])],
      ['getBuildStatus(99)', () => client.getBuildStatus(99)],
      ['listNotifications(2)', () => client.listNotifications(2).toArray()],
      ['bulkDeleteWorkspaceItems(2)', () => client.bulkDeleteWorkspaceItems(2, [{ type: 'WORKBOOK', id: 105 }])],
      ['listDataModelFiles(2)', () => client.listDataModelFiles(2).toArray()],
      ['createDeployment', () => client.createDeployment({ name: 'x' })],
    ] as const) {
      expect(await failure(call), name).toEqual([403, 'forbidden']);
    }
    expect((await client.listUsers().toArray()).length).toBeGreaterThan(0);
    expect((await client.scimListGroups().toArray()).length).toBeGreaterThan(0);
    expect(await client.getBuildStatus(1)).toMatchObject({ status: 'success' });
  });

  it('an unknown key is 401 everywhere; SCIM takes its token as Bearer or Api-Key', async () => {
    const { client } = clientOf({ apiKey: 'svc_unknown_key_0000' });
    for (const call of [
      () => client.listUsers().toArray(),
      () => client.scimListUsers().toArray(),
      () => client.getAppConfig(),
      () => client.listRegions().toArray(),
    ])
      expect(await failure(call)).toEqual([401, 'unauthorized']);

    const scim = (authorization?: string) =>
      fetch(`${emulator.url}/api/scim/v2/Users?count=1`, {
        headers: authorization === undefined ? {} : { authorization },
      }).then((response) => response.status);
    expect(await scim(`Bearer ${ADMIN_API_KEY}`)).toBe(200);
    expect(await scim(`Api-Key ${ADMIN_API_KEY}`)).toBe(200);
    expect(await scim(undefined)).toBe(401);
    expect(await scim(`Basic ${ADMIN_API_KEY}`)).toBe(401);
    expect(await scim(`Api-Key ${PERSONAL_API_KEY}`)).toBe(403);
  });

  it('404 for what the path names and does not exist', async () => {
    const { client } = clientOf();
    for (const [name, call] of [
      ['updateUser', () => client.updateUser(9999, { firstName: 'x' })],
      ['getUserAttribute', () => client.getUserAttribute(9999)],
      ['getUserAttributeValues', () => client.getUserAttributeValues(9999)],
      ['scimGetGroup', () => client.scimGetGroup('9999')],
      [
        'scimPatchUser',
        () => client.scimPatchUser('9999', { Operations: [{ op: 'replace', path: 'active', value: true }] }),
      ],
      ['updateNotification', () => client.updateNotification(1, 9999, { name: 'x' })],
      ['connectReportWorkbook', () => client.connectReportWorkbook(1, 9999, { externalWorkbookId: 'x' })],
      ['duplicateWorkbook', () => client.duplicateWorkbook(1, 9999)],
      ['getBuildStatus of a branch', () => client.getBuildStatus(1, { branchName: 'nope' })],
      ['deleteDeployment', () => client.deleteDeployment(9999)],
      ['listRepoHostRepositories', () => client.listRepoHostRepositories(777).toArray()],
      ['getOAuthIntegration', () => client.getOAuthIntegration(9999)],
      ['deleteUserOAuthToken', () => client.deleteUserOAuthToken(1)],
      ['runDashboardPython', () => client.runDashboardPython('no-such-dashboard')],
    ] as const) {
      expect(await failure(call), name).toEqual([404, 'not_found']);
    }
  });
});

describe('4.6: bulk operations resolve with their per-item failures, never throw for them', () => {
  it('users: the key’s own user and an unknown one fail, the others are deleted', async () => {
    const { client } = clientOf();
    const temp = await client.createUser({ email: 'temp@acme.test' });
    const result = await client.bulkUpdateUsers({ action: 'DELETE', userIds: [1, 999, temp.id] });
    expect(result).toEqual({
      succeeded: [temp.id],
      failed: [
        { item: 1, error: expect.stringContaining('cannot remove or deactivate itself'), code: 'conflict' },
        { item: 999, error: 'User 999 not found', code: 'not_found' },
      ],
    });
    expect((await client.listUsers().toArray()).map((user) => user.id)).not.toContain(temp.id);
  });

  it('workspace items: a personal key deletes its own workbook, not another user’s; all failing still resolves', async () => {
    const ben = clientOf({ apiKey: PERSONAL_API_KEY }).client;
    const own = await ben.upsertWorkbookBySlug(1, 'ben-scratch');
    const result = await ben.bulkDeleteWorkspaceItems(1, [
      { type: 'WORKBOOK', id: 101 },
      { type: 'WORKBOOK', id: own.id },
    ]);
    expect(result).toEqual({
      succeeded: [{ type: 'WORKBOOK', id: own.id }],
      failed: [{ item: { type: 'WORKBOOK', id: 101 }, error: 'No edit access to WORKBOOK 101', code: 'forbidden' }],
    });
    const none = await ben.bulkMoveWorkspaceItems(1, [{ type: 'REPORT', id: 999 }], null);
    expect(none).toEqual({ succeeded: [], failed: [expect.objectContaining({ code: 'not_found' })] });
  });

  it('a move into a folder below itself fails for that item only', async () => {
    const { client } = clientOf();
    const result = await client.bulkMoveWorkspaceItems(
      1,
      [
        { type: 'FOLDER', id: 13 },
        { type: 'REPORT', id: 302 },
      ],
      14,
    );
    expect(result.succeeded).toEqual([{ type: 'REPORT', id: 302 }]);
    expect(result.failed).toEqual([
      { item: { type: 'FOLDER', id: 13 }, error: expect.stringContaining('below it'), code: 'conflict' },
    ]);
  });
});

describe('lists: cursor pages (items, pageInfo), the deprecated data/count as a fallback, SCIM pages', () => {
  it('a new list follows pageInfo cursors page by page', async () => {
    const { client, seen } = clientOf();
    const all = await client.listUserAttributes({ first: 2 }).toArray();
    expect(all.map((attribute) => attribute.id)).toEqual([1, 2, 3, 4, 5]);
    expect(seen.map((request) => new URL(request.url).searchParams.get('first'))).toEqual(['2', '2', '2']);
    expect(new URL(seen[0]!.url).searchParams.get('after')).toBeNull();
  });

  it('4.6: with sortBy lastViewedAt only the first page is read, even when a service offers a cursor', async () => {
    const { client, seen } = clientOf();
    expect(await client.listReports(1, { sortBy: 'lastViewedAt', first: 1 }).toArray()).toHaveLength(1);
    expect(seen).toHaveLength(1);
    const eager = await startScriptedServer((_request, res) =>
      sendJson(res, 200, {
        items: [{ id: 1, name: 'r' }],
        pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: 'c1', endCursor: 'c1' },
      }),
    );
    try {
      const remote = createServiceClient({ baseUrl: eager.url, apiKey: 'k' });
      expect(await remote.listReports(1, { sortBy: 'lastViewedAt' }).toArray()).toEqual([{ id: 1, name: 'r' }]);
      expect(eager.received).toHaveLength(1);
      await caught(() => remote.listReports(1, { sortBy: 'name' }).toArray());
      expect(eager.received).toHaveLength(3);
    } finally {
      await eager.close();
    }
  });

  it('9: a list answered with the deprecated data and count alone is read from data', async () => {
    const legacy = await startScriptedServer((request, res) => {
      const after = new URL(request.path, 'http://x').searchParams.get('after');
      if (request.path.startsWith('/api/v1/users/'))
        sendJson(res, 200, { data: [{ id: 1, email: 'a@x.test' }], count: 1 });
      else if (after === null)
        sendJson(res, 200, {
          data: [{ name: 'main' }],
          count: 1,
          pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: 'a', endCursor: 'a' },
        });
      else sendJson(res, 200, { items: [{ name: 'dev' }], data: [{ name: 'ignored' }], count: 1 });
    });
    try {
      const client = createServiceClient({ baseUrl: legacy.url, apiKey: 'k' });
      expect(await client.listUsers().toArray()).toEqual([{ id: 1, email: 'a@x.test' }]);
      // `items` wins over `data` where both are there.
      expect(await client.listBranches(1).toArray()).toEqual([{ name: 'main' }, { name: 'dev' }]);
    } finally {
      await legacy.close();
    }
  });

  it('SCIM lists page with startIndex and count until totalResults', async () => {
    const { client, seen } = clientOf();
    const users = await client.scimListUsers({ count: 2 }).toArray();
    expect(users.map((user) => user.userName)).toEqual((await client.listUsers().toArray()).map((user) => user.email));
    const pages = seen.filter((request) => request.url.includes('/api/scim/v2/Users'));
    expect(pages.map((request) => new URL(request.url).searchParams.get('startIndex'))).toEqual(
      Array.from({ length: Math.ceil(users.length / 2) }, (_, index) => String(1 + index * 2)),
    );
    for (const request of pages) expect(new URL(request.url).searchParams.get('count')).toBe('2');
  });

  it('SCIM paging moves on by what each page held, and an empty page ends the list', async () => {
    const scim = await startScriptedServer((request, res) => {
      const start = Number(new URL(request.path, 'http://x').searchParams.get('startIndex'));
      // A server that caps pages below `count`, then stops early with an empty page.
      const Resources = start <= 3 ? [{ id: String(start), userName: `u${start}` }] : [];
      sendJson(res, 200, { totalResults: 10, startIndex: start, itemsPerPage: Resources.length, Resources });
    });
    try {
      const client = createServiceClient({ baseUrl: scim.url, apiKey: 'k' });
      expect((await client.scimListUsers({ count: 5 }).toArray()).map((user) => user.id)).toEqual(['1', '2', '3']);
      expect(scim.received.map((request) => new URL(request.path, 'http://x').searchParams.get('startIndex'))).toEqual([
        '1',
        '2',
        '3',
        '4',
      ]);
    } finally {
      await scim.close();
    }
  });
});

describe('the state behind the rules', () => {
  it('4.6: data-model writes are restricted to dev-mode branches (409 on the default branch and after dev mode stops)', async () => {
    const { client } = clientOf();
    const write = (branchName: string) =>
      client.writeDataModelFiles(1, { branchName, files: [{ path: 'model/x.yml', content: 'x' }] });
    expect(await failure(() => write('main'))).toEqual([409, 'conflict']);
    await client.createBranch(1, { name: 'scratch' });
    expect(await failure(() => write('scratch'))).toEqual([409, 'conflict']);
    await client.startDevMode(1, { branchName: 'scratch' });
    await write('scratch');
    await client.stopDevMode(1, { branchName: 'scratch' });
    expect(await failure(() => write('scratch'))).toEqual([409, 'conflict']);
    expect(await failure(() => client.startDevMode(1, { branchName: 'main' }))).toEqual([409, 'conflict']);
  });

  it('the world’s deployments cannot be deleted (409); created ones can', async () => {
    const { client } = clientOf();
    expect(await failure(() => client.deleteDeployment(2))).toEqual([409, 'conflict']);
    const created = await client.createDeployment({ name: 'Short-lived' });
    await client.deleteDeployment(created.id);
    expect(await failure(() => client.getBuildStatus(created.id))).toEqual([404, 'not_found']);
  });

  it('user attributes are what sessions resolve: a renamed one is unknown to generate-session; a type never changes', async () => {
    const { client } = clientOf();
    const attribute = await client.createUserAttribute({ name: 'tier', type: 'number' });
    await client.generateSession({
      deploymentId: 1,
      externalId: 'a@x.test',
      userAttributes: [{ name: 'tier', value: 2 }],
    });
    await client.updateUserAttribute(attribute.id, { name: 'level' });
    const error = await caught(() =>
      client.generateSession({ deploymentId: 1, externalId: 'a@x.test', userAttributes: [{ name: 'tier', value: 2 }] }),
    );
    expect(error).toMatchObject({ code: 'user_attributes_not_found' });
    const changed = await caught(() => client.updateUserAttribute(attribute.id, { type: 'string' }));
    expect(changed).toMatchObject({ status: 400, serviceMessage: expect.stringContaining('cannot change type') });
    expect(await failure(() => client.upsertUserAttributeValues(2, [{ name: 'level', value: 'high' }]))).toEqual([
      400,
      'bad_request',
    ]);
    expect(await failure(() => client.upsertUserAttributeValues(2, [{ name: 'nope', value: 1 }]))).toEqual([
      400,
      'bad_request',
    ]);
  });

  it('SCIM errors carry RFC 7644 fields beside `error`; filters take eq; userName is unique', async () => {
    const { client } = clientOf();
    expect((await client.scimListUsers({ filter: 'userName eq "ADA@acme.test"' }).toArray()).map((u) => u.id)).toEqual([
      '1',
    ]);
    const unknown = (await caught(() => client.scimGetUser('9999'))) as ServiceHttpError;
    expect(unknown.body).toEqual({
      error: 'User 9999 not found',
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '404',
      detail: 'User 9999 not found',
    });
    const filter = (await caught(() => client.scimListUsers({ filter: 'title co "x"' }).toArray())) as ServiceHttpError;
    expect(filter.body).toMatchObject({ status: '400', scimType: 'invalidFilter' });
    const taken = (await caught(() => client.scimCreateUser({ userName: 'Ben@acme.test' }))) as ServiceHttpError;
    expect(taken).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
  });
});
