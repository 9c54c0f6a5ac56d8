/**
 * Workbooks and dashboards of the management API (docs/protocol.md §2.1–2.6), the workbook upsert by slug
 * (§3, §4.1), cursor-paginated lists (§4.3, §4.6, behaviour §4) and the management error body (§7).
 *
 * @module
 */
import * as v from 'valibot';
import type { ServiceErrorCode } from './error-codes';
import { issuesToProblems, type ValidationResult } from './session';
import { isRecord } from './shared';

// ---------------------------------------------------------------------------------------------
// Resources (§2.1–2.6)
// ---------------------------------------------------------------------------------------------

/** Kinds of workspace item (§2.1 `type`). */
export const WORKBOOK_TYPES = ['FOLDER', 'WORKBOOK', 'REPORT'] as const;
/** Kind of workspace item. */
export type WorkbookType = (typeof WORKBOOK_TYPES)[number];

/** One ancestor of the folder that holds a workbook (§2.1 `folderPath`). */
export interface FolderPathEntry {
  /** Folder id. */
  id: number;
  /** Folder name. */
  name: string;
}

/** Owner of a resource (§2.6). */
export interface ResourceOwner {
  /** User id. */
  id: number;
  /** Email address. */
  email: string;
  /** First name, when known. */
  firstName?: string | null;
  /** Avatar URL, when any. */
  picture?: string | null;
}

/** A workbook (§2.1). */
export interface Workbook {
  /** Workbook id. */
  id: number;
  /** Its deployment. */
  deploymentId: number;
  /** Workbook name. */
  name: string;
  /** Free-form metadata; the upsert merges into it (§4.1 rule 2). */
  meta: Record<string, unknown>;
  /** The workbook's calculated fields: always present, their structure not published (§2.1), so free-form. */
  calculatedFields: Record<string, unknown>;
  /** ISO `date` or `date-time`. */
  createdAt: string;
  /** ISO `date` or `date-time`. */
  updatedAt: string;
  /** Kind of workbook. */
  type: WorkbookType;
  /** Id of the user who created it. */
  createdBy?: number;
  /** The dashboard being edited, not yet published. */
  dashboardDraft?: DashboardConfig | null;
  /** The configuration last published. */
  dashboardPublished?: DashboardConfig | null;
  /** Its folder; `null` at the top. */
  folderId?: number | null;
  /** Ancestor chain of the containing folder, outermost first. */
  folderPath?: FolderPathEntry[];
  /** Whether the caller marked it as a favourite. */
  isFavorite?: boolean | null;
  /** The published dashboard, with its public id. */
  publishedDashboard?: Dashboard | null;
  /** Deployment-scoped stable identity; stored normalised ({@link normalizeSlug}). */
  slug?: string | null;
  /** Its owner. */
  user?: ResourceOwner | null;
  /** Its owner's id. */
  userId?: number | null;
}

/**
 * Body of the workbook upsert (§2.2). Every field is optional and so is the body; only the fields
 * sent change on update, and `meta` is merged (§4.1 rule 2).
 */
export interface CreateWorkbookInput {
  /** Destination folder; needs manage access plus edit access to the folder (§4.1 rule 5). */
  folderId?: number | null;
  /** Merged into the existing metadata; a `dashboardDraft` in it is validated as a {@link DashboardConfig}. */
  meta?: Record<string, unknown> | null;
  /** Workbook name. */
  name?: string | null;
}

/** Dashboard kinds (§2.3): a widget document, or an app of authored files. */
export const DASHBOARD_KINDS = ['CLASSIC', 'APP'] as const;
/** Dashboard kind. */
export type DashboardKind = (typeof DASHBOARD_KINDS)[number];

/** Widget types (§2.3). */
export const WIDGET_TYPES = ['CHART', 'TEXT', 'FILTER', 'AI', 'TABS_CONTAINER', 'TIME_GRAIN'] as const;
/** Widget type. */
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** A value per responsive breakpoint (§2.3 `breakpoints`, `cols`). */
export interface BreakpointValues {
  /** Value at the `lg` (widest) breakpoint, an integer. */
  lg?: number | null;
  /** Value at the `md` breakpoint, an integer. */
  md?: number | null;
  /** Value at the `sm` breakpoint, an integer. */
  sm?: number | null;
  /** Value at the `xs` breakpoint, an integer. */
  xs?: number | null;
  /** Value at the `xxs` (narrowest) breakpoint, an integer. */
  xxs?: number | null;
}

