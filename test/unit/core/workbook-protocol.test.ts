import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MAX_APP_ENTRY_LENGTH,
  UPSERT_BRANCH_CHANGED,
  isListPage,
  isManagementErrorBody,
  isWorkbook,
  nextPageCursor,
  normalizeSlug,
  pageItems,
  validateCreateWorkbookInput,
  validateDashboardConfig,
  validateDashboard,
  validateReportSnapshot,
  validateResourceOwner,
  validateSlug,
  validateWorkbook,
  workbookBySlugPath,
  type DashboardConfig,
  type ListPage,
} from '../../../src/core/protocol/workbook';

function problemsOf(input: unknown): string[] {
  const result = validateCreateWorkbookInput(input);
  if (result.ok) throw new Error(`expected problems, got ${JSON.stringify(result.value)}`);
  return result.problems;
}

const widget = { id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 } };

describe('slug', () => {
  it('4.1 rule 1 normalizeSlug trims and lowercases', () => {
    expect(normalizeSlug('  Q3-Review \t')).toBe('q3-review');
    expect(normalizeSlug('ALREADY')).toBe('already');
  });

  it('4.1 rule 1 normalisation is idempotent and ignores surrounding spaces (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('', ' ', '\t', ' \n '), (slug, pad) => {
        const once = normalizeSlug(slug);
        expect(normalizeSlug(once)).toBe(once);
        expect(normalizeSlug(`${pad}${slug}${pad}`)).toBe(once);
        expect(once).toBe(once.toLowerCase());
      }),
    );
  });

  it('4.1 validateSlug returns the normalised slug and rejects an empty one', () => {
    expect(validateSlug(' Sales ')).toEqual({ ok: true, value: 'sales' });
    expect(validateSlug('   ')).toEqual({ ok: false, problems: ['slug: must not be empty or only spaces'] });
    expect(validateSlug(7)).toEqual({ ok: false, problems: ['slug: must be a string such as "q3-review"'] });
  });

  it('4.1 workbookBySlugPath normalises and percent-encodes the slug', () => {
    expect(workbookBySlugPath(42, ' Q3 Review/Draft ')).toBe(
      '/api/v1/deployments/42/workbooks/by-slug/q3%20review%2Fdraft',
    );
  });
});

describe('validateCreateWorkbookInput', () => {
  it('2.2 the body is optional: undefined is valid and yields {}', () => {
    expect(validateCreateWorkbookInput(undefined)).toEqual({ ok: true, value: {} });
  });

  it('2.2 every field is optional and nullable', () => {
    for (const input of [{}, { folderId: null, meta: null, name: null }, { folderId: 3, meta: { a: 1 }, name: 'Q3' }])
      expect(validateCreateWorkbookInput(input)).toEqual({ ok: true, value: input });
  });

  it('2.2 field types are checked, each problem naming its field', () => {
    expect(problemsOf({ folderId: '3', meta: [], name: 5 })).toEqual([
      'folderId: must be a number (a folder id) or null',
      'meta: must be an object or null; it is merged into the existing metadata',
      'name: must be a string or null',
    ]);
  });

  it('2.2 the body must be an object', () => {
    expect(problemsOf('x')).toEqual(['body: must be an object { folderId?, meta?, name? } or left out']);
    expect(problemsOf(null)).toEqual(['body: must be an object { folderId?, meta?, name? } or left out']);
  });

  it('2.2 unknown fields pass through', () => {
    expect(validateCreateWorkbookInput({ name: 'a', slugTakeover: true })).toEqual({
      ok: true,
      value: { name: 'a', slugTakeover: true },
    });
  });

  it(`2.3 / 8 meta.dashboardDraft.app.entry: at most ${MAX_APP_ENTRY_LENGTH} characters`, () => {
    const ok = {
      meta: { dashboardDraft: { kind: 'APP', app: { entry: 'e'.repeat(255), files: { 'index.html': '<p>' } } } },
    };
    expect(validateCreateWorkbookInput(ok).ok).toBe(true);
    const long = { meta: { dashboardDraft: { kind: 'APP', app: { entry: 'e'.repeat(256) } } } };
    expect(problemsOf(long)).toEqual(['meta.dashboardDraft.app.entry: must be at most 255 characters (it has 256)']);
  });

  it('4.1 rule 2 meta.dashboardDraft is validated as a dashboard config; null or absent is fine', () => {
    expect(validateCreateWorkbookInput({ meta: { dashboardDraft: null, other: 1 } }).ok).toBe(true);
    expect(problemsOf({ meta: { dashboardDraft: { kind: 'SLIDES' } } })).toEqual([
      'meta.dashboardDraft.kind: must be one of CLASSIC, APP',
    ]);
    expect(problemsOf({ meta: { dashboardDraft: 'x' } })).toEqual([
      'meta.dashboardDraft: must be an object (a dashboard config) or null',
    ]);
  });
});

