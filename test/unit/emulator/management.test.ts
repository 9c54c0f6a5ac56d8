// @vitest-environment node
import { beforeEach, describe, expect, it } from 'vitest';
import { UPSERT_BRANCH_CHANGED, validateCreateWorkbookInput, type Workbook } from '../../../src/core/protocol/workbook';
import { ADMIN_API_KEY, PERSONAL_API_KEY, SCOPED_ADMIN_API_KEY, createManualClock } from '../../../src/emulator';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  embedAccessFor,
  injectUpsertConflict,
  paginate,
  setUpsertGapHook,
} from '../../../src/emulator/features/management';
import { externalUserKey } from '../../../src/emulator/state';
import { useEmulator } from '../../helpers/emulator';
import { requestJson } from './helpers';

type Json = Record<string, unknown>;

const clock = createManualClock(Date.parse('2026-03-01T12:00:00.000Z'));

const emulator = useEmulator({ clock });

interface CallOptions {
  method?: string;
  body?: unknown;
  raw?: string;
  /** Full Authorization value; `null` sends none. Default `Bearer <admin key>`. */
  authorization?: string | null;
}

function call(path: string, options: CallOptions = {}) {
  return requestJson(emulator, path, {
    ...options,
    authorization: options.authorization === undefined ? `Bearer ${ADMIN_API_KEY}` : options.authorization,
    // A raw body is sent without a content type, as a client that forgets it would.
    contentType: options.body === undefined ? null : 'application/json',
  });
}

const upsert = (deploymentId: number | string, slug: string, body?: unknown, options: CallOptions = {}) =>
  call(`/api/v1/deployments/${deploymentId}/workbooks/by-slug/${encodeURIComponent(slug)}`, {
    method: 'PUT',
    body,
    ...options,
  });

const personal = `Bearer ${PERSONAL_API_KEY}`;
const scoped = `Bearer ${SCOPED_ADMIN_API_KEY}`;
const embedAdmin = `Api-Key ${ADMIN_API_KEY}`;