/** Grid layout of a classic dashboard (§2.3). All integers. */
export interface DashboardLayout {
  /** The threshold of each breakpoint, one integer per breakpoint; the unit is not published. */
  breakpoints?: BreakpointValues | null;
  /** Columns of the grid at each breakpoint: the unit of a widget's `x` and `w` there. */
  cols?: BreakpointValues | null;
  /** Padding inside the grid's edges, as integers; their order and unit are not published. */
  containerPadding?: number[] | null;
  /** Space between widgets, as integers (the emulator's world uses `[16, 16]`); order and unit not published. */
  margin?: number[] | null;
  /** Height of one grid row (the unit of a widget's `y` and `h`), an integer. */
  rowHeight?: number | null;
}

/** Position of a widget on the grid, in grid units (§2.3); all integers, all required. */
export interface WidgetPosition {
  /** Column of the left edge, in grid units. */
  x: number;
  /** Row of the top edge, in grid units. */
  y: number;
  /** Width, in grid columns. */
  w: number;
  /** Height, in grid rows. */
  h: number;
}

/** Positions per breakpoint that override `position` (§2.3). */
export interface ResponsiveLayouts {
  /** Position at the `lg` (widest) breakpoint. */
  lg?: WidgetPosition | null;
  /** Position at the `md` breakpoint. */
  md?: WidgetPosition | null;
  /** Position at the `sm` breakpoint. */
  sm?: WidgetPosition | null;
  /** Position at the `xs` breakpoint. */
  xs?: WidgetPosition | null;
  /** Position at the `xxs` (narrowest) breakpoint. */
  xxs?: WidgetPosition | null;
}

/** A widget of a classic dashboard (§2.3). `config` and `style` are not published (§2.9). */
export interface DashboardWidget {
  /** Widget id, unique in the dashboard. */
  id: string;
  /** Kind of widget. */
  type: WidgetType;
  /** Where it sits on the grid. */
  position: WidgetPosition;
  /** The widget's settings (query, chart type, text...). */
  config?: Record<string, unknown> | null;
  /** The widget's visual style; free-form, its structure is not published (§2.9). */
  style?: Record<string, unknown> | null;
  /** Positions per breakpoint that replace `position` at that breakpoint. */
  responsiveLayouts?: ResponsiveLayouts | null;
}

/** Longest `DashboardAppSource.entry` the service accepts (§2.3, §8). */
export const MAX_APP_ENTRY_LENGTH = 255;

/** Package manifest of an app dashboard (§2.3). */
export interface DashboardAppManifest {
  /** Package name to version range. */
  dependencies?: Record<string, string> | null;
  /** Version of the manifest, an integer. */
  version?: number | null;
}

/** Source of a dashboard of kind `APP` (§2.3). */
export interface DashboardAppSource {
  /** Entry file path, at most `MAX_APP_ENTRY_LENGTH` characters. */
  entry?: string | null;
  /** File path to file contents. */
  files?: Record<string, string> | null;
  /** HTML of the app; how the service combines it with `files` is not published. */
  html?: string | null;
  /** The app's package manifest: its dependencies and version. */
  manifest?: DashboardAppManifest | null;
}

/**
 * A dashboard document (§2.3): every field optional and nullable. It is also the input form
 * (`meta.dashboardDraft`), in which `widgets` is optional too.
 */
export interface DashboardConfig {
  /** `CLASSIC` (widgets on a grid) or `APP` (an HTML app). */
  kind?: DashboardKind | null;
  /** Dashboard title. */
  title?: string | null;
  /** Description. */
  description?: string | null;
  /** The grid. */
  layout?: DashboardLayout | null;
  /** The widgets of a classic dashboard. */
  widgets?: DashboardWidget[] | null;
  /** Dashboard settings; free-form, their structure is not published (§2.9). */
  settings?: Record<string, unknown> | null;
  /** The dashboard's theme; free-form, its structure is not published (§2.9). */
  theme?: Record<string, unknown> | null;
  /** The source of an app dashboard. */
  app?: DashboardAppSource | null;
}

/** Dashboard statuses (§2.4); transitions are not published. */
export const DASHBOARD_STATUSES = ['draft', 'published', 'archived'] as const;
/** Dashboard status. */
export type DashboardStatus = (typeof DASHBOARD_STATUSES)[number];