describe('validateDashboardConfig', () => {
  it('2.3 a full classic config is accepted', () => {
    const config: DashboardConfig = {
      kind: 'CLASSIC',
      title: 'Sales',
      description: null,
      layout: {
        breakpoints: { lg: 1200, md: 996, sm: null },
        cols: { lg: 12, xxs: 2 },
        containerPadding: [10, 10],
        margin: [8, 8],
        rowHeight: 30,
      },
      widgets: [
        {
          ...widget,
          type: 'CHART',
          config: { reportId: 1 },
          style: null,
          responsiveLayouts: { sm: { x: 0, y: 0, w: 2, h: 2 }, xs: null },
        },
      ],
      settings: {},
      theme: null,
      app: null,
    };
    expect(validateDashboardConfig(config)).toEqual({ ok: true, value: config });
  });

  it('2.3 the input form: widgets optional, every field nullable', () => {
    expect(validateDashboardConfig({}).ok).toBe(true);
    expect(validateDashboardConfig({ widgets: null, layout: null, kind: null }).ok).toBe(true);
  });

  it('2.3 widget: id, type (enum) and integer position are required', () => {
    const result = validateDashboardConfig(
      { widgets: [{ type: 'GAUGE', position: { x: 0, y: 0.5, w: 1 } }] },
      { path: 'config' },
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        'config.widgets[0].id: is required',
        'config.widgets[0].type: must be one of CHART, TEXT, FILTER, AI, TABS_CONTAINER, TIME_GRAIN',
        'config.widgets[0].position.y: must be a whole number',
        'config.widgets[0].position.h: is required',
      ],
    });
  });

  it.each([['CHART'], ['TEXT'], ['FILTER'], ['AI'], ['TABS_CONTAINER'], ['TIME_GRAIN']])(
    '2.3 widget type %s is accepted',
    (type) => {
      expect(validateDashboardConfig({ widgets: [{ ...widget, type }] }).ok).toBe(true);
    },
  );

  it('2.3 layout values are integers', () => {
    expect(validateDashboardConfig({ layout: { rowHeight: 1.5, margin: [1, 'x'], cols: { lg: '12' } } })).toEqual({
      ok: false,
      problems: [
        'dashboardConfig.layout.cols.lg: must be a whole number or null',
        'dashboardConfig.layout.margin[1]: must be a whole number',
        'dashboardConfig.layout.rowHeight: must be a whole number or null',
      ],
    });
  });

  it('2.3 app source: files and manifest.dependencies map strings to strings; manifest.version an integer', () => {
    expect(
      validateDashboardConfig({
        app: { files: { 'a.js': 1 }, manifest: { dependencies: { react: 19 }, version: '1' }, html: 3 },
      }),
    ).toEqual({
      ok: false,
      problems: [
        'dashboardConfig.app.files["a.js"]: must be a string, the contents of the file',
        'dashboardConfig.app.html: must be a string or null',
        'dashboardConfig.app.manifest.dependencies.react: must be a string, a version range such as ^19.0.0',
        'dashboardConfig.app.manifest.version: must be a whole number or null',
      ],
    });
  });

  it('2.3 problems quote map keys that are file paths', () => {
    expect(validateDashboardConfig({ app: { files: { 'src/main.tsx': 1 } } }, { path: 'draft' })).toEqual({
      ok: false,
      problems: ['draft.app.files["src/main.tsx"]: must be a string, the contents of the file'],
    });
  });
});