/** Follows `endCursor` through every page of a list; returns the items and the pages. */
async function allPages(
  path: string,
  first: number,
  options: CallOptions = {},
): Promise<{ items: Json[]; pages: Json[] }> {
  const items: Json[] = [];
  const pages: Json[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 100; guard += 1) {
    const separator = path.includes('?') ? '&' : '?';
    const answer = await call(
      `${path}${separator}first=${first}${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`,
      options,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    pages.push(answer.body);
    items.push(...(answer.body['items'] as Json[]));
    const info = answer.body['pageInfo'] as Json;
    if (!info['hasNextPage']) return { items, pages };
    after = info['endCursor'] as string;
  }
  throw new Error('too many pages');
}

describe('5 authentication of the management API', () => {
  it('5 rule 3: missing, malformed (Api-Key scheme) or unknown Bearer credentials are 401 {"error"}', async () => {
    for (const authorization of [null, `Api-Key ${ADMIN_API_KEY}`, 'Bearer', 'Bearer svc_unknown']) {
      const answer = await call('/api/v1/deployments/1/workbooks', { authorization });
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    expect((await upsert(1, 'auth-check', {}, { authorization: null })).status).toBe(401);
  });

  it('5 rule 2 / 7: a scoped key is 403 on another deployment (even one that does not exist); unscoped keys reach every deployment', async () => {
    for (const path of [
      '/api/v1/deployments/2/workbooks',
      '/api/v1/deployments/2/folders',
      '/api/v1/deployments/2/reports',
      '/api/v1/deployments/99/workbooks',
    ]) {
      const answer = await call(path, { authorization: scoped });
      expect(answer.status, path).toBe(403);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    expect((await upsert(2, 'scoped-check', {}, { authorization: scoped })).status).toBe(403);
    expect((await call('/api/v1/deployments/1/workbooks', { authorization: scoped })).status).toBe(200);
    expect((await call('/api/v1/deployments/2/workbooks')).status).toBe(200);
  });

  it("4.6 deployments list: { items } of the key's deployments, limited by first", async () => {
    const deployment = (id: number, name: string) => ({
      id,
      name,
      cloudProvider: 'aws',
      creationMethod: 'git',
      deployMode: 'git',
      regionId: 'aws-us-east-1',
      repository: null,
      createdAt: '2026-03-01T12:00:00.000Z',
      updatedAt: '2026-03-01T12:00:00.000Z',
    });
    const all = await call('/api/v1/deployments/');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      items: [deployment(1, 'Acme Commerce'), deployment(2, 'Acme Commerce (staging)')],
    });
    expect((await call('/api/v1/deployments/', { authorization: scoped })).body).toEqual({
      items: [deployment(1, 'Acme Commerce')],
    });
    expect((await call('/api/v1/deployments?first=1')).body).toEqual({ items: [deployment(1, 'Acme Commerce')] });
    expect((await call('/api/v1/deployments/', { authorization: personal })).status).toBe(200);
    expect((await call('/api/v1/deployments/?first=0')).status).toBe(400);
  });
});

describe('4.1 workbook upsert by slug', () => {
  it('4.1 rule 1: the slug is trimmed and lowercased before matching', async () => {
    const answer = await upsert(1, '  Q4-Review ', {});
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: 104,
      slug: 'q4-review',
      name: 'Q4 review',
      type: 'WORKBOOK',
      deploymentId: 1,
    });
    const blank = await upsert(1, '   ', {});
    expect(blank.status).toBe(400);
    expect(blank.body['error']).toEqual(expect.stringContaining('slug'));
  });

  it('4.1 rule 3 / 2.1: an unknown slug creates a workbook with that slug (name defaults to the slug)', async () => {
    const created = await upsert(1, 'New-Board', { meta: { color: 'blue' } });
    expect(created.status).toBe(200);
    const workbook = created.body as unknown as Workbook;
    expect(workbook).toMatchObject({
      slug: 'new-board',
      name: 'new-board',
      meta: { color: 'blue' },
      calculatedFields: {},
      folderId: null,
      folderPath: [],
      type: 'WORKBOOK',
      createdBy: 1,
      userId: 1,
      user: { id: 1, email: 'ada@acme.test' },
      dashboardDraft: null,
      publishedDashboard: null,
    });
    expect(Date.parse(workbook.createdAt)).toBe(clock.now());
    expect(workbook.updatedAt).toBe(workbook.createdAt);
    expect(emulator.context.state.workbooks.get(workbook.id)?.slug).toBe('new-board');
    const named = await upsert(1, 'named-board', { name: 'Named board', folderId: 11 });
    expect(named.body).toMatchObject({ name: 'Named board', folderId: 11, folderPath: [{ id: 11, name: 'Sales' }] });
  });

  it('4.1 rule 2: on update only the fields sent change, and meta is merged into the existing metadata', async () => {
    const first = await upsert(1, 'merge-board', { name: 'Merge', folderId: 13, meta: { a: 1, b: { deep: true } } });
    const id = first.body['id'];
    clock.advance(1000);
    const metaOnly = await upsert(1, 'merge-board', { meta: { b: 2, c: 3 } });
    expect(metaOnly.body).toMatchObject({ id, name: 'Merge', folderId: 13, meta: { a: 1, b: 2, c: 3 } });
    const nameOnly = await upsert(1, 'merge-board', { name: 'Merged' });
    expect(nameOnly.body).toMatchObject({ id, name: 'Merged', folderId: 13, meta: { a: 1, b: 2, c: 3 } });
    const moved = await upsert(1, 'merge-board', { folderId: 14 });
    expect(moved.body).toMatchObject({
      folderId: 14,
      folderPath: [
        { id: 13, name: 'Finance' },
        { id: 14, name: 'Private' },
      ],
    });
    const toRoot = await upsert(1, 'merge-board', { folderId: null, name: null, meta: null });
    expect(toRoot.body).toMatchObject({
      id,
      name: 'Merged',
      folderId: null,
      folderPath: [],
      meta: { a: 1, b: 2, c: 3 },
    });
  });

  it('4.1 rule 2: a meta.dashboardDraft is validated (400) and, when valid, kept as the dashboardDraft', async () => {
    const bad = {
      meta: {
        dashboardDraft: {
          kind: 'POSTER',
          widgets: [{ id: 'w', type: 'CHART', position: { x: 0, y: 0, w: 1.5, h: 1 } }],
        },
      },
    };
    const expected = validateCreateWorkbookInput(bad);
    const answer = await upsert(1, 'draft-board', bad);
    expect(answer.status).toBe(400);
    if (expected.ok) throw new Error('expected problems');
    expect(answer.body).toEqual({ error: expected.problems.join('; '), problems: expected.problems });
    expect([...emulator.context.state.workbooks.values()].some((workbook) => workbook.slug === 'draft-board')).toBe(
      false,
    );
    const draft = {
      kind: 'CLASSIC',
      title: 'Draft',
      widgets: [{ id: 'w', type: 'TEXT', position: { x: 0, y: 0, w: 2, h: 1 } }],
    };
    const good = await upsert(1, 'draft-board', { meta: { dashboardDraft: draft } });
    expect(good.body).toMatchObject({ dashboardDraft: draft, meta: { dashboardDraft: draft } });
  });

  it('2.2: the body is validated with validateCreateWorkbookInput; no body at all is allowed', async () => {
    const answer = await upsert(1, 'typed-board', { name: 42, folderId: 'eleven' });
    expect(answer.status).toBe(400);
    const expected = validateCreateWorkbookInput({ name: 42, folderId: 'eleven' });
    expect(expected.ok ? [] : expected.problems).toEqual([
      expect.stringContaining('folderId'),
      expect.stringContaining('name'),
    ]);
    expect(answer.body['problems']).toEqual(expected.ok ? [] : expected.problems);
    expect((await upsert(1, 'bodiless-board')).status).toBe(200);
    expect((await upsert(1, 'bad-json', undefined, { raw: '{' })).status).toBe(400);
  });

  it('4.1 rule 4: re-applying the same request is a no-op (updatedAt unchanged)', async () => {
    const body = { name: 'Idempotent', folderId: 12, meta: { layout: { cols: 12 }, tags: ['a'] } };
    const first = await upsert(1, 'idempotent-board', body);
    clock.advance(60_000);
    const again = await upsert(1, 'idempotent-board', body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    clock.advance(60_000);
    const changed = await upsert(1, 'idempotent-board', { meta: { tags: ['b'] } });
    expect(Date.parse(changed.body['updatedAt'] as string)).toBe(clock.now());
    expect(changed.body['createdAt']).toBe(first.body['createdAt']);
  });

  it('4.1: folderId must name a folder of the deployment (400)', async () => {
    for (const folderId of [999, 11.5]) {
      const answer = await upsert(2, 'foldered', { folderId });
      expect(answer.status, String(folderId)).toBe(400);
    }
    const otherDeployment = await upsert(2, 'foldered', { folderId: 11 });
    expect(otherDeployment.body['error']).toEqual(expect.stringContaining('folder 11 does not exist in deployment 2'));
  });

  it('4.1 rule 8 / 7: a deployment that does not exist is 404 {"error"}', async () => {
    for (const id of [99, 'abc']) {
      const answer = await upsert(id, 'anything', {});
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
  });

  it('4.1: slugs are scoped to the deployment', async () => {
    const staging = await upsert(2, 'sales-overview', { name: 'Staging copy' });
    expect(staging.body).toMatchObject({ deploymentId: 2, slug: 'sales-overview', name: 'Staging copy' });
    expect(staging.body['id']).not.toBe(101);
    expect(emulator.context.state.workbooks.get(101)?.name).toBe('Sales overview');
  });

  it('2.1: a workbook with a published dashboard carries it', async () => {
    const answer = await upsert(1, 'sales-overview', {});
    expect(answer.body).toMatchObject({
      id: 101,
      publishedDashboard: {
        publicId: 'sales-overview',
        workbookId: 101,
        status: 'published',
        allowEmbed: true,
        reportSnapshots: [],
        title: 'Sales overview',
      },
      dashboardPublished: { title: 'Sales overview' },
    });
  });
});

describe('4.1 rules 5-6 access of a personal key (ben, editor)', () => {
  it("4.1 rule 5: updating needs edit access to the workbook holding the slug (403 on another user's workbook)", async () => {
    const refused = await upsert(1, 'sales-overview', { name: 'Hijacked' }, { authorization: personal });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: expect.any(String) });
    expect(emulator.context.state.workbooks.get(101)?.name).toBe('Sales overview');
    const own = await upsert(1, 'orders-ops', { meta: { reviewed: true } }, { authorization: personal });
    expect(own.status).toBe(200);
  });

  it('4.1 rule 5: a request with folderId needs manage access plus edit access to the folder', async () => {
    const own = await upsert(1, 'q4-review', { folderId: 12 }, { authorization: personal });
    expect(own.status).toBe(200);
    expect(own.body['folderId']).toBe(12);
    const missing = await upsert(1, 'q4-review', { folderId: 404 }, { authorization: personal });
    expect(missing.status).toBe(400);
  });

  it('4.1 rule 6: creating needs the AI BI User role or higher', async () => {
    const created = await upsert(1, 'bens-board', {}, { authorization: personal });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ createdBy: 2, user: { email: 'ben@acme.test' } });
    const ben = emulator.context.state.internalUsers.get(2)!;
    ben.role = 'viewer';
    try {
      const refused = await upsert(1, 'viewers-board', {}, { authorization: personal });
      expect(refused.status).toBe(403);
      expect(refused.body['error']).toEqual(expect.stringContaining('AI BI User'));
      // A viewer has no edit access to what they created either.
      expect((await upsert(1, 'bens-board', { name: 'x' }, { authorization: personal })).status).toBe(403);
    } finally {
      ben.role = 'editor';
    }
  });
});

