// @vitest-environment node
/**
 * Every typed method of createServiceClient against the emulator over real HTTP, group by group:
 * each answer, and the state it leaves read back through the client. Then two checks that fail
 * when the client falls behind the interface: a table of the management endpoints (method and
 * path) walked against the requests the client sent, and every method of the client called.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILD_DURATION_MS, GLOBEX, createManualClock } from '../../../src/emulator';
import type { ServiceHttpError } from '../../../src/server';
import { createServiceClient, type ServiceClient } from '../../../src/server';
import { useEmulator } from '../../helpers/emulator';
import { caught, recordingFetch, type SeenRequest } from './helpers';

const clock = createManualClock(Date.parse('2026-03-01T12:00:00.000Z'));
const emulator = useEmulator({ clock });
let client: ServiceClient;
/** Every request the client sent, across the tests. */
let seen: SeenRequest[] = [];
/** The methods the tests reached for. */
const called = new Set<string>();

beforeAll(() => {
  const recorder = recordingFetch();
  const real = createServiceClient({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    fetch: recorder.fetch,
    retry: false,
  });
  client = new Proxy(real, {
    get(target, key, receiver) {
      if (typeof key === 'string') called.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  seen = recorder.seen;
});

const statusOf = async (run: () => Promise<unknown>) => ((await caught(run)) as ServiceHttpError | undefined)?.status;

describe('every method of the embedding group', () => {
  it('sessions and embed tenants: mint, revoke, list, groups and members, delete', async () => {
    const { sessionId } = await client.generateSession({
      deploymentId: 1,
      externalId: 'Walk@Globex.test',
      embedTenantName: GLOBEX.name,
    });
    expect(sessionId).toMatch(/^[0-9a-f]{32}$/);
    await client.revokeSession(sessionId);
    expect((await client.listEmbedTenants().toArray()).map((tenant) => tenant.name)).toContain(GLOBEX.name);
    expect((await client.listEmbedTenantUsers(GLOBEX.name).toArray()).map((user) => user.externalId)).toContain(
      'walk@globex.test',
    );

    const group = await client.createEmbedTenantGroup(GLOBEX.name, { name: 'walkers' });
    expect(await client.getEmbedTenantGroup(GLOBEX.name, group.id)).toMatchObject({ name: 'walkers' });
    expect(await client.updateEmbedTenantGroup(GLOBEX.name, group.id, { description: 'On foot' })).toMatchObject({
      description: 'On foot',
    });
    await client.addEmbedTenantGroupMember(GLOBEX.name, group.id, { externalId: 'walk@globex.test' });
    expect(
      (await client.listEmbedTenantGroupMembers(GLOBEX.name, group.id).toArray()).map((user) => user.externalId),
    ).toEqual(['walk@globex.test']);
    await client.removeEmbedTenantGroupMember(GLOBEX.name, group.id, { externalId: 'walk@globex.test' });
    expect(await client.listEmbedTenantGroupMembers(GLOBEX.name, group.id).toArray()).toEqual([]);
    expect((await client.listEmbedTenantGroups(GLOBEX.name).toArray()).map((g) => g.name)).toContain('walkers');
    await client.deleteEmbedTenantGroup(GLOBEX.name, group.id);
    expect(await statusOf(() => client.getEmbedTenantGroup(GLOBEX.name, group.id))).toBe(404);

    await client.generateSession({ deploymentId: 1, externalId: 'x', embedTenantName: 'walk-tenant' });
    await client.deleteEmbedTenant('walk-tenant');
    expect((await client.listEmbedTenants().toArray()).map((tenant) => tenant.name)).not.toContain('walk-tenant');
  });
});

describe('every method of the workspace group', () => {
  it('workbooks: upsert, list, duplicate, AI widget thread, embed access', async () => {
    const workbook = await client.upsertWorkbookBySlug(1, ' Walkthrough ', { name: 'Walkthrough', meta: { a: 1 } });
    expect(workbook).toMatchObject({ slug: 'walkthrough', name: 'Walkthrough', meta: { a: 1 } });
    const copy = await client.duplicateWorkbook(1, workbook.id);
    expect(copy).toMatchObject({ name: 'Walkthrough (copy)', slug: null, meta: { a: 1 } });
    expect(copy.id).not.toBe(workbook.id);
    const listed = await client.listWorkbooks(1, { first: 2 }).toArray();
    expect(listed.map((w) => w.id)).toEqual(expect.arrayContaining([workbook.id, copy.id, 101]));

    const sales = listed.find((w) => w.id === 101)!;
    const checksum = (sales.publishedDashboard as unknown as { checksum: string }).checksum;
    const dashboard = await client.setAiWidgetThread(1, 101, {
      threadId: 'thread-1',
      widgetId: 'revenue-kpi',
      checksum,
    });
    expect(dashboard.config.widgets?.find((widget) => widget.id === 'revenue-kpi')?.config).toMatchObject({
      threadId: 'thread-1',
    });
    // The checksum moved with the change: the old one is stale now.
    expect(
      await statusOf(() =>
        client.setAiWidgetThread(1, 101, { threadId: 'thread-2', widgetId: 'revenue-kpi', checksum }),
      ),
    ).toBe(409);

    expect(await client.getWorkbookEmbedAccess(1, workbook.id)).toMatchObject({ allEmbedUsers: 'none' });
    await client.setWorkbookEmbedAccess(1, workbook.id, { action: 'read' });
    expect(await client.getWorkbookEmbedAccess(1, workbook.id)).toMatchObject({ allEmbedUsers: 'read' });
  });

  it('folders and reports: list, upsert by public id, connect a workbook, filter by it', async () => {
    expect((await client.listFolders(1).toArray()).map((folder) => folder.name)).toEqual([
      'Sales',
      'Operations',
      'Finance',
      'Private',
    ]);
    const report = await client.upsertReportByPublicId(1, 'walk-report', {
      name: 'Walk report',
      sqlQuery: 'SELECT 1',
      folderId: 11,
    });
    expect(report).toMatchObject({ publicId: 'walk-report', name: 'Walk report', folderId: 11 });
    const renamed = await client.upsertReportByPublicId(1, 'walk-report', { name: 'Walk report 2' });
    expect(renamed).toMatchObject({ id: report.id, name: 'Walk report 2', sqlQuery: 'SELECT 1' });
    expect((await client.listReports(1, { folderId: 11, sortBy: 'name' }).toArray()).map((r) => r.name)).toEqual([
      'Revenue by month',
      'Top customers',
      'Walk report 2',
    ]);
    const connected = await client.connectReportWorkbook(1, report.id, {
      externalWorkbookId: 'sheet-1',
      resultLocation: 'Sheet1',
      endResultCell: 'B9',
    });
    expect(connected).toMatchObject({ externalWorkbookId: 'sheet-1', resultLocation: 'Sheet1', endResultCell: 'B9' });
    expect((await client.listReports(1, { externalWorkbookId: 'sheet-1' }).toArray()).map((r) => r.id)).toEqual([
      report.id,
    ]);
  });

  it('notifications: list, create, filter, update', async () => {
    expect((await client.listNotifications(1).toArray()).map((n) => n.name)).toEqual(['Weekly sales']);
    const created = await client.createNotification(1, {
      dashboardPublicId: 'orders-ops',
      name: 'Daily ops',
      schedule: { cron: '0 7 * * *', timezone: 'UTC' },
      recipients: [{ email: 'ops@acme.test' }, { embedTenantName: GLOBEX.name, externalId: 'dana@globex.test' }],
      filters: { 'orders.status': ['processing'] },
      timeGrains: { 'orders.created_at': 'day' },
    });
    expect(created).toMatchObject({ dashboardId: 202, dashboardPublicId: 'orders-ops', name: 'Daily ops' });
    expect((await client.listNotifications(1, { recipientEmail: 'OPS@acme.test' }).toArray()).map((n) => n.id)).toEqual(
      [created.id],
    );
    expect(
      (
        await client
          .listNotifications(1, { recipientEmbedTenantName: GLOBEX.name, recipientExternalId: 'dana@globex.test' })
          .toArray()
      ).map((n) => n.id),
    ).toEqual([created.id]);
    expect((await client.listNotifications(1, { recipientUserId: 1 }).toArray()).map((n) => n.name)).toEqual([
      'Weekly sales',
    ]);
    const updated = await client.updateNotification(1, created.id, { name: 'Daily ops (EU)', dashboardId: 201 });
    expect(updated).toMatchObject({
      name: 'Daily ops (EU)',
      dashboardPublicId: 'sales-overview',
      filters: created.filters,
    });
    expect((await client.listNotifications(1, { dashboardPublicId: 'sales-overview' }).toArray()).length).toBe(2);
  });

  it('bulk move and bulk delete: per-item outcomes, and the state they leave', async () => {
    const workbooks = await client.listWorkbooks(1).toArray();
    const copy = workbooks.find((w) => w.name === 'Walkthrough (copy)')!;
    const report = (await client.listReports(1, { search: 'walk' }).toArray())[0]!;
    const moved = await client.bulkMoveWorkspaceItems(
      1,
      [
        { type: 'WORKBOOK', id: copy.id },
        { type: 'REPORT', id: report.id },
        { type: 'FOLDER', id: 13 },
      ],
      12,
    );
    expect(moved).toEqual({
      succeeded: [
        { type: 'WORKBOOK', id: copy.id },
        { type: 'REPORT', id: report.id },
        { type: 'FOLDER', id: 13 },
      ],
      failed: [],
    });
    expect((await client.listWorkbooks(1).toArray()).find((w) => w.id === copy.id)?.folderId).toBe(12);
    expect((await client.listFolders(1).toArray()).find((f) => f.id === 13)).toMatchObject({ parentId: 12 });

    const deleted = await client.bulkDeleteWorkspaceItems(1, [
      { type: 'WORKBOOK', id: copy.id },
      { type: 'FOLDER', id: 13 },
      { type: 'REPORT', id: 999_999 },
    ]);
    expect(deleted.succeeded).toEqual([{ type: 'WORKBOOK', id: copy.id }]);
    expect(deleted.failed).toEqual([
      { item: { type: 'FOLDER', id: 13 }, error: expect.stringContaining('not empty'), code: 'conflict' },
      { item: { type: 'REPORT', id: 999_999 }, error: expect.any(String), code: 'not_found' },
    ]);
    expect((await client.listWorkbooks(1).toArray()).map((w) => w.id)).not.toContain(copy.id);
  });
});

describe('every method of the people group', () => {
  it('users: list, create, update, bulk deactivate with a per-user failure, delete', async () => {
    expect((await client.listUsers().toArray()).map((user) => user.email)).toEqual([
      'ada@acme.test',
      'ben@acme.test',
      'cy@acme.test',
    ]);
    const dee = await client.createUser({ email: 'dee@acme.test', firstName: 'Dee', role: 'editor' });
    expect(dee).toMatchObject({ email: 'dee@acme.test', role: 'editor', status: 'active' });
    expect(await client.updateUser(dee.id, { lastName: 'Doe' })).toMatchObject({ firstName: 'Dee', lastName: 'Doe' });
    const result = await client.bulkUpdateUsers({ action: 'DEACTIVATE', userIds: [dee.id, 999] });
    expect(result).toEqual({
      succeeded: [dee.id],
      failed: [{ item: 999, error: 'User 999 not found', code: 'not_found' }],
    });
    expect((await client.listUsers().toArray()).find((user) => user.id === dee.id)?.status).toBe('deactivated');
    await client.deleteUser(dee.id);
    expect((await client.listUsers().toArray()).map((user) => user.id)).not.toContain(dee.id);
  });

  it('user attributes and values: create, read, change; values upserted, cleared, and read back', async () => {
    expect((await client.listUserAttributes().toArray()).map((a) => a.name)).toEqual([
      'region',
      'max_discount',
      'is_vip',
      'allowed_regions',
      'allowed_store_ids',
    ]);
    const team = await client.createUserAttribute({ name: 'team', type: 'string' });
    expect(await client.getUserAttribute(team.id)).toMatchObject({ name: 'team', type: 'string' });
    expect(await client.updateUserAttribute(team.id, { displayName: 'Team' })).toMatchObject({ displayName: 'Team' });
    const values = await client.upsertUserAttributeValues(2, [
      { name: 'team', value: 'north' },
      { name: 'region', value: null },
    ]);
    expect(values).toEqual({
      userId: 2,
      values: [
        { name: 'is_vip', value: false },
        { name: 'max_discount', value: 15 },
        { name: 'team', value: 'north' },
      ],
    });
    expect(await client.getUserAttributeValues(2)).toEqual(values);
  });

  it('SCIM users: paged list, create, get, replace, patch (deactivates the user), delete', async () => {
    const pages = [];
    for await (const page of client.scimListUsers({ count: 1 }).pages()) pages.push(page);
    expect(pages.map((page) => [page.startIndex, page.itemsPerPage, page.totalResults])).toEqual([
      [1, 1, 3],
      [2, 1, 3],
      [3, 1, 3],
    ]);
    const eve = await client.scimCreateUser({
      userName: 'eve@acme.test',
      name: { givenName: 'Eve', familyName: 'Ng' },
    });
    expect(eve).toMatchObject({ userName: 'eve@acme.test', active: true, schemas: [expect.stringContaining(':User')] });
    expect(await client.scimGetUser(eve.id!)).toMatchObject({ name: { givenName: 'Eve' } });
    expect(
      await client.scimReplaceUser(eve.id!, {
        userName: 'eve@acme.test',
        name: { givenName: 'Eva', familyName: 'Ng' },
      }),
    ).toMatchObject({ name: { givenName: 'Eva', familyName: 'Ng' } });
    const patched = await client.scimPatchUser(eve.id!, {
      Operations: [{ op: 'Replace', path: 'active', value: false }],
    });
    expect(patched.active).toBe(false);
    expect((await client.listUsers().toArray()).find((user) => user.email === 'eve@acme.test')?.status).toBe(
      'deactivated',
    );
    await client.scimDeleteUser(eve.id!);
    expect(await statusOf(() => client.scimGetUser(eve.id!))).toBe(404);
  });

  it('SCIM groups: list, create with members, get, patch members, replace (renames), delete', async () => {
    expect((await client.scimListGroups().toArray()).map((group) => group.displayName)).toEqual([
      'analysts',
      'sales',
      'executives',
    ]);
    const auditors = await client.scimCreateGroup({ displayName: 'auditors', members: [{ value: '3' }] });
    expect(auditors.members).toEqual([{ value: '3', display: 'cy@acme.test' }]);
    expect(await client.scimGetGroup(auditors.id!)).toMatchObject({ displayName: 'auditors' });
    const added = await client.scimPatchGroup(auditors.id!, {
      Operations: [{ op: 'add', path: 'members', value: [{ value: '1' }] }],
    });
    expect(added.members?.map((member) => member.value)).toEqual(['1', '3']);
    await client.scimReplaceGroup(auditors.id!, { displayName: 'auditors-eu', members: [{ value: '1' }] });
    const users = await client.listUsers().toArray();
    expect(users.find((user) => user.id === 1)?.['groups']).toContain('auditors-eu');
    expect(users.find((user) => user.id === 3)?.['groups']).not.toContain('auditors');
    await client.scimDeleteGroup(auditors.id!);
    expect(await statusOf(() => client.scimGetGroup(auditors.id!))).toBe(404);
  });
});

describe('every method of the platform group', () => {
  it('deployments, setup wizard, env vars, environments, regions, pods, logs', async () => {
    expect((await client.listDeployments().toArray()).map((d) => d.id)).toEqual([1, 2]);
    const created = await client.createDeployment({
      name: 'Walk',
      cloudProvider: 'aws',
      deployMode: 'cli',
      creationMethod: 'upload',
      regionId: 'aws-eu-central-1',
    });
    expect(created).toMatchObject({ name: 'Walk', deployMode: 'cli', regionId: 'aws-eu-central-1' });
    expect(await client.updateDeployment(created.id, { name: 'Walk 2' })).toMatchObject({ name: 'Walk 2' });
    expect(await client.advanceCreationStep(created.id)).toMatchObject({ step: 1, stepName: 'generate-data-model' });
    expect(await client.resetCreationStep(created.id)).toMatchObject({ step: 0 });
    await client.deleteDeployment(created.id);
    expect((await client.listDeployments().toArray()).map((d) => d.id)).toEqual([1, 2]);

    expect(await client.listEnvVars(1).toArray()).toEqual([
      { name: 'DB_TYPE', value: 'duckdb' },
      { name: 'TZ', value: 'UTC' },
    ]);
    expect(
      await client.setEnvVars(1, [
        { name: 'FEATURE_X', value: 'on' },
        { name: 'TZ', value: null },
      ]),
    ).toEqual([
      { name: 'DB_TYPE', value: 'duckdb' },
      { name: 'FEATURE_X', value: 'on' },
    ]);
    expect((await client.listEnvironments(1).toArray()).map((environment) => environment.name)).toEqual(['production']);
    expect((await client.listRegions().toArray()).map((region) => region.id)).toEqual([
      'aws-eu-central-1',
      'aws-us-east-1',
      'gcp-us-central1',
    ]);
    expect((await client.listPods(1).toArray()).map((pod) => [pod.name, pod.status])).toEqual([
      ['d1-api-0', 'Running'],
      ['d1-refresh-worker-0', 'Running'],
    ]);
    const logs = await client.listLogs(1, { source: 'production', container: 'MAIN' }).toArray();
    expect(logs.at(-1)).toMatchObject({ container: 'MAIN', message: expect.stringContaining('FEATURE_X') });
  });

  it('the data model: dev mode, files, uploads, hashes, branches, commit, pull, merge, merge to default and its build', async () => {
    expect(await client.getBuildStatus(1)).toMatchObject({ branchName: 'main', status: 'success' });
    const dev = await client.startDevMode(1);
    expect(dev).toMatchObject({ name: 'dev-1', devMode: true });
    expect((await client.listEnvironments(1).toArray()).map((environment) => environment.name)).toEqual([
      'production',
      'dev-dev-1',
    ]);
    expect((await client.listDataModelFiles(1, { branchName: 'dev-1' }).toArray()).map((file) => file.path)).toEqual([
      'model/cubes/customers.yml',
      'model/cubes/orders.yml',
      'model/cubes/products.yml',
    ]);
    await client.writeDataModelFiles(1, {
      branchName: 'dev-1',
      files: [{ path: 'model/views/sales.yml', content: 'views: []\n' }],
    });
    await client.renameDataModelFiles(1, {
      branchName: 'dev-1',
      renames: [{ from: 'model/views/sales.yml', to: 'model/views/revenue.yml' }],
    });
    await client.deleteDataModelFiles(1, { branchName: 'dev-1', paths: ['model/cubes/products.yml'] });
    const { uploadId } = await client.startDataModelUpload(1, { branchName: 'dev-1' });
    await client.uploadDataModelFile(1, { uploadId, path: 'model/cubes/stores.yml', content: 'cubes:\n' });
    await client.uploadDataModelFile(1, { uploadId, path: 'model/cubes/stores.yml', content: '  - name: stores\n' });
    expect((await client.finishDataModelUpload(1, uploadId)).map((file) => file.path)).toEqual([
      'model/cubes/stores.yml',
    ]);
    const hashes = await client.getDataModelFileHashes(1, { branchName: 'dev-1' });
    expect(Object.keys(hashes).sort()).toEqual([
      'model/cubes/customers.yml',
      'model/cubes/orders.yml',
      'model/cubes/stores.yml',
      'model/views/revenue.yml',
    ]);
    expect(hashes['model/cubes/stores.yml']).toBe(
      createHash('sha256').update('cubes:\n  - name: stores\n').digest('hex'),
    );

    const commit = await client.commitBranch(1, { branchName: 'dev-1', message: 'Walkthrough' });
    expect(commit).toMatchObject({ branchName: 'dev-1', commitId: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(await client.createBranch(1, { name: 'feature/walk', from: 'dev-1' })).toMatchObject({
      name: 'feature/walk',
      head: commit.commitId,
    });
    const pulled = await client.pullBranch(1, { branchName: 'feature/walk' });
    expect(pulled).toMatchObject({ name: 'feature/walk', fileCount: 3 });
    expect(await client.mergeBranch(1, { branchName: 'dev-1', targetBranchName: 'feature/walk' })).toMatchObject({
      head: commit.commitId,
      fileCount: 4,
    });
    expect((await client.listBranches(1).toArray()).map((branch) => branch.name)).toEqual([
      'dev-1',
      'feature/walk',
      'main',
    ]);
    expect(await client.mergeBranchToDefault(1, { branchName: 'dev-1' })).toMatchObject({
      name: 'main',
      head: commit.commitId,
    });
    expect(await client.getBuildStatus(1)).toMatchObject({ status: 'building', commitId: commit.commitId });
    expect((await client.listPods(1).toArray())[0]).toMatchObject({ status: 'Pending' });
    clock.advance(BUILD_DURATION_MS);
    expect(await client.getBuildStatus(1)).toMatchObject({ status: 'success', commitId: commit.commitId });
    const messages = (await client.listLogs(1, { source: 'production', container: 'INIT' }).toArray()).map(
      (entry) => entry.message,
    );
    expect(messages.at(-1)).toContain(`succeeded (${commit.commitId})`);

    await client.stopDevMode(1, { branchName: 'dev-1' });
    expect((await client.listBranches(1).toArray()).find((branch) => branch.name === 'dev-1')?.devMode).toBe(false);
  });

  it('the repository host, a repository connection, and transform sync', async () => {
    expect(await client.getRepoHostStatus()).toMatchObject({ connected: true });
    expect(await client.listRepoHostInstallations().toArray()).toEqual([{ id: 501, account: 'acme' }]);
    expect((await client.listRepoHostRepositories(501).toArray()).map((repository) => repository.name)).toEqual([
      'analytics-model',
    ]);
    expect(
      (await client.listRepoHostBranches('acme', 'analytics-model').toArray()).map((branch) => branch.name),
    ).toEqual(['main', 'staging']);
    const connection = await client.connectRepository(1, {
      installationId: 501,
      owner: 'acme',
      repo: 'analytics-model',
      branchName: 'staging',
    });
    expect(connection).toMatchObject({
      repository: 'acme/analytics-model',
      branchName: 'staging',
      build: { status: 'building' },
    });
    expect((await client.listDeployments().toArray())[0]).toMatchObject({ repository: 'acme/analytics-model' });
    const sync = await client.startTransformSync(1, { branchName: 'main' });
    expect(sync).toEqual({ branchName: 'main', syncJobId: expect.any(String), workflowId: expect.any(String) });
    expect((await client.listLogs(1).toArray()).at(-1)?.message).toContain(sync.syncJobId);
  });
});

describe('every method of the tenant group', () => {
  it('settings and app config', async () => {
    expect(await client.getTenantSettings()).toMatchObject({ auditLogEnabled: true, supportAccessEnabled: false });
    expect(await client.updateTenantSettings({ supportAccessEnabled: true })).toMatchObject({
      auditLogEnabled: true,
      supportAccessEnabled: true,
    });
    expect(await client.getTenantSettings()).toMatchObject({ supportAccessEnabled: true });
    expect(await client.getAppConfig()).toMatchObject({
      applyThemeGlobally: false,
      creatorMode: { localizedTitles: expect.arrayContaining([{ locale: 'en-US', value: 'Acme Analytics' }]) },
      embedding: { locale: 'en-US', showDashboardChat: true },
      sheetsUi: { showAppliedFilters: true },
    });
  });

  it('OAuth integrations and the caller’s tokens; OIDC token configs', async () => {
    expect((await client.listOAuthIntegrations().toArray()).map((integration) => integration.name)).toEqual(['GitHub']);
    const google = await client.createOAuthIntegration({
      name: 'Google',
      provider: 'google',
      clientId: 'client-1',
      clientSecret: 'never-answered',
      authorizeUrl: 'https://accounts.google.com/o/oauth2/auth',
      scopes: ['email'],
    });
    expect(google).toMatchObject({ name: 'Google', hasClientSecret: true });
    expect(JSON.stringify(google)).not.toContain('never-answered');
    expect(await client.getOAuthIntegration(google.id)).toMatchObject({ clientId: 'client-1' });
    expect(await client.updateOAuthIntegration(google.id, { scopes: ['email', 'profile'] })).toMatchObject({
      scopes: ['email', 'profile'],
    });
    const initiation = await client.initiateUserOAuthToken(google.id, { redirectUri: 'https://app.acme.test/cb' });
    const url = new URL(initiation.authorizationUrl);
    expect(url.origin + url.pathname).toBe('https://accounts.google.com/o/oauth2/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'client-1',
      scope: 'email profile',
      redirect_uri: 'https://app.acme.test/cb',
    });
    expect(await client.listUserOAuthTokens().toArray()).toEqual([
      expect.objectContaining({ integrationId: google.id, status: 'pending' }),
    ]);
    await client.deleteUserOAuthToken(google.id);
    expect(await client.listUserOAuthTokens().toArray()).toEqual([]);
    await client.deleteOAuthIntegration(google.id);
    expect(await statusOf(() => client.getOAuthIntegration(google.id))).toBe(404);

    const oidc = await client.createOidcTokenConfig({
      name: 'Partner IdP',
      issuer: 'https://login.partner.example',
      audience: 'analytics',
    });
    expect((await client.listOidcTokenConfigs().toArray()).map((config) => config.name)).toEqual([
      'Acme identity provider',
      'Partner IdP',
    ]);
    expect(await client.getOidcTokenConfig(oidc.id)).toMatchObject({ issuer: 'https://login.partner.example' });
    expect(await client.updateOidcTokenConfig(oidc.id, { audience: 'analytics-eu' })).toMatchObject({
      audience: 'analytics-eu',
    });
    await client.deleteOidcTokenConfig(oidc.id);
    expect(await statusOf(() => client.getOidcTokenConfig(oidc.id))).toBe(404);
  });

  it('dashboard switches: signed embedding and a Python run; and a raw request', async () => {
    expect(await client.setDashboardEmbedding('internal-finance', true)).toMatchObject({ allowEmbed: true });
    expect(await client.setDashboardEmbedding('internal-finance', false)).toMatchObject({ allowEmbed: false });
    const run = await client.runDashboardPython('sales-overview', { filters: { 'orders.status': 'completed' } });
    expect(run).toMatchObject({
      publicId: 'sales-overview',
      status: 'completed',
      appliedFilters: { 'orders.status': 'completed' },
    });
    expect(await client.request<{ items: unknown[] }>({ method: 'GET', path: '/api/v1/regions/' })).toMatchObject({
      items: expect.any(Array),
    });
  });
});

/**
 * The management endpoints of the interface (4.1 to 4.3, 4.6, SCIM), as method and path. Each
 * must have been sent by one of the methods above: an endpoint without a method fails here.
 */
const ENDPOINTS: readonly (readonly [string, string])[] = [
  ['PUT', '/api/v1/deployments/{id}/workbooks/by-slug/{slug}'],
  ['POST', '/api/v1/embed/generate-session'],
  ['POST', '/api/v1/embed/session/revoke'],
  ['GET', '/api/v1/embed-tenants/'],
  ['DELETE', '/api/v1/embed-tenants/{name}'],
  ['GET', '/api/v1/embed-tenants/{name}/users'],
  ['GET', '/api/v1/embed-tenants/{name}/groups'],
  ['POST', '/api/v1/embed-tenants/{name}/groups'],
  ['GET', '/api/v1/embed-tenants/{name}/groups/{id}'],
  ['PATCH', '/api/v1/embed-tenants/{name}/groups/{id}'],
  ['DELETE', '/api/v1/embed-tenants/{name}/groups/{id}'],
  ['GET', '/api/v1/embed-tenants/{name}/groups/{id}/users'],
  ['POST', '/api/v1/embed-tenants/{name}/groups/{id}/users'],
  ['DELETE', '/api/v1/embed-tenants/{name}/groups/{id}/users'],
  ['GET', '/api/v1/deployments/'],
  ['PUT', '/api/v1/deployments/{id}'],
  ['DELETE', '/api/v1/deployments/{id}'],
  ['POST', '/build/api/v1/deployments/'],
  ['GET', '/api/v1/deployments/{id}/build-status'],
  ['GET', '/api/v1/deployments/{id}/logs'],
  ['GET', '/api/v1/deployments/{id}/pods'],
  ['GET', '/api/v1/deployments/{id}/env-vars'],
  ['PUT', '/api/v1/deployments/{id}/env-vars'],
  ['POST', '/api/v1/deployments/{id}/creation-step/advance'],
  ['POST', '/api/v1/deployments/{id}/creation-step/reset'],
  ['GET', '/api/v1/deployments/{id}/environments'],
  ['GET', '/api/v1/regions/'],
  ['GET', '/build/api/v1/deployments/{id}/data-model/files'],
  ['PUT', '/build/api/v1/deployments/{id}/data-model/files'],
  ['DELETE', '/build/api/v1/deployments/{id}/data-model/files'],
  ['POST', '/build/api/v1/deployments/{id}/data-model/files/rename'],
  ['POST', '/build/api/v1/deployments/{id}/data-model/upload/start'],
  ['POST', '/build/api/v1/deployments/{id}/data-model/upload/file'],
  ['POST', '/build/api/v1/deployments/{id}/data-model/upload/finish'],
  ['GET', '/build/api/v1/deployments/{id}/data-model/file-hashes'],
  ['POST', '/build/api/v1/deployments/{id}/dev-mode'],
  ['DELETE', '/build/api/v1/deployments/{id}/dev-mode'],
  ['GET', '/build/api/v1/deployments/{id}/branches'],
  ['POST', '/build/api/v1/deployments/{id}/branches'],
  ['POST', '/build/api/v1/deployments/{id}/commit'],
  ['POST', '/build/api/v1/deployments/{id}/pull'],
  ['POST', '/build/api/v1/deployments/{id}/merge'],
  ['POST', '/build/api/v1/deployments/{id}/merge-to-default'],
  ['POST', '/build/api/v1/deployments/{id}/repohost/connect'],
  ['GET', '/api/v1/repohost/status'],
  ['GET', '/api/v1/repohost/installations'],
  ['GET', '/api/v1/repohost/installations/{id}/repositories'],
  ['GET', '/api/v1/repohost/repositories/{owner}/{repo}/branches'],
  ['POST', '/api/v1/deployments/{id}/transform-sync'],
  ['GET', '/api/v1/deployments/{id}/reports'],
  ['PUT', '/api/v1/deployments/{id}/reports/by-public-id/{publicId}'],
  ['PUT', '/api/v1/deployments/{id}/reports/{id}/connect-workbook'],
  ['GET', '/api/v1/deployments/{id}/folders'],
  ['GET', '/api/v1/deployments/{id}/workbooks'],
  ['POST', '/api/v1/deployments/{id}/workbooks/{id}/duplicate'],
  ['POST', '/api/v1/deployments/{id}/workbooks/{id}/dashboard/ai-widget-thread'],
  ['GET', '/api/v1/deployments/{id}/workbooks/{id}/embed-access'],
  ['PUT', '/api/v1/deployments/{id}/workbooks/{id}/embed-access'],
  ['GET', '/api/v1/deployments/{id}/notifications'],
  ['POST', '/api/v1/deployments/{id}/notifications'],
  ['PUT', '/api/v1/deployments/{id}/notifications/{id}'],
  ['POST', '/api/v1/deployments/{id}/workspace/bulk-delete'],
  ['POST', '/api/v1/deployments/{id}/workspace/bulk-move'],
  ['GET', '/api/v1/users/'],
  ['POST', '/api/v1/users/'],
  ['PUT', '/api/v1/users/{id}'],
  ['DELETE', '/api/v1/users/{id}'],
  ['POST', '/api/v1/users/bulk'],
  ['GET', '/api/v1/user-attributes/'],
  ['POST', '/api/v1/user-attributes/'],
  ['GET', '/api/v1/user-attributes/{id}'],
  ['PUT', '/api/v1/user-attributes/{id}'],
  ['GET', '/api/v1/user-attribute-values/{id}'],
  ['POST', '/api/v1/user-attribute-values/'],
  ['GET', '/api/v1/tenant/settings'],
  ['PUT', '/api/v1/tenant/settings'],
  ['GET', '/api/v1/oauth-integrations/'],
  ['POST', '/api/v1/oauth-integrations/'],
  ['GET', '/api/v1/oauth-integrations/{id}'],
  ['PUT', '/api/v1/oauth-integrations/{id}'],
  ['DELETE', '/api/v1/oauth-integrations/{id}'],
  ['GET', '/api/v1/user-oauth-tokens/'],
  ['DELETE', '/api/v1/user-oauth-tokens/{id}'],
  ['POST', '/api/v1/user-oauth-tokens/{id}/initiate'],
  ['GET', '/api/v1/oidc-token-configs/'],
  ['POST', '/api/v1/oidc-token-configs/'],
  ['GET', '/api/v1/oidc-token-configs/{id}'],
  ['PUT', '/api/v1/oidc-token-configs/{id}'],
  ['DELETE', '/api/v1/oidc-token-configs/{id}'],
  ['GET', '/api/v1/app-config'],
  ['PATCH', '/api/v1/embed/dashboard/{publicId}'],
  ['POST', '/api/v1/embed/dashboard/{publicId}/python-run'],
  ['GET', '/api/scim/v2/Users'],
  ['POST', '/api/scim/v2/Users'],
  ['GET', '/api/scim/v2/Users/{id}'],
  ['PUT', '/api/scim/v2/Users/{id}'],
  ['PATCH', '/api/scim/v2/Users/{id}'],
  ['DELETE', '/api/scim/v2/Users/{id}'],
  ['GET', '/api/scim/v2/Groups'],
  ['POST', '/api/scim/v2/Groups'],
  ['GET', '/api/scim/v2/Groups/{id}'],
  ['PUT', '/api/scim/v2/Groups/{id}'],
  ['PATCH', '/api/scim/v2/Groups/{id}'],
  ['DELETE', '/api/scim/v2/Groups/{id}'],
];

describe('the client covers the interface', () => {
  it('every management endpoint was sent by a typed method, with the method and path of the interface', () => {
    const sent = seen.map((request) => `${request.method} ${new URL(request.url).pathname}`);
    const missing = ENDPOINTS.filter(([method, template]) => {
      const pattern = new RegExp(`^${method} ${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return !sent.some((request) => pattern.test(request));
    });
    expect(missing).toEqual([]);
  });

  it('every method of the client was called above', () => {
    const methods = Object.keys(createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey })).sort();
    expect(methods.filter((name) => !called.has(name))).toEqual([]);
    expect(methods.length).toBeGreaterThanOrEqual(ENDPOINTS.length - 1);
  });
});