describe('list pages', () => {
  const pageInfo = { hasNextPage: true, hasPreviousPage: false, startCursor: 'a', endCursor: 'b' };

  it('4.6 pageItems reads items', () => {
    expect(pageItems({ items: [1, 2], pageInfo })).toEqual([1, 2]);
  });

  it('4.6 / 9 pageItems falls back to the deprecated data when items is absent', () => {
    expect(pageItems({ data: [3], count: 1 })).toEqual([3]);
  });

  it('4.6 pageItems prefers items over data, and an empty page is []', () => {
    expect(pageItems({ items: [1], data: [9] })).toEqual([1]);
    expect(pageItems({})).toEqual([]);
  });

  it('4.3 nextPageCursor: endCursor while hasNextPage, otherwise undefined', () => {
    expect(nextPageCursor({ items: [], pageInfo })).toBe('b');
    expect(nextPageCursor({ items: [], pageInfo: { ...pageInfo, hasNextPage: false } })).toBeUndefined();
    expect(nextPageCursor({ items: [], pageInfo: { ...pageInfo, endCursor: null } })).toBeUndefined();
    // The deployments list has items and no pageInfo: a single page.
    expect(nextPageCursor({ items: [1] } satisfies ListPage<number>)).toBeUndefined();
  });

  it('4.6 isListPage: an object with an items or data array', () => {
    expect(isListPage({ items: [] })).toBe(true);
    expect(isListPage({ data: [], count: 0 })).toBe(true);
    expect(isListPage({ items: 'x' })).toBe(false);
    expect(isListPage([])).toBe(false);
  });
});

describe('management errors and resources', () => {
  it('3 / 7 upsert branch change code', () => {
    expect(UPSERT_BRANCH_CHANGED).toBe('upsert_branch_changed');
  });

  it('behaviour 4 management error body: { error, code? }', () => {
    expect(isManagementErrorBody({ error: 'conflict', code: UPSERT_BRANCH_CHANGED })).toBe(true);
    expect(isManagementErrorBody({ error: 'Not found' })).toBe(true);
    expect(isManagementErrorBody({ error: 1 })).toBe(false);
    expect(isManagementErrorBody({ error: 'x', code: 409 })).toBe(false);
    expect(isManagementErrorBody('x')).toBe(false);
  });

  it('2.1 isWorkbook checks the required identity fields and type enum', () => {
    const workbook = {
      id: 1,
      deploymentId: 42,
      name: 'Q3',
      meta: {},
      calculatedFields: {},
      createdAt: '2026-01-01',
      updatedAt: '2026-01-01T00:00:00Z',
      type: 'WORKBOOK',
    };
    expect(isWorkbook(workbook)).toBe(true);
    expect(isWorkbook({ ...workbook, type: 'DASHBOARD' })).toBe(false);
    expect(isWorkbook({ ...workbook, id: '1' })).toBe(false);
  });
});

const owner = { id: 7, email: 'ada@acme.test', firstName: 'Ada', picture: null };
const snapshot = {
  id: 1,
  reportId: 301,
  versionNumber: 2,
  kind: 'vega',
  spec: { mark: 'bar' },
  fillMissingRows: { member: 'orders.created_at', excludedDimensions: null },
  periodComparisons: [
    { measure: 'orders.count', timeDimension: 'orders.created_at', offset: { amount: 1, unit: 'year' }, outputs: null },
  ],
  preferences: { columnFormats: { revenue: { type: 'currency', decimalPlaces: 2 } } },
};
const dashboard = {
  id: 9,
  publicId: 'sales-overview',
  deploymentId: 1,
  workbookId: 101,
  status: 'published',
  allowEmbed: true,
  config: { kind: 'CLASSIC', widgets: [widget] },
  versionNumber: 3,
  versionId: 33,
  reportSnapshots: [snapshot],
  title: null,
};
const workbook = {
  id: 101,
  deploymentId: 1,
  name: 'Sales overview',
  meta: {},
  calculatedFields: {},
  createdAt: '2026-01-05',
  updatedAt: '2026-01-06T10:11:12.000Z',
  type: 'WORKBOOK',
  folderId: null,
  folderPath: [{ id: 11, name: 'Sales' }],
  publishedDashboard: dashboard,
  slug: 'sales-overview',
  user: owner,
  userId: 7,
  aFieldAddedLater: true,
};

function problems(result: { ok: true } | { ok: false; problems: string[] }): string[] {
  return result.ok ? [] : result.problems;
}