/** Kinds of report snapshot (§2.5). */
export const REPORT_KINDS = ['vega', 'table', 'kpi', 'html', 'map'] as const;
/** Report snapshot kind. */
export type ReportKind = (typeof REPORT_KINDS)[number];

/** Column number formats of a report (§2.5 `preferences.columnFormats`). */
export interface ColumnFormat {
  /** How values are shown. */
  type: 'currency' | 'percent' | 'number';
  /** Digits after the decimal point. */
  decimalPlaces?: number | null;
}

/** A period comparison of a report (§2.5). */
export interface PeriodComparison {
  /** The measure compared across periods. */
  measure: string;
  /** The time dimension that defines the periods. */
  timeDimension: string;
  /** The distance between the compared periods: `amount` times `unit`. */
  offset: {
    /** How many `unit`s apart the periods are, an integer. */
    amount: number;
    /** The unit of `amount`, a string; its values are not published. */
    unit: string;
  };
  /** Which comparison values the report shows; their names are not published. */
  outputs?: string[] | null;
}

/** A report as frozen in a dashboard version (§2.5). */
export interface ReportSnapshot {
  /** Snapshot id. */
  id: number;
  /** The report it is a version of. */
  reportId: number;
  /** The report's version. */
  versionNumber: number;
  /** Report name. */
  name?: string | null;
  /** Title shown on the dashboard. */
  title?: string | null;
  /** Description. */
  description?: string | null;
  /** The SQL it runs. */
  sqlQuery?: string | null;
  /** Kind of report. */
  kind?: ReportKind | null;
  /** Free-form metadata of the report; its structure is not published (§2.9). */
  meta?: Record<string, unknown> | null;
  /** What the report renders, as text or as an object; its format per `kind` is not published. */
  spec?: string | Record<string, unknown> | null;
  /** Fill rows that are missing from the result along one member; `null` fills none. */
  fillMissingRows?: {
    /** The member whose missing values get rows. */
    member: string;
    /** Dimensions left out of the filling. */
    excludedDimensions?: string[] | null;
  } | null;
  /** Period-over-period comparisons the report computes. */
  periodComparisons?: PeriodComparison[] | null;
  /** How the report shows its values. */
  preferences?: {
    /** The number format of each column, keyed by column name. */
    columnFormats: Record<string, ColumnFormat>;
  } | null;
}

/** A published dashboard (§2.4); `publicId` is what embed URLs name. */
export interface Dashboard {
  /** Dashboard id. */
  id: number;
  /** Public id: what embeds and links use. */
  publicId: string;
  /** Its deployment. */
  deploymentId: number;
  /** The workbook it belongs to. */
  workbookId: number;
  /** `draft`, `published` or `archived`. */
  status: DashboardStatus;
  /** Whether signed embedding is enabled for it. */
  allowEmbed: boolean;
  /** Its widgets and layout. */
  config: DashboardConfig;
  /** Published version number. */
  versionNumber: number;
  /** Id of that version. */
  versionId: number;
  /** The reports its widgets show, as published. */
  reportSnapshots: ReportSnapshot[];
  /** Id of the user who created it. */
  createdBy?: number | null;
  /** Dashboard title. */
  title?: string | null;
  /** Description. */
  description?: string | null;
  /** Whether the dashboard comes from the shared workspace; the interface names the flag without defining it (§2.4). */
  fromSharedWorkspace?: boolean | null;
  /** Whether viewers are kept from downloading data. */
  restrictDataDownload?: boolean | null;
  /** A flag of the service that the interface names without defining (§2.4); kept as received. */
  useBoardDashboards?: boolean | null;
}

// ---------------------------------------------------------------------------------------------
// Slug (§4.1 rule 1)
// ---------------------------------------------------------------------------------------------

/**
 * The one home of §4.1 rule 1: a slug is trimmed and lowercased before matching, so
 * `' Q3-Review '` and `q3-review` name the same workbook. Locale-independent.
 */
export function normalizeSlug(slug: string): string {
  return slug.trim().toLowerCase();
}

/** Checks a slug and returns it normalised; an empty slug (after trimming) is a problem. */
export function validateSlug(slug: unknown): ValidationResult<string> {
  if (typeof slug !== 'string') return { ok: false, problems: ['slug: must be a string such as "q3-review"'] };
  const normalized = normalizeSlug(slug);
  if (normalized === '') return { ok: false, problems: ['slug: must not be empty or only spaces'] };
  return { ok: true, value: normalized };
}