describe('3 / 4.1 rule 7 the create/update branch changing before it applies', () => {
  beforeEach(async () => {
    expect((await call('/__emulator/upsert-conflicts', { method: 'DELETE', authorization: null })).status).toBe(204);
  });

  const inject = (body: unknown) => call('/__emulator/upsert-conflicts', { method: 'POST', body, authorization: null });

  it('4.1 rule 7: another writer creating the slug between decision and apply is 409 upsert_branch_changed; a retry updates', async () => {
    expect(await inject({ deploymentId: 1, slug: ' Race-Create ' })).toEqual({
      status: 200,
      body: { deploymentId: 1, slug: 'race-create', pending: 1 },
    });
    const conflict = await upsert(1, 'race-create', { name: 'Mine' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: expect.any(String), code: UPSERT_BRANCH_CHANGED });
    const holders = [...emulator.context.state.workbooks.values()].filter(
      (workbook) => workbook.slug === 'race-create',
    );
    expect(holders).toHaveLength(1);
    expect(holders[0]?.name).not.toBe('Mine');
    const retry = await upsert(1, 'race-create', { name: 'Mine' });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ id: holders[0]?.id, name: 'Mine' });
  });

  it('4.1 rule 7: another writer deleting the workbook between decision and apply is 409; nothing is applied; a retry creates', async () => {
    const original = await upsert(1, 'race-delete', { name: 'Original' });
    await inject({ deploymentId: 1, slug: 'race-delete', times: 2 });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const conflict = await upsert(1, 'race-delete', { name: 'Changed' });
      expect(conflict.status).toBe(409);
      expect(conflict.body['code']).toBe(UPSERT_BRANCH_CHANGED);
    }
    // The second injected writer re-created the slug after the first deleted it; nothing of ours applied.
    const retry = await upsert(1, 'race-delete', { name: 'Changed' });
    expect(retry.status).toBe(200);
    expect(retry.body['id']).not.toBe(original.body['id']);
    expect(
      [...emulator.context.state.workbooks.values()].filter((workbook) => workbook.slug === 'race-delete'),
    ).toHaveLength(1);
  });

  it('4.1 rule 7: requests refused before the decision (validation, access) do not consume an injected conflict', async () => {
    injectUpsertConflict(emulator.context, { deploymentId: 1, slug: 'race-guarded' });
    expect((await upsert(1, 'race-guarded', { name: 5 })).status).toBe(400);
    expect((await upsert(1, 'race-guarded', {})).status).toBe(409);
    expect((await upsert(1, 'race-guarded', {})).status).toBe(200);
  });

  it('4.1 rule 7: a real check-then-apply: a request that creates the slug while another waits in the gap makes that one 409', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inGap = new Promise<void>((resolve) => (arrived = resolve));
    setUpsertGapHook(emulator.context, async (info) => {
      if (info.slug !== 'race-real') return;
      setUpsertGapHook(emulator.context, undefined);
      expect(info).toEqual({ deploymentId: 1, slug: 'race-real', branch: 'create' });
      arrived();
      await held;
    });
    try {
      const waiting = upsert(1, 'race-real', { name: 'Waiting writer' });
      await inGap;
      const other = await upsert(1, 'race-real', { name: 'Other writer' });
      expect(other.status).toBe(200);
      release();
      const conflict = await waiting;
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({ error: expect.stringContaining('race-real'), code: UPSERT_BRANCH_CHANGED });
      const holders = [...emulator.context.state.workbooks.values()].filter(
        (workbook) => workbook.slug === 'race-real',
      );
      expect(holders.map((workbook) => workbook.name)).toEqual(['Other writer']);
    } finally {
      setUpsertGapHook(emulator.context, undefined);
      release();
    }
  });

  it('the control endpoint validates its body (400) and DELETE clears pending conflicts', async () => {
    expect((await inject({ slug: 'x' })).status).toBe(400);
    expect((await inject({ deploymentId: 1, slug: ' ' })).status).toBe(400);
    expect((await inject({ deploymentId: 1, slug: 'x', times: -1 })).status).toBe(400);
    await inject({ deploymentId: 1, slug: 'race-cleared', times: 3 });
    expect((await call('/__emulator/upsert-conflicts', { method: 'DELETE', authorization: null })).status).toBe(204);
    expect((await upsert(1, 'race-cleared', {})).status).toBe(200);
  });
});