describe('resources (2.1, 2.4, 2.5, 2.6)', () => {
  it('2.6 ResourceOwner: id and email required, firstName and picture nullable', () => {
    expect(validateResourceOwner(owner).ok).toBe(true);
    expect(validateResourceOwner({ id: 7, email: 'a@b.c' }).ok).toBe(true);
    expect(problems(validateResourceOwner({ id: 7 }))).toEqual([expect.stringMatching(/^owner\.email: /)]);
    expect(problems(validateResourceOwner({ id: 1.5, email: 'a@b.c' }))).toEqual([
      expect.stringMatching(/^owner\.id: .*whole number/),
    ]);
  });

  it('2.5 ReportSnapshot: ids and versionNumber required; kind enum; spec a string or an object; nested shapes', () => {
    expect(validateReportSnapshot(snapshot).ok).toBe(true);
    expect(
      validateReportSnapshot({ id: 1, reportId: 2, versionNumber: 1, spec: '{"mark":"bar"}', kind: null }).ok,
    ).toBe(true);
    expect(problems(validateReportSnapshot({ id: 1, reportId: 2 }))).toEqual([
      expect.stringMatching(/^reportSnapshot\.versionNumber: /),
    ]);
    expect(problems(validateReportSnapshot({ ...snapshot, kind: 'pie' }))).toEqual([
      expect.stringMatching(/^reportSnapshot\.kind: .*vega, table, kpi, html, map/),
    ]);
    expect(problems(validateReportSnapshot({ ...snapshot, spec: 3 }))).toEqual([
      expect.stringMatching(/^reportSnapshot\.spec: /),
    ]);
    expect(
      problems(
        validateReportSnapshot({
          ...snapshot,
          periodComparisons: [{ measure: 'm', timeDimension: 't', offset: { amount: 1 } }],
        }),
      ),
    ).toEqual([expect.stringMatching(/^reportSnapshot\.periodComparisons\[0\]\.offset\.unit: /)]);
    expect(
      problems(validateReportSnapshot({ ...snapshot, preferences: { columnFormats: { revenue: { type: 'money' } } } })),
    ).toEqual([
      expect.stringMatching(/^reportSnapshot\.preferences\.columnFormats\.revenue\.type: .*currency, percent, number/),
    ]);
  });

  it('2.4 Dashboard: required fields, status enum, allowEmbed boolean, config and snapshots checked', () => {
    expect(validateDashboard(dashboard).ok).toBe(true);
    expect(problems(validateDashboard({ ...dashboard, status: 'live' }))).toEqual([
      expect.stringMatching(/^dashboard\.status: .*draft, published, archived/),
    ]);
    expect(problems(validateDashboard({ ...dashboard, allowEmbed: 'yes' }))).toEqual([
      expect.stringMatching(/^dashboard\.allowEmbed: /),
    ]);
    expect(problems(validateDashboard({ ...dashboard, config: { widgets: [{ id: 'w', type: 'CHART' }] } }))).toEqual([
      expect.stringMatching(/^dashboard\.config\.widgets\[0\]\.position: /),
    ]);
    const { reportSnapshots: _omitted, ...withoutSnapshots } = dashboard;
    expect(problems(validateDashboard(withoutSnapshots))).toEqual([
      expect.stringMatching(/^dashboard\.reportSnapshots: /),
    ]);
  });

  it('2.1 Workbook: required fields, date or date-time timestamps, type enum, nested dashboard and owner; unknown fields pass', () => {
    const result = validateWorkbook(workbook);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toMatchObject({ aFieldAddedLater: true });
    expect(problems(validateWorkbook({ ...workbook, createdAt: 'yesterday' }))).toEqual([
      expect.stringMatching(/^workbook\.createdAt: .*ISO date/),
    ]);
    expect(problems(validateWorkbook({ ...workbook, type: 'SHEET' }))).toEqual([
      expect.stringMatching(/^workbook\.type: .*FOLDER, WORKBOOK, REPORT/),
    ]);
    expect(problems(validateWorkbook({ ...workbook, user: { id: 7 } }))).toEqual([
      expect.stringMatching(/^workbook\.user\.email: /),
    ]);
    expect(problems(validateWorkbook({ ...workbook, publishedDashboard: { ...dashboard, versionId: 'v3' } }))).toEqual([
      expect.stringMatching(/^workbook\.publishedDashboard\.versionId: /),
    ]);
    const { calculatedFields: _omitted, ...withoutCalculatedFields } = workbook;
    expect(problems(validateWorkbook(withoutCalculatedFields))).toEqual([
      expect.stringMatching(/^workbook\.calculatedFields: /),
    ]);
    expect(validateWorkbook({ ...workbook, publishedDashboard: null, user: null, dashboardDraft: null }).ok).toBe(true);
  });
});