/**
 * Path of the upsert (§4.1): `/api/v1/deployments/{deploymentId}/workbooks/by-slug/{slug}`, with
 * the slug normalised and percent-encoded.
 */
export function workbookBySlugPath(deploymentId: number, slug: string): string {
  return `/api/v1/deployments/${deploymentId}/workbooks/by-slug/${encodeURIComponent(normalizeSlug(slug))}`;
}

// ---------------------------------------------------------------------------------------------
// Validators
// ---------------------------------------------------------------------------------------------

/**
 * @internal A schema built on first use. Module loading builds nothing, so a bundle that never
 * uses a schema drops it (the call is pure and its argument is a function): a partner who only
 * mints sessions does not carry the workbook, SCIM or platform schemas.
 */
export function deferred<T extends v.GenericSchema>(make: () => T): v.LazySchema<T> {
  let built: T | undefined;
  return v.lazy(() => (built ??= make()));
}

/** @internal A plain object (not an array, not null) whose known fields are checked; others pass through. */
export function objectWith<const TEntries extends v.ObjectEntries>(entries: TEntries, message: string) {
  return v.pipe(v.custom<Record<string, unknown>>(isRecord, message), v.looseObject(entries, message));
}

const freeForm = (message: string) => v.nullish(v.custom<Record<string, unknown>>(isRecord, message));
const integer = (message: string) => v.pipe(v.number(message), v.integer(message));
const nullableString = () => v.nullish(v.string('must be a string or null'));
const nullableInteger = () => v.nullish(integer('must be a whole number or null'));

// A function, not a deferred schema: an object entry is optional only when its own schema says so.
const breakpointValues = () =>
  v.nullish(
    objectWith(
      {
        lg: nullableInteger(),
        md: nullableInteger(),
        sm: nullableInteger(),
        xs: nullableInteger(),
        xxs: nullableInteger(),
      },
      'must be an object { lg?, md?, sm?, xs?, xxs? } of whole numbers',
    ),
  );

const PositionSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      x: integer('must be a whole number'),
      y: integer('must be a whole number'),
      w: integer('must be a whole number'),
      h: integer('must be a whole number'),
    },
    'must be an object { x, y, w, h } of whole numbers',
  ),
);

const stringMap = (message: string, valueMessage: string) =>
  v.nullish(v.pipe(v.custom(isRecord, message), v.record(v.string(), v.string(valueMessage), message)));

const DashboardConfigSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      kind: v.nullish(v.picklist(DASHBOARD_KINDS, `must be one of ${DASHBOARD_KINDS.join(', ')}`)),
      title: nullableString(),
      description: nullableString(),
      layout: v.nullish(
        objectWith(
          {
            breakpoints: breakpointValues(),
            cols: breakpointValues(),
            containerPadding: v.nullish(
              v.array(integer('must be a whole number'), 'must be an array of whole numbers'),
            ),
            margin: v.nullish(v.array(integer('must be a whole number'), 'must be an array of whole numbers')),
            rowHeight: nullableInteger(),
          },
          'must be an object { breakpoints?, cols?, containerPadding?, margin?, rowHeight? }',
        ),
      ),
      widgets: v.nullish(
        v.array(
          objectWith(
            {
              id: v.string('must be a string'),
              type: v.picklist(WIDGET_TYPES, `must be one of ${WIDGET_TYPES.join(', ')}`),
              position: PositionSchema,
              config: freeForm('must be an object or null'),
              style: freeForm('must be an object or null'),
              responsiveLayouts: v.nullish(
                objectWith(
                  {
                    lg: v.nullish(PositionSchema),
                    md: v.nullish(PositionSchema),
                    sm: v.nullish(PositionSchema),
                    xs: v.nullish(PositionSchema),
                    xxs: v.nullish(PositionSchema),
                  },
                  'must be an object { lg?, md?, sm?, xs?, xxs? } of positions',
                ),
              ),
            },
            'must be an object { id, type, position }',
          ),
          'must be an array of widgets',
        ),
      ),
      settings: freeForm('must be an object or null'),
      theme: freeForm('must be an object or null'),
      app: v.nullish(
        objectWith(
          {
            entry: v.nullish(
              v.pipe(
                v.string('must be a string, the path of the entry file'),
                v.maxLength(
                  MAX_APP_ENTRY_LENGTH,
                  (issue) => `must be at most ${MAX_APP_ENTRY_LENGTH} characters (it has ${issue.received})`,
                ),
              ),
            ),
            files: stringMap(
              'must be an object mapping file paths to file contents, or null',
              'must be a string, the contents of the file',
            ),
            html: nullableString(),
            manifest: v.nullish(
              objectWith(
                {
                  dependencies: stringMap(
                    'must be an object mapping package names to versions, or null',
                    'must be a string, a version range such as ^19.0.0',
                  ),
                  version: nullableInteger(),
                },
                'must be an object { dependencies?, version? }',
              ),
            ),
          },
          'must be an object { entry?, files?, html?, manifest? }',
        ),
      ),
    },
    'must be an object (a dashboard config) or null',
  ),
);