describe('4.6 / behaviour 4 cursor-paginated lists', () => {
  it('4.6 workbooks: first/after walk every workbook of the deployment once, with items, pageInfo and the deprecated data and count', async () => {
    const expected = [...emulator.context.state.workbooks.values()]
      .filter((workbook) => workbook.deploymentId === 1)
      .map((workbook) => workbook.id)
      .sort((a, b) => a - b);
    const { items, pages } = await allPages('/api/v1/deployments/1/workbooks', 2);
    expect(items.map((item) => item['id'])).toEqual(expected);
    expect(pages.length).toBe(Math.ceil(expected.length / 2));
    const [firstPage, secondPage] = pages as [Json, Json];
    expect(firstPage['pageInfo']).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: expect.any(String),
      endCursor: expect.any(String),
    });
    expect(secondPage['pageInfo']).toMatchObject({ hasPreviousPage: true });
    for (const page of pages) {
      expect(page['data']).toEqual(page['items']);
      expect(page['count']).toBe((page['items'] as unknown[]).length);
    }
    expect((pages.at(-1)!['pageInfo'] as Json)['hasNextPage']).toBe(false);
    expect(items.every((item) => item['type'] === 'WORKBOOK' && item['deploymentId'] === 1)).toBe(true);
  });

  it('4.6: a cursor stays valid when items before it are deleted (keyset cursor)', async () => {
    const page = await call('/api/v1/deployments/1/workbooks?first=2');
    const [, second] = page.body['items'] as Json[];
    const rest = await call(
      `/api/v1/deployments/1/workbooks?first=50&after=${(page.body['pageInfo'] as Json)['endCursor'] as string}`,
    );
    const restIds = (rest.body['items'] as Json[]).map((item) => item['id']);
    expect(restIds.every((id) => (id as number) > (second!['id'] as number))).toBe(true);
    expect(restIds.length).toBeGreaterThan(0);
  });

  it('4.6: an empty page has null cursors; first defaults and is clamped; bad first or after is 400', async () => {
    const empty = await call('/api/v1/deployments/2/folders');
    expect(empty.body).toEqual({
      items: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      data: [],
      count: 0,
    });
    for (const query of ['first=0', 'first=-1', 'first=abc', 'first=1.5', 'after=garbage']) {
      const answer = await call(`/api/v1/deployments/1/workbooks?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    const folders = await call('/api/v1/deployments/1/folders?first=1');
    const folderCursor = (folders.body['pageInfo'] as Json)['endCursor'] as string;
    expect((await call(`/api/v1/deployments/1/workbooks?after=${folderCursor}`)).status).toBe(400);
    const many = Array.from({ length: MAX_PAGE_SIZE + 5 }, (_, index) => ({ id: index }));
    const list = (first: string | undefined) =>
      paginate({ items: many, tag: 't', key: (item) => [item.id], first, after: undefined, toWire: (item) => item });
    expect(list(undefined).items).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(list('1000').items).toHaveLength(MAX_PAGE_SIZE);
  });

  it('4.6 folders: items with pageInfo, walked with first/after', async () => {
    const { items } = await allPages('/api/v1/deployments/1/folders', 3);
    expect(items).toEqual([
      { id: 11, deploymentId: 1, name: 'Sales', parentId: null, type: 'FOLDER', createdAt: expect.any(String) },
      { id: 12, deploymentId: 1, name: 'Operations', parentId: null, type: 'FOLDER', createdAt: expect.any(String) },
      { id: 13, deploymentId: 1, name: 'Finance', parentId: null, type: 'FOLDER', createdAt: expect.any(String) },
      { id: 14, deploymentId: 1, name: 'Private', parentId: 13, type: 'FOLDER', createdAt: expect.any(String) },
    ]);
  });

  it('4.6 reports: sortBy name, createdAt, updatedAt; search; folderId; cursor paging per sort', async () => {
    const names = async (query: string, first = 1) =>
      (await allPages(`/api/v1/deployments/1/reports?${query}`, first)).items.map((item) => item['name']);
    expect(await names('sortBy=name')).toEqual(['Orders by status', 'Revenue by month', 'Top customers']);
    expect(await names('sortBy=createdAt')).toEqual(['Top customers', 'Orders by status', 'Revenue by month']);
    expect(await names('sortBy=updatedAt', 2)).toEqual(['Top customers', 'Orders by status', 'Revenue by month']);
    expect(await names('search=REVENUE')).toEqual(['Revenue by month']);
    expect(await names('folderId=11&sortBy=name')).toEqual(['Revenue by month', 'Top customers']);
    expect(await names('externalWorkbookId=abc')).toEqual([]);
    const report = (await call('/api/v1/deployments/1/reports?first=1')).body['items'] as Json[];
    expect(report[0]).toEqual({
      id: 301,
      deploymentId: 1,
      publicId: 'revenue-by-month',
      name: 'Revenue by month',
      folderId: 11,
      sqlQuery: expect.stringContaining('MEASURE'),
      createdAt: '2025-01-06T09:00:00.000Z',
      updatedAt: '2025-01-06T09:00:00.000Z',
      lastViewedAt: null,
      type: 'REPORT',
      externalWorkbookId: null,
      resultLocation: null,
      endResultCell: null,
    });
    expect((await call('/api/v1/deployments/1/reports?sortBy=size')).status).toBe(400);
    expect((await call('/api/v1/deployments/1/reports?folderId=x')).status).toBe(400);
    const byName = await call('/api/v1/deployments/1/reports?sortBy=name&first=1');
    expect(
      (
        await call(
          `/api/v1/deployments/1/reports?sortBy=createdAt&after=${(byName.body['pageInfo'] as Json)['endCursor'] as string}`,
        )
      ).status,
    ).toBe(400);
  });

  it('4.6 reports: cursor paging is unavailable with sortBy lastViewedAt (null cursors; after is 400)', async () => {
    const answer = await call('/api/v1/deployments/1/reports?sortBy=lastViewedAt&first=2');
    expect(answer.status).toBe(200);
    expect(answer.body['pageInfo']).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
    expect((await call('/api/v1/deployments/1/reports?sortBy=lastViewedAt&after=abc')).status).toBe(400);
  });
});

describe('4.3 embed-tenant admin', () => {
  const admin = (path: string, options: CallOptions = {}) => call(path, { authorization: embedAdmin, ...options });
  let tenant = '';
  let counter = 0;

  beforeEach(async () => {
    counter += 1;
    tenant = `tenant-${counter}-co`;
    for (const externalId of ['amy', 'bob', 'cat']) {
      const answer = await call('/api/v1/embed/generate-session', {
        method: 'POST',
        authorization: embedAdmin,
        body: {
          deploymentId: 1,
          externalId,
          embedTenantName: tenant,
          creatorMode: true,
          groupDefinitions: [{ name: 'crew' }],
          groups: externalId === 'cat' ? [] : ['crew'],
        },
      });
      expect(answer.status).toBe(200);
    }
  });

  it('4.3: the admin needs Api-Key auth with an admin key (401 for Bearer, 403 for a personal key)', async () => {
    expect((await call('/api/v1/embed-tenants/')).status).toBe(401);
    expect((await admin('/api/v1/embed-tenants/', { authorization: `Api-Key ${PERSONAL_API_KEY}` })).status).toBe(403);
    expect(
      (
        await admin(`/api/v1/embed-tenants/${tenant}`, {
          method: 'DELETE',
          authorization: `Api-Key ${PERSONAL_API_KEY}`,
        })
      ).status,
    ).toBe(403);
  });

  it('4.3: list embed tenants, cursor-paginated', async () => {
    const { items } = await allPages('/api/v1/embed-tenants/', 1, { authorization: embedAdmin });
    const names = items.map((item) => item['name']);
    expect(names).toContain('globex-corp');
    expect(names).toContain(tenant);
    expect(names).toEqual([...names].sort());
    expect(items.find((item) => item['name'] === 'globex-corp')).toEqual({
      name: 'globex-corp',
      displayName: 'Globex Corporation',
      createdAt: expect.any(String),
      userCount: 1,
      groupCount: 1,
    });
    expect(names).not.toContain('acme');
  });

  it('4.3 / 9: DELETE /api/v1/embed-tenants/{name} answers 204 and removes the tenant and its users; no trailing slash', async () => {
    expect((await admin(`/api/v1/embed-tenants/${tenant}/`, { method: 'DELETE' })).status).toBe(404);
    const deleted = await admin(`/api/v1/embed-tenants/${tenant}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toEqual({});
    expect(emulator.context.state.embedTenants.has(tenant)).toBe(false);
    expect(emulator.context.state.externalUsers.has(externalUserKey(tenant, 'amy'))).toBe(false);
    expect((await admin(`/api/v1/embed-tenants/${tenant}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin('/api/v1/embed-tenants/acme', { method: 'DELETE' })).status).toBe(404);
  });

  it('4.3: list the users of an embed tenant, cursor-paginated', async () => {
    const { items, pages } = await allPages(`/api/v1/embed-tenants/${tenant}/users`, 2, { authorization: embedAdmin });
    expect(items.map((item) => item['externalId'])).toEqual(['amy', 'bob', 'cat']);
    expect(pages).toHaveLength(2);
    expect(items[0]).toEqual({
      id: expect.any(Number),
      externalId: 'amy',
      email: null,
      displayName: null,
      picture: null,
      groups: ['crew'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await admin('/api/v1/embed-tenants/no-such-tenant/users')).status).toBe(404);
  });

  it('4.3: groups: list, create (POST), get, patch, delete (204)', async () => {
    const list = await admin(`/api/v1/embed-tenants/${tenant}/groups`);
    expect(list.body['items']).toEqual([{ id: expect.any(Number), name: 'crew', description: null, memberCount: 2 }]);
    const created = await admin(`/api/v1/embed-tenants/${tenant}/groups`, {
      method: 'POST',
      body: { name: 'Auditors', description: 'Read only' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Auditors',
      description: 'Read only',
      memberCount: 0,
    });
    expect(
      (await admin(`/api/v1/embed-tenants/${tenant}/groups`, { method: 'POST', body: { name: 'Auditors' } })).status,
    ).toBe(409);
    expect(
      (await admin(`/api/v1/embed-tenants/${tenant}/groups`, { method: 'POST', body: { description: 'no name' } }))
        .status,
    ).toBe(400);
    const id = created.body['id'] as number;
    expect((await admin(`/api/v1/embed-tenants/${tenant}/groups/${id}`)).body).toEqual(created.body);
    const patched = await admin(`/api/v1/embed-tenants/${tenant}/groups/${id}`, {
      method: 'PATCH',
      body: { description: null },
    });
    expect(patched.body).toEqual({ id, name: 'Auditors', description: null, memberCount: 0 });
    const crewId = (list.body['items'] as Json[])[0]!['id'] as number;
    const renamed = await admin(`/api/v1/embed-tenants/${tenant}/groups/${crewId}`, {
      method: 'PATCH',
      body: { name: 'team' },
    });
    expect(renamed.body).toEqual({ id: crewId, name: 'team', description: null, memberCount: 2 });
    expect(emulator.context.state.externalUsers.get(externalUserKey(tenant, 'amy'))?.groups).toEqual(new Set(['team']));
    expect(
      (await admin(`/api/v1/embed-tenants/${tenant}/groups/${crewId}`, { method: 'PATCH', body: { name: 'Auditors' } }))
        .status,
    ).toBe(409);
    const deleted = await admin(`/api/v1/embed-tenants/${tenant}/groups/${crewId}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(emulator.context.state.externalUsers.get(externalUserKey(tenant, 'amy'))?.groups).toEqual(new Set());
    expect((await admin(`/api/v1/embed-tenants/${tenant}/groups/${crewId}`)).status).toBe(404);
    expect((await admin(`/api/v1/embed-tenants/${tenant}/groups/abc`)).status).toBe(404);
  });

  it('4.3 / behaviour 4: group members: list, add and remove with { externalId } or { embedUserId }', async () => {
    const crewId = ((await admin(`/api/v1/embed-tenants/${tenant}/groups`)).body['items'] as Json[])[0]![
      'id'
    ] as number;
    const members = `/api/v1/embed-tenants/${tenant}/groups/${crewId}/users`;
    const externalIds = async () =>
      (await allPages(members, 1, { authorization: embedAdmin })).items.map((item) => item['externalId']);
    expect(await externalIds()).toEqual(['amy', 'bob']);
    expect((await admin(members, { method: 'POST', body: { externalId: ' CAT ' } })).status).toBe(204);
    expect(await externalIds()).toEqual(['amy', 'bob', 'cat']);
    expect((await admin(members, { method: 'POST', body: { externalId: 'cat' } })).status).toBe(204);
    const amyId = emulator.context.state.externalUsers.get(externalUserKey(tenant, 'amy'))!.id;
    expect((await admin(members, { method: 'DELETE', body: { embedUserId: amyId } })).status).toBe(204);
    expect((await admin(members, { method: 'DELETE', body: { externalId: 'bob' } })).status).toBe(204);
    expect(await externalIds()).toEqual(['cat']);
    expect((await admin(`${members}?externalId=cat`, { method: 'DELETE' })).status).toBe(204);
    expect(await externalIds()).toEqual([]);
    for (const body of [
      {},
      { externalId: 'amy', embedUserId: amyId },
      { externalId: 'nobody' },
      { embedUserId: 'x' },
    ]) {
      const answer = await admin(members, { method: 'POST', body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    const dana = emulator.context.state.externalUsers.get(externalUserKey('globex-corp', 'dana@globex.test'))!.id;
    expect((await admin(members, { method: 'POST', body: { embedUserId: dana } })).status).toBe(400);
  });
});

describe('4.6 signed embedding of a dashboard and workbook embed access', () => {
  it('4.6: PATCH /api/v1/embed/dashboard/{publicId} { allowEmbed } enables and disables signed embedding', async () => {
    const disabled = await call('/api/v1/embed/dashboard/orders-ops', { method: 'PATCH', body: { allowEmbed: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({
      publicId: 'orders-ops',
      allowEmbed: false,
      workbookId: 102,
      deploymentId: 1,
      status: 'published',
    });
    expect(emulator.context.state.dashboards.get('orders-ops')?.allowEmbed).toBe(false);
    const enabled = await call('/api/v1/embed/dashboard/internal-finance', {
      method: 'PATCH',
      body: { allowEmbed: true },
    });
    expect(enabled.body['allowEmbed']).toBe(true);
    expect(emulator.context.state.dashboards.get('internal-finance')?.allowEmbed).toBe(true);
    await call('/api/v1/embed/dashboard/orders-ops', { method: 'PATCH', body: { allowEmbed: true } });
    await call('/api/v1/embed/dashboard/internal-finance', { method: 'PATCH', body: { allowEmbed: false } });
  });

  it('4.6: PATCH dashboard errors: 404 unknown, 400 bad body, 403 personal key, 401 without a Bearer key', async () => {
    expect((await call('/api/v1/embed/dashboard/nope', { method: 'PATCH', body: { allowEmbed: true } })).status).toBe(
      404,
    );
    expect(
      (await call('/api/v1/embed/dashboard/orders-ops', { method: 'PATCH', body: { allowEmbed: 'yes' } })).status,
    ).toBe(400);
    expect(
      (
        await call('/api/v1/embed/dashboard/orders-ops', {
          method: 'PATCH',
          body: { allowEmbed: false },
          authorization: personal,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call('/api/v1/embed/dashboard/orders-ops', {
          method: 'PATCH',
          body: { allowEmbed: false },
          authorization: embedAdmin,
        })
      ).status,
    ).toBe(401);
    expect(emulator.context.state.dashboards.get('orders-ops')?.allowEmbed).toBe(true);
  });

  it('5 rule 2: a scoped key cannot change embedding of a dashboard of another deployment (403)', async () => {
    const dashboards = emulator.context.state.dashboards;
    dashboards.set('staging-board', {
      ...structuredClone(dashboards.get('orders-ops')!),
      id: 9001,
      publicId: 'staging-board',
      deploymentId: 2,
      workbookId: 105,
    });
    try {
      expect(
        (
          await call('/api/v1/embed/dashboard/staging-board', {
            method: 'PATCH',
            body: { allowEmbed: false },
            authorization: scoped,
          })
        ).status,
      ).toBe(403);
      expect(dashboards.get('staging-board')?.allowEmbed).toBe(true);
      expect(
        (await call('/api/v1/embed/dashboard/staging-board', { method: 'PATCH', body: { allowEmbed: false } })).status,
      ).toBe(200);
    } finally {
      dashboards.delete('staging-board');
    }
  });

  it('4.6: embed-access per embed tenant or all embed users, action read or none', async () => {
    const path = '/api/v1/deployments/1/workbooks/101/embed-access';
    expect((await call(path)).body).toEqual({ workbookId: 101, allEmbedUsers: 'none', embedTenants: [] });
    expect(embedAccessFor(emulator.context, 101, 'globex-corp')).toBe('none');
    const tenantRead = await call(path, { method: 'PUT', body: { embedTenantName: 'globex-corp', action: 'read' } });
    expect(tenantRead.body).toEqual({
      workbookId: 101,
      allEmbedUsers: 'none',
      embedTenants: [{ embedTenantName: 'globex-corp', action: 'read' }],
    });
    expect(embedAccessFor(emulator.context, 101, 'globex-corp')).toBe('read');
    await call(path, { method: 'PUT', body: { action: 'read' } });
    await call(path, { method: 'PUT', body: { embedTenantName: 'globex-corp', action: 'none' } });
    expect((await call(path)).body).toEqual({
      workbookId: 101,
      allEmbedUsers: 'read',
      embedTenants: [{ embedTenantName: 'globex-corp', action: 'none' }],
    });
    expect(embedAccessFor(emulator.context, 101, 'globex-corp')).toBe('none');
    expect(embedAccessFor(emulator.context, 101, 'other-tenant')).toBe('read');
  });

  it('4.6: embed-access errors: 400 bad action or unknown tenant, 404 unknown workbook, 403 without manage access or scope', async () => {
    const path = '/api/v1/deployments/1/workbooks/102/embed-access';
    expect((await call(path, { method: 'PUT', body: { action: 'write' } })).status).toBe(400);
    expect(
      (await call(path, { method: 'PUT', body: { action: 'read', embedTenantName: 'no-such-tenant' } })).status,
    ).toBe(400);
    expect((await call('/api/v1/deployments/1/workbooks/999/embed-access')).status).toBe(404);
    expect((await call('/api/v1/deployments/2/workbooks/102/embed-access')).status).toBe(404);
    expect(
      (
        await call('/api/v1/deployments/1/workbooks/101/embed-access', {
          method: 'PUT',
          body: { action: 'read' },
          authorization: personal,
        })
      ).status,
    ).toBe(403);
    expect((await call(path, { method: 'PUT', body: { action: 'read' }, authorization: personal })).status).toBe(200);
    expect((await call('/api/v1/deployments/2/workbooks/105/embed-access', { authorization: scoped })).status).toBe(
      403,
    );
  });
});

describe('5: every endpoint of 4.6 and SCIM checks the credential first, as the existing endpoints', () => {
  /** [method, path with deployment `{d}`, admin key only]; SCIM takes `Api-Key` too. */
  const ENDPOINTS: [string, string, boolean][] = [
    ['GET', '/api/v1/deployments/{d}/build-status', false],
    ['GET', '/api/v1/deployments/{d}/logs', false],
    ['GET', '/api/v1/deployments/{d}/pods', false],
    ['GET', '/api/v1/deployments/{d}/env-vars', true],
    ['PUT', '/api/v1/deployments/{d}/env-vars', true],
    ['POST', '/api/v1/deployments/{d}/creation-step/advance', true],
    ['POST', '/api/v1/deployments/{d}/creation-step/reset', true],
    ['GET', '/api/v1/deployments/{d}/environments', false],
    ['PUT', '/api/v1/deployments/{d}', true],
    ['DELETE', '/api/v1/deployments/{d}', true],
    ['POST', '/api/v1/deployments/{d}/transform-sync', true],
    ['GET', '/build/api/v1/deployments/{d}/data-model/files', false],
    ['PUT', '/build/api/v1/deployments/{d}/data-model/files', false],
    ['DELETE', '/build/api/v1/deployments/{d}/data-model/files', false],
    ['POST', '/build/api/v1/deployments/{d}/data-model/files/rename', false],
    ['POST', '/build/api/v1/deployments/{d}/data-model/upload/start', false],
    ['POST', '/build/api/v1/deployments/{d}/data-model/upload/file', false],
    ['POST', '/build/api/v1/deployments/{d}/data-model/upload/finish', false],
    ['GET', '/build/api/v1/deployments/{d}/data-model/file-hashes', false],
    ['POST', '/build/api/v1/deployments/{d}/dev-mode', false],
    ['DELETE', '/build/api/v1/deployments/{d}/dev-mode', false],
    ['GET', '/build/api/v1/deployments/{d}/branches', false],
    ['POST', '/build/api/v1/deployments/{d}/branches', false],
    ['POST', '/build/api/v1/deployments/{d}/commit', false],
    ['POST', '/build/api/v1/deployments/{d}/pull', false],
    ['POST', '/build/api/v1/deployments/{d}/merge', false],
    ['POST', '/build/api/v1/deployments/{d}/merge-to-default', false],
    ['POST', '/build/api/v1/deployments/{d}/repohost/connect', true],
    ['PUT', '/api/v1/deployments/{d}/reports/by-public-id/walk', false],
    ['PUT', '/api/v1/deployments/{d}/reports/301/connect-workbook', false],
    ['POST', '/api/v1/deployments/{d}/workbooks/101/duplicate', false],
    ['POST', '/api/v1/deployments/{d}/workbooks/101/dashboard/ai-widget-thread', false],
    ['GET', '/api/v1/deployments/{d}/notifications', false],
    ['POST', '/api/v1/deployments/{d}/notifications', false],
    ['PUT', '/api/v1/deployments/{d}/notifications/401', false],
    ['POST', '/api/v1/deployments/{d}/workspace/bulk-delete', false],
    ['POST', '/api/v1/deployments/{d}/workspace/bulk-move', false],
    ['POST', '/build/api/v1/deployments/', true],
    ['GET', '/api/v1/regions/', false],
    ['GET', '/api/v1/repohost/status', false],
    ['GET', '/api/v1/repohost/installations', false],
    ['GET', '/api/v1/repohost/installations/501/repositories', false],
    ['GET', '/api/v1/repohost/repositories/acme/analytics-model/branches', false],
    ['GET', '/api/v1/users/', true],
    ['POST', '/api/v1/users/', true],
    ['PUT', '/api/v1/users/3', true],
    ['DELETE', '/api/v1/users/3', true],
    ['POST', '/api/v1/users/bulk', true],
    ['GET', '/api/v1/user-attributes/', true],
    ['POST', '/api/v1/user-attributes/', true],
    ['GET', '/api/v1/user-attributes/1', true],
    ['PUT', '/api/v1/user-attributes/1', true],
    ['GET', '/api/v1/user-attribute-values/2', true],
    ['POST', '/api/v1/user-attribute-values/', true],
    ['GET', '/api/v1/tenant/settings', true],
    ['PUT', '/api/v1/tenant/settings', true],
    ['GET', '/api/v1/app-config', false],
    ['GET', '/api/v1/oauth-integrations/', true],
    ['POST', '/api/v1/oauth-integrations/', true],
    ['GET', '/api/v1/oauth-integrations/1', true],
    ['PUT', '/api/v1/oauth-integrations/1', true],
    ['DELETE', '/api/v1/oauth-integrations/1', true],
    ['GET', '/api/v1/user-oauth-tokens/', false],
    ['DELETE', '/api/v1/user-oauth-tokens/1', false],
    ['POST', '/api/v1/user-oauth-tokens/1/initiate', false],
    ['GET', '/api/v1/oidc-token-configs/', true],
    ['POST', '/api/v1/oidc-token-configs/', true],
    ['GET', '/api/v1/oidc-token-configs/1', true],
    ['PUT', '/api/v1/oidc-token-configs/1', true],
    ['DELETE', '/api/v1/oidc-token-configs/1', true],
    ['POST', '/api/v1/embed/dashboard/sales-overview/python-run', true],
    ['GET', '/api/scim/v2/Users', true],
    ['POST', '/api/scim/v2/Users', true],
    ['GET', '/api/scim/v2/Users/1', true],
    ['PUT', '/api/scim/v2/Users/1', true],
    ['PATCH', '/api/scim/v2/Users/1', true],
    ['DELETE', '/api/scim/v2/Users/1', true],
    ['GET', '/api/scim/v2/Groups', true],
    ['POST', '/api/scim/v2/Groups', true],
    ['GET', '/api/scim/v2/Groups/1', true],
    ['PUT', '/api/scim/v2/Groups/1', true],
    ['PATCH', '/api/scim/v2/Groups/1', true],
    ['DELETE', '/api/scim/v2/Groups/1', true],
  ];
  const at = (path: string, deploymentId: number) => path.replace('{d}', String(deploymentId));
  /** A broken body where a method may carry one: the credential must be refused before it is read. */
  const raw = (method: string) => (method === 'GET' ? undefined : '{"not json');

  it('5 rule 3: no credential, another scheme or an unknown key is 401 {"error"}, before any body is read', async () => {
    for (const [method, path] of ENDPOINTS) {
      const scim = path.startsWith('/api/scim/');
      for (const authorization of [
        null,
        scim ? `Basic ${ADMIN_API_KEY}` : `Api-Key ${ADMIN_API_KEY}`,
        'Bearer svc_nope',
      ]) {
        const answer = await call(at(path, 1), { method, raw: raw(method), authorization });
        expect([method, path, String(authorization), answer.status], JSON.stringify(answer.body)).toEqual([
          method,
          path,
          String(authorization),
          401,
        ]);
        expect(answer.body).toEqual({ error: expect.any(String) });
      }
    }
  });

  it('5 rule 2: a key scoped to deployment 1 is 403 on deployment 2, before anything else is looked at', async () => {
    for (const [method, path] of ENDPOINTS.filter(([, template]) => template.includes('{d}'))) {
      const answer = await call(at(path, 2), { method, raw: raw(method), authorization: scoped });
      expect([method, path, answer.status]).toEqual([method, path, 403]);
    }
  });

  it('a personal key is 403 on the endpoints that need an admin key', async () => {
    for (const [method, path] of ENDPOINTS.filter(([, , admin]) => admin)) {
      const answer = await call(at(path, 1), { method, raw: raw(method), authorization: personal });
      expect([method, path, answer.status]).toEqual([method, path, 403]);
    }
  });
});