/**
 * Checks a dashboard config (§2.3, input form) such as `meta.dashboardDraft`: enums, integer grid
 * values, required widget fields, `app.entry` at most `MAX_APP_ENTRY_LENGTH` characters.
 * Unknown fields pass through. `path` prefixes each problem (default `dashboardConfig`).
 */
export function validateDashboardConfig(
  input: unknown,
  options: { path?: string } = {},
): ValidationResult<DashboardConfig> {
  return validateWith(DashboardConfigSchema, input, options.path ?? 'dashboardConfig');
}

const CreateWorkbookInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      folderId: v.nullish(
        v.pipe(v.number('must be a number (a folder id) or null'), v.finite('must be a finite number')),
      ),
      meta: freeForm('must be an object or null; it is merged into the existing metadata'),
      name: nullableString(),
    },
    'must be an object { folderId?, meta?, name? } or left out',
  ),
);

/**
 * Checks the upsert body (§2.2). The body is optional: `undefined` is valid and yields `{}`, which
 * the service treats the same as no body. A `meta.dashboardDraft` is checked with
 * `validateDashboardConfig` (§4.1 rule 2). Unknown fields pass through.
 */
export function validateCreateWorkbookInput(input: unknown): ValidationResult<CreateWorkbookInput> {
  if (input === undefined) return { ok: true, value: {} };
  const parsed = v.safeParse(CreateWorkbookInputSchema, input, { abortEarly: false });
  const problems = issuesToProblems(parsed.issues, { fallback: 'body' });
  const meta = isRecord(input) ? input['meta'] : undefined;
  if (isRecord(meta) && meta['dashboardDraft'] != null) {
    const draft = validateDashboardConfig(meta['dashboardDraft'], { path: 'meta.dashboardDraft' });
    if (!draft.ok) problems.push(...draft.problems);
  }
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  return { ok: true, value: parsed.output };
}

// Resources the service answers with (§2.1, §2.4 to §2.6). Unknown fields pass through: the
// service adds optional fields within v1 (§9).

const finiteNumber = (message: string) => v.pipe(v.number(message), v.finite(message));
const nullableBoolean = () => v.nullish(v.boolean('must be true, false or null'));
/** ISO `date` or `date-time` (§2.1 `createdAt`, `updatedAt`). */
const isoDateOrDateTime = /*#__PURE__*/ deferred(() =>
  v.pipe(
    v.string('must be an ISO date or date-time string'),
    v.regex(
      /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
      'must be an ISO date or date-time string',
    ),
  ),
);

const ResourceOwnerSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      id: integer('must be a whole number'),
      email: v.string('must be a string'),
      firstName: nullableString(),
      picture: nullableString(),
    },
    'must be an object { id, email, firstName?, picture? }',
  ),
);

const ReportSnapshotSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      id: integer('must be a whole number'),
      reportId: integer('must be a whole number'),
      versionNumber: integer('must be a whole number'),
      name: nullableString(),
      title: nullableString(),
      description: nullableString(),
      sqlQuery: nullableString(),
      kind: v.nullish(v.picklist(REPORT_KINDS, `must be one of ${REPORT_KINDS.join(', ')} or null`)),
      meta: freeForm('must be an object or null'),
      spec: v.nullish(
        v.union([v.string(), v.custom<Record<string, unknown>>(isRecord)], 'must be a string, an object or null'),
      ),
      fillMissingRows: v.nullish(
        objectWith(
          {
            member: v.string('must be a string'),
            excludedDimensions: v.nullish(v.array(v.string('must be a string'), 'must be an array of strings or null')),
          },
          'must be an object { member, excludedDimensions? } or null',
        ),
      ),
      periodComparisons: v.nullish(
        v.array(
          objectWith(
            {
              measure: v.string('must be a string'),
              timeDimension: v.string('must be a string'),
              offset: objectWith(
                { amount: integer('must be a whole number'), unit: v.string('must be a string') },
                'must be an object { amount, unit }',
              ),
              outputs: v.nullish(v.array(v.string('must be a string'), 'must be an array of strings or null')),
            },
            'must be an object { measure, timeDimension, offset, outputs? }',
          ),
          'must be an array of period comparisons or null',
        ),
      ),
      preferences: v.nullish(
        objectWith(
          {
            columnFormats: v.pipe(
              v.custom<Record<string, unknown>>(isRecord, 'must be an object of column formats'),
              v.record(
                v.string(),
                objectWith(
                  {
                    type: v.picklist(['currency', 'percent', 'number'], 'must be one of currency, percent, number'),
                    decimalPlaces: nullableInteger(),
                  },
                  'must be an object { type, decimalPlaces? }',
                ),
              ),
            ),
          },
          'must be an object { columnFormats } or null',
        ),
      ),
    },
    'must be an object (a report snapshot)',
  ),
);

const DashboardSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      id: integer('must be a whole number'),
      publicId: v.string('must be a string'),
      deploymentId: integer('must be a whole number'),
      workbookId: integer('must be a whole number'),
      status: v.picklist(DASHBOARD_STATUSES, `must be one of ${DASHBOARD_STATUSES.join(', ')}`),
      allowEmbed: v.boolean('must be true or false'),
      config: DashboardConfigSchema,
      versionNumber: integer('must be a whole number'),
      versionId: integer('must be a whole number'),
      reportSnapshots: v.array(ReportSnapshotSchema, 'must be an array of report snapshots'),
      createdBy: nullableInteger(),
      title: nullableString(),
      description: nullableString(),
      fromSharedWorkspace: nullableBoolean(),
      restrictDataDownload: nullableBoolean(),
      useBoardDashboards: nullableBoolean(),
    },
    'must be an object (a dashboard)',
  ),
);

const WorkbookSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      id: integer('must be a whole number'),
      deploymentId: integer('must be a whole number'),
      name: v.string('must be a string'),
      meta: v.custom<Record<string, unknown>>(isRecord, 'must be an object'),
      calculatedFields: v.custom<Record<string, unknown>>(isRecord, 'must be an object'),
      createdAt: isoDateOrDateTime,
      updatedAt: isoDateOrDateTime,
      type: v.picklist(WORKBOOK_TYPES, `must be one of ${WORKBOOK_TYPES.join(', ')}`),
      createdBy: v.optional(integer('must be a whole number')),
      dashboardDraft: v.nullish(DashboardConfigSchema),
      dashboardPublished: v.nullish(DashboardConfigSchema),
      folderId: v.nullish(finiteNumber('must be a number or null')),
      folderPath: v.optional(
        v.array(
          objectWith(
            { id: integer('must be a whole number'), name: v.string('must be a string') },
            'must be an object { id, name }',
          ),
          'must be an array of { id, name }',
        ),
      ),
      isFavorite: nullableBoolean(),
      publishedDashboard: v.nullish(DashboardSchema),
      slug: nullableString(),
      user: v.nullish(ResourceOwnerSchema),
      userId: v.nullish(finiteNumber('must be a number or null')),
    },
    'must be an object (a workbook)',
  ),
);

/**
 * @internal The one way a protocol schema checks an input: every issue at once, each problem
 * starting with its field path below `root` (the whole input is named `root`, or `fallback`).
 */
export function validateWith<T>(
  schema: v.GenericSchema<unknown, T>,
  input: unknown,
  root: string,
  fallback: string = root,
): ValidationResult<T> {
  const parsed = v.safeParse(schema, input, { abortEarly: false });
  if (!parsed.success) return { ok: false, problems: issuesToProblems(parsed.issues, { root, fallback }) };
  return { ok: true, value: parsed.output };
}

/** Checks a resource owner (§2.6): `id` and `email` required, `firstName` and `picture` nullable. */
export function validateResourceOwner(input: unknown): ValidationResult<ResourceOwner> {
  return validateWith(ResourceOwnerSchema, input, 'owner');
}

/** Checks a report snapshot (§2.5): required ids and version, enums, nested shapes. */
export function validateReportSnapshot(input: unknown): ValidationResult<ReportSnapshot> {
  return validateWith(ReportSnapshotSchema, input, 'reportSnapshot');
}

/** Checks a dashboard (§2.4) with its config (§2.3) and report snapshots (§2.5). */
export function validateDashboard(input: unknown): ValidationResult<Dashboard> {
  return validateWith(DashboardSchema, input, 'dashboard');
}

/**
 * Checks a workbook answered by the service (§2.1) in full: required fields, `date`/`date-time`
 * timestamps, the type enum, and the nested dashboard configs, published dashboard and owner.
 */
export function validateWorkbook(input: unknown): ValidationResult<Workbook> {
  return validateWith(WorkbookSchema, input, 'workbook');
}

/** Light check of a workbook answered by the service: the required fields of §2.1 are present. */
export function isWorkbook(value: unknown): value is Workbook {
  return (
    isRecord(value) &&
    typeof value['id'] === 'number' &&
    typeof value['deploymentId'] === 'number' &&
    typeof value['name'] === 'string' &&
    WORKBOOK_TYPES.some((type) => type === value['type'])
  );
}

// ---------------------------------------------------------------------------------------------
// Lists (§4.3, §4.6, behaviour §4)
// ---------------------------------------------------------------------------------------------

/** Query of a cursor-paginated list (§4.3, §4.6). */
export interface CursorPageParams {
  /** Page size. Default: the service's. */
  first?: number;
  /** `endCursor` of the previous page; omit for the first page. */
  after?: string;
}

/** Cursor block of a list page. */
export interface PageInfo {
  /** Whether a page follows. */
  hasNextPage: boolean;
  /** Whether a page precedes. */
  hasPreviousPage: boolean;
  /** Cursor of the first item; `null` on an empty page. */
  startCursor: string | null;
  /** Cursor of the last item: pass it as `after` for the next page. */
  endCursor: string | null;
}

/**
 * A page of a management list. Current responses carry `items` and `pageInfo`; the deprecated
 * `data` and `count` (0.1.0, 0.1.1) are still populated by some, and the deployments list has
 * `items` without `pageInfo`. Read it with `pageItems` and `nextPageCursor`.
 */
export interface ListPage<T> {
  /** The items of this page. */
  items?: T[];
  /** Where this page stands. */
  pageInfo?: PageInfo;
  /** @deprecated Use `items`. */
  data?: T[];
  /** @deprecated Count of `data`. */
  count?: number;
}

/** The items of a page: `items`, or the deprecated `data` when `items` is absent. */
export function pageItems<T>(page: ListPage<T>): T[] {
  return page.items ?? page.data ?? [];
}

/**
 * The cursor to pass as `after` for the next page, or `undefined` when this is the last page
 * (no `pageInfo`, `hasNextPage` false, or no `endCursor`).
 */
export function nextPageCursor(page: ListPage<unknown>): string | undefined {
  const info = page.pageInfo;
  return info?.hasNextPage && typeof info.endCursor === 'string' && info.endCursor !== '' ? info.endCursor : undefined;
}

/** True when `value` has the shape of a {@link ListPage}: an object whose `items` or `data` is an array. */
export function isListPage(value: unknown): value is ListPage<unknown> {
  return isRecord(value) && (Array.isArray(value['items']) || Array.isArray(value['data']));
}

// ---------------------------------------------------------------------------------------------
// Errors (§3, §4.1, §7, behaviour §4)
// ---------------------------------------------------------------------------------------------

/** `code` of the 409 answered when the upsert's create/update branch changed concurrently; retry. */
export const UPSERT_BRANCH_CHANGED = 'upsert_branch_changed' satisfies ServiceErrorCode;

/** Error body of the management API: `{ error }`, plus `code` where the interface names one. */
export interface ManagementErrorBody {
  /** The service's message. */
  error: string;
  /** A machine-readable code, such as `upsert_branch_changed`. */
  code?: string;
}

/** True when `value` is a management error body. */
export function isManagementErrorBody(value: unknown): value is ManagementErrorBody {
  return (
    isRecord(value) &&
    typeof value['error'] === 'string' &&
    (value['code'] === undefined || typeof value['code'] === 'string')
  );
}
