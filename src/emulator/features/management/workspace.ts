/**
 * The workspace of the management API (interface 2.1-2.6, 3, 4.1, 4.6), as the client's
 * `workspace` group: workbooks, folders, reports, scheduled notifications, workbook embed access
 * and the bulk operations on workspace items. `Bearer` auth; every key may read the lists of its
 * deployments (a scoped key gets 403 on another deployment, checked before its existence).
 *
 * | method | path below `/api/v1/deployments/{deploymentId}` | access |
 * |---|---|---|
 * | PUT | `/workbooks/by-slug/{slug}` | see `upsert.ts` |
 * | GET | `/workbooks`, `/folders`, `/reports`, `/notifications` | any key |
 * | POST | `/workbooks/{workbookId}/duplicate` | AI BI User or higher (editor) |
 * | POST | `/workbooks/{workbookId}/dashboard/ai-widget-thread` | edit access to the workbook |
 * | GET, PUT | `/workbooks/{workbookId}/embed-access` | PUT: manage access |
 * | PUT | `/reports/by-public-id/{publicId}` | editor |
 * | PUT | `/reports/{reportId}/connect-workbook` | any key (read access, 4.6) |
 * | POST, PUT | `/notifications`, `/notifications/{notificationId}` | editor |
 * | POST | `/workspace/bulk-delete`, `/workspace/bulk-move` | per item, see below |
 *
 * Access (4.1 rules 5-6; the world has no per-item permissions, so these are the emulator's
 * choice): an admin key acts with full access. A personal key acts as its internal user (`ben`,
 * an editor): `admin` users have full access; `editor` may create workbooks, reports and
 * notifications, has edit and manage access to the workbooks they created and edit access to every
 * folder; `viewer` may only read.
 *
 * Lists (4.6, behaviour 4) page with `first`/`after` through `paginate` (see `shared.ts`).
 * Workbooks and folders by id. Reports: `sortBy` `name` (ascending, case-insensitive),
 * `createdAt` or `updatedAt` (newest first), `lastViewedAt` (most recent first, never-viewed last;
 * with it `after` is a 400 and the page has null cursors, as cursor paging is unavailable);
 * default by id. `search` matches names case-insensitively; `folderId` keeps the reports of that
 * folder; `externalWorkbookId` keeps the reports connected to that external workbook. Notifications
 * by id, filtered by `dashboardPublicId`, `recipientUserId`, `recipientEmail`, or
 * `recipientEmbedTenantName` with `recipientExternalId` (one without the other is a 400), each
 * checked with the protocol's `validateNotificationListFilters`.
 *
 * Wire shapes where the interface shows none: folder `{ id, deploymentId, name, parentId, type:
 * 'FOLDER', createdAt }`; report `{ id, deploymentId, publicId, name, folderId, sqlQuery,
 * createdAt, updatedAt, lastViewedAt: null, type: 'REPORT', externalWorkbookId, resultLocation,
 * endResultCell }`; notification `{ id, deploymentId, dashboardId, dashboardPublicId, name,
 * schedule, recipients, filters, timeGrains, createdBy, createdAt, updatedAt }`; a Dashboard (2.4)
 * carries `checksum`.
 *
 * Writes (bodies checked with the protocol's validators, 400 `{ error, problems }`; a body that
 * names what does not exist, such as a folder, a dashboard, a user or an embed tenant, is a 400):
 * - duplicate `{ shared? }` → 201, the copy: name `<name> (copy)`, same folder and meta, no slug,
 *   no published dashboard, owned by the caller. The emulator's workspace is all shared, so
 *   `shared` changes nothing.
 * - ai-widget-thread `{ threadId, widgetId, checksum? }` → 200 Dashboard: sets `threadId` in the
 *   widget's `config`. 404 when the workbook has no published dashboard, 400 for a widget it does
 *   not hold, 409 when `checksum` is not the dashboard's current one (another write came first).
 * - embed-access PUT `{ action: 'read'|'none', embedTenantName?: string | null }` sets the access
 *   of that embed tenant (it must exist, 400), or of all embed users when the name is absent or
 *   null; GET and PUT answer `{ workbookId, allEmbedUsers, embedTenants: [{ embedTenantName,
 *   action }] }`. Default `none` for all embed users.
 * - report by public id: an existing report changes only in the fields sent (`publicId` renames
 *   it: 409 when taken); a new one gets the name (default the public id), folder and SQL sent.
 * - connect-workbook `{ externalWorkbookId, resultLocation?, endResultCell? }` → 200 Report.
 * - notifications: create needs exactly one of `dashboardId` or `dashboardPublicId` of a
 *   dashboard of the deployment → 201; PUT changes the fields sent → 200; 404 unknown id.
 * - bulk-delete `{ items }` / bulk-move `{ items, folderId }` → 200 `{ succeeded: [{ type, id }],
 *   failed: [{ item: { type, id }, error, code }] }`, items in the order sent, each on its own:
 *   `not_found` (no such item in the deployment), `forbidden` (no edit access; manage access to
 *   move a workbook), `conflict` (a folder that is not empty cannot be deleted; a folder cannot
 *   move into itself or below itself). A move's destination folder must exist (400) and the caller
 *   needs edit access to it (403) before any item is looked at.
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import {
  REPORT_SORTS,
  validateAiWidgetThreadInput,
  validateBulkDeleteInput,
  validateBulkMoveInput,
  validateConnectWorkbookInput,
  validateDuplicateWorkbookInput,
  validateEmbedAccessInput,
  validateNotificationInput,
  validateNotificationListFilters,
  validateNotificationPatch,
  validateReportInput,
  type BulkFailure,
  type NotificationFields,
  type NotificationListFilters,
  type ReportSort,
  type WorkspaceItemRef,
} from '../../../core/protocol/management';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonResponse } from '../../http';
import type { DashboardRecord, Folder, ReportRecord, WorkbookRecord } from '../../state';
import { controlUpsertConflicts, clearUpsertConflicts, upsertWorkbook, UPSERT_CONFLICTS_CONTROL_PATH } from './upsert';
import {
  actorOf,
  canEditFolder,
  canEditWorkbook,
  canManageWorkbook,
  compareValues,
  dashboardChecksum,
  dashboardWire,
  deleteWorkbook,
  embedAccessState,
  invalid,
  iso,
  listAnswer,
  managementAuth,
  noContent,
  parseId,
  readValid,
  requireDeployment,
  valid,
  workbookWire,
  type Actor,
  type DeploymentRecord,
  type SortKey,
} from './shared';

// ---------------------------------------------------------------------------------------------
// Lookups and wire shapes
// ---------------------------------------------------------------------------------------------

function requireWorkbook(
  context: EmulatorContext,
  c: Context<EmulatorEnv>,
  deployment: DeploymentRecord,
): WorkbookRecord {
  const id = parseId(c.req.param('workbookId'));
  const workbook = id === undefined ? undefined : context.state.workbooks.get(id);
  if (!workbook || workbook.deploymentId !== deployment.id)
    throw httpError(404, `Workbook ${c.req.param('workbookId') ?? ''} not found in deployment ${deployment.id}`);
  return workbook;
}

function folderWire(folder: Folder) {
  return {
    id: folder.id,
    deploymentId: folder.deploymentId,
    name: folder.name,
    parentId: folder.parentId,
    type: 'FOLDER' as const,
    createdAt: iso(folder.createdAt),
  };
}

function reportWire(report: ReportRecord) {
  return {
    id: report.id,
    deploymentId: report.deploymentId,
    publicId: report.publicId,
    name: report.name,
    folderId: report.folderId,
    sqlQuery: report.sqlQuery,
    createdAt: iso(report.createdAt),
    updatedAt: iso(report.updatedAt),
    lastViewedAt: null,
    type: 'REPORT' as const,
    externalWorkbookId: report.connection?.externalWorkbookId ?? null,
    resultLocation: report.connection?.resultLocation ?? null,
    endResultCell: report.connection?.endResultCell ?? null,
  };
}

function embedAccessWire(context: EmulatorContext, workbookId: number) {
  const access = embedAccessState(context).get(workbookId);
  return {
    workbookId,
    allEmbedUsers: access?.allEmbedUsers ?? 'none',
    embedTenants: [...(access?.embedTenants ?? new Map())]
      .sort(([a], [b]) => compareValues(a, b))
      .map(([embedTenantName, action]) => ({ embedTenantName, action })),
  };
}

/** A folder of the deployment, or a 400 naming the field that named it. */
function folderIn(context: EmulatorContext, deployment: DeploymentRecord, folderId: number, field: string): Folder {
  const folder = context.state.folders.get(folderId);
  if (!folder || folder.deploymentId !== deployment.id)
    throw invalid([`${field}: folder ${folderId} does not exist in deployment ${deployment.id}`]);
  return folder;
}

function reportSort(sortBy: ReportSort | undefined): { key: (report: ReportRecord) => SortKey; order: 'asc' | 'desc' } {
  switch (sortBy) {
    case 'name':
      return { key: (report) => [report.name.toLowerCase(), report.id], order: 'asc' };
    case 'createdAt':
      return { key: (report) => [report.createdAt, report.id], order: 'desc' };
    case 'updatedAt':
      return { key: (report) => [report.updatedAt, report.id], order: 'desc' };
    case 'lastViewedAt':
      // Reports are never viewed in the emulator: every lastViewedAt is null, so the id decides.
      return { key: (report) => [null, report.id], order: 'desc' };
    case undefined:
      return { key: (report) => [report.id], order: 'asc' };
  }
}

// ---------------------------------------------------------------------------------------------
// Scheduled notifications
// ---------------------------------------------------------------------------------------------

interface NotificationRecord extends NotificationFields {
  id: number;
  deploymentId: number;
  dashboardPublicId: string;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
}

const NOTIFICATIONS = Symbol('emulator.management.notifications');

function notificationsOf(context: EmulatorContext): Map<number, NotificationRecord> {
  return context.state.featureState(NOTIFICATIONS, () => {
    const now = context.clock.now();
    return new Map(
      context.world.notifications.map((notification) => [
        notification.id,
        { ...structuredClone(notification), createdBy: 1, createdAt: now, updatedAt: now },
      ]),
    );
  });
}

function notificationWire(context: EmulatorContext, notification: NotificationRecord) {
  const { createdAt, updatedAt, ...rest } = notification;
  return {
    ...structuredClone(rest),
    dashboardId: context.state.dashboards.get(notification.dashboardPublicId)?.id ?? null,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}

/** The dashboard a notification body names (by id or public id) in the deployment, or a 400. */
function notifiedDashboard(
  context: EmulatorContext,
  deployment: DeploymentRecord,
  input: { dashboardId?: number; dashboardPublicId?: string },
): DashboardRecord | undefined {
  if (input.dashboardId === undefined && input.dashboardPublicId === undefined) return undefined;
  const found = [...context.state.dashboards.values()].find(
    (dashboard) =>
      dashboard.deploymentId === deployment.id &&
      (input.dashboardId === undefined
        ? dashboard.publicId === input.dashboardPublicId
        : dashboard.id === input.dashboardId),
  );
  if (!found) {
    const field = input.dashboardId === undefined ? 'dashboardPublicId' : 'dashboardId';
    throw invalid([
      `${field}: no dashboard ${JSON.stringify(input.dashboardId ?? input.dashboardPublicId)} in deployment ${deployment.id}`,
    ]);
  }
  return found;
}

/** Recipients must exist: internal users by id, embed tenants by name (400 otherwise). */
function checkRecipients(context: EmulatorContext, recipients: NotificationFields['recipients']): void {
  const problems: string[] = [];
  recipients?.forEach((recipient, index) => {
    if ('userId' in recipient && !context.state.internalUsers.has(recipient.userId))
      problems.push(`recipients[${index}].userId: no user ${recipient.userId}`);
    if ('embedTenantName' in recipient && !context.state.embedTenants.has(recipient.embedTenantName))
      problems.push(`recipients[${index}].embedTenantName: no embed tenant "${recipient.embedTenantName}"`);
  });
  if (problems.length > 0) throw invalid(problems);
}

function matchesFilters(notification: NotificationRecord, query: NotificationListFilters): boolean {
  const recipients = notification.recipients ?? [];
  const has = (test: (recipient: Record<string, unknown>) => boolean) =>
    recipients.some((recipient) => test(recipient as Record<string, unknown>));
  return (
    (query.dashboardPublicId === undefined || notification.dashboardPublicId === query.dashboardPublicId) &&
    (query.recipientUserId === undefined || has((r) => r['userId'] === query.recipientUserId)) &&
    (query.recipientEmail === undefined ||
      has((r) => String(r['email']).toLowerCase() === query.recipientEmail?.toLowerCase())) &&
    (query.recipientExternalId === undefined ||
      has(
        (r) => r['embedTenantName'] === query.recipientEmbedTenantName && r['externalId'] === query.recipientExternalId,
      ))
  );
}

function requireCreator(actor: Actor, doing: string): void {
  if (!actor.creator) throw httpError(403, `${doing} needs the AI BI User role or higher`);
}

// ---------------------------------------------------------------------------------------------
// Bulk operations
// ---------------------------------------------------------------------------------------------

interface BulkOutcome {
  succeeded: WorkspaceItemRef[];
  failed: BulkFailure<WorkspaceItemRef>[];
}

/** Runs `apply` on each item in order, collecting per-item failures (4.6: reported, not thrown). */
function eachItem(
  items: readonly WorkspaceItemRef[],
  apply: (item: WorkspaceItemRef) => { error: string; code: string } | undefined,
): BulkOutcome {
  const outcome: BulkOutcome = { succeeded: [], failed: [] };
  for (const item of items) {
    const failure = apply(item);
    if (failure) outcome.failed.push({ item: { type: item.type, id: item.id }, ...failure });
    else outcome.succeeded.push({ type: item.type, id: item.id });
  }
  return outcome;
}

const notFound = (item: WorkspaceItemRef) => ({ error: `${item.type} ${item.id} not found`, code: 'not_found' });
const forbidden = (item: WorkspaceItemRef, access: string) => ({
  error: `No ${access} access to ${item.type} ${item.id}`,
  code: 'forbidden',
});

/** Finds an item of the deployment by type and id. */
function findItem(context: EmulatorContext, deployment: DeploymentRecord, item: WorkspaceItemRef) {
  const record =
    item.type === 'FOLDER'
      ? context.state.folders.get(item.id)
      : item.type === 'WORKBOOK'
        ? context.state.workbooks.get(item.id)
        : context.state.reports.get(item.id);
  return record && record.deploymentId === deployment.id ? record : undefined;
}

function folderIsEmpty(context: EmulatorContext, folderId: number): boolean {
  const inside = (record: { folderId?: number | null; parentId?: number | null }) =>
    record.folderId === folderId || record.parentId === folderId;
  return (
    ![...context.state.folders.values()].some(inside) &&
    ![...context.state.workbooks.values()].some(inside) &&
    ![...context.state.reports.values()].some(inside)
  );
}

/** True when `folderId` is `ancestorId` or below it. */
function isWithin(context: EmulatorContext, folderId: number | null, ancestorId: number): boolean {
  const seen = new Set<number>();
  for (let id = folderId; id !== null && !seen.has(id); id = context.state.folders.get(id)?.parentId ?? null) {
    if (id === ancestorId) return true;
    seen.add(id);
  }
  return false;
}

function bulkDelete(context: EmulatorContext, deployment: DeploymentRecord, actor: Actor, items: WorkspaceItemRef[]) {
  return eachItem(items, (item) => {
    const record = findItem(context, deployment, item);
    if (!record) return notFound(item);
    if (item.type === 'WORKBOOK') {
      if (!canEditWorkbook(actor, record as WorkbookRecord)) return forbidden(item, 'edit');
      deleteWorkbook(context, record as WorkbookRecord);
    } else if (item.type === 'REPORT') {
      if (!actor.creator) return forbidden(item, 'edit');
      context.state.reports.delete(item.id);
    } else {
      if (!canEditFolder(actor)) return forbidden(item, 'edit');
      if (!folderIsEmpty(context, item.id))
        return { error: `FOLDER ${item.id} is not empty: delete or move what it holds first`, code: 'conflict' };
      context.state.folders.delete(item.id);
    }
    return undefined;
  });
}

function bulkMove(
  context: EmulatorContext,
  deployment: DeploymentRecord,
  actor: Actor,
  items: WorkspaceItemRef[],
  folderId: number | null,
) {
  const now = context.clock.now();
  return eachItem(items, (item) => {
    const record = findItem(context, deployment, item);
    if (!record) return notFound(item);
    if (item.type === 'WORKBOOK') {
      const workbook = record as WorkbookRecord;
      if (!canManageWorkbook(actor, workbook)) return forbidden(item, 'manage');
      if (workbook.folderId !== folderId) Object.assign(workbook, { folderId, updatedAt: now });
    } else if (item.type === 'REPORT') {
      if (!actor.creator) return forbidden(item, 'edit');
      const report = record as ReportRecord;
      if (report.folderId !== folderId) Object.assign(report, { folderId, updatedAt: now });
    } else {
      if (!canEditFolder(actor)) return forbidden(item, 'edit');
      if (folderId !== null && isWithin(context, folderId, item.id))
        return { error: `FOLDER ${item.id} cannot move into itself or a folder below it`, code: 'conflict' };
      (record as Folder).parentId = folderId;
    }
    return undefined;
  });
}

// ---------------------------------------------------------------------------------------------
// The sub-app
// ---------------------------------------------------------------------------------------------

/** The workspace sub-app. */
export function workspaceApp(context: EmulatorContext): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const { bearer } = managementAuth(context);
  const deployments = '/api/v1/deployments/:deploymentId';

  app.put(`${deployments}/workbooks/by-slug/:slug`, bearer, (c) => upsertWorkbook(context, c));

  app.get(`${deployments}/workbooks`, bearer, (c) => {
    const deployment = requireDeployment(context, c);
    return listAnswer(c, {
      items: [...context.state.workbooks.values()].filter((workbook) => workbook.deploymentId === deployment.id),
      tag: 'workbooks',
      key: (workbook) => [workbook.id],
      toWire: (workbook) => workbookWire(context, workbook),
    });
  });

  app.post(`${deployments}/workbooks/:workbookId/duplicate`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const source = requireWorkbook(context, c, deployment);
    await readValid(c, validateDuplicateWorkbookInput);
    const actor = actorOf(context, c);
    requireCreator(actor, 'Duplicating a workbook');
    const now = context.clock.now();
    const id = context.state.nextId('workbook');
    const copy: WorkbookRecord = {
      ...structuredClone(source),
      id,
      name: `${source.name} (copy)`,
      slug: null,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
      dashboardPublicId: null,
    };
    context.state.workbooks.set(id, copy);
    return jsonResponse(201, workbookWire(context, copy));
  });

  app.post(`${deployments}/workbooks/:workbookId/dashboard/ai-widget-thread`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const workbook = requireWorkbook(context, c, deployment);
    const input = await readValid(c, validateAiWidgetThreadInput);
    if (!canEditWorkbook(actorOf(context, c), workbook))
      throw httpError(403, `No edit access to workbook ${workbook.id}`);
    const dashboard =
      workbook.dashboardPublicId === null ? undefined : context.state.dashboards.get(workbook.dashboardPublicId);
    if (!dashboard) throw httpError(404, `Workbook ${workbook.id} has no published dashboard`);
    const widget = dashboard.config.widgets?.find((candidate) => candidate.id === input.widgetId);
    if (!widget) throw invalid([`widgetId: no widget "${input.widgetId}" in dashboard ${dashboard.publicId}`]);
    if (input.checksum !== undefined && input.checksum !== dashboardChecksum(dashboard))
      throw httpError(409, `The dashboard changed since checksum ${input.checksum}; read it again and retry`);
    widget.config = { ...widget.config, threadId: input.threadId };
    return jsonResponse(200, dashboardWire(dashboard));
  });

  app.get(`${deployments}/workbooks/:workbookId/embed-access`, bearer, (c) => {
    const deployment = requireDeployment(context, c);
    const workbook = requireWorkbook(context, c, deployment);
    return jsonResponse(200, embedAccessWire(context, workbook.id));
  });

  app.put(`${deployments}/workbooks/:workbookId/embed-access`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const workbook = requireWorkbook(context, c, deployment);
    const input = await readValid(c, validateEmbedAccessInput);
    const tenantName = input.embedTenantName;
    if (typeof tenantName === 'string' && !context.state.embedTenants.has(tenantName))
      throw invalid([`embedTenantName: embed tenant "${tenantName}" does not exist`]);
    if (!canManageWorkbook(actorOf(context, c), workbook))
      throw httpError(403, `Changing embed access of workbook ${workbook.id} needs manage access to it`);
    const all = embedAccessState(context);
    const access = all.get(workbook.id) ?? { allEmbedUsers: 'none', embedTenants: new Map() };
    if (typeof tenantName === 'string') access.embedTenants.set(tenantName, input.action);
    else access.allEmbedUsers = input.action;
    all.set(workbook.id, access);
    return jsonResponse(200, embedAccessWire(context, workbook.id));
  });

  app.get(`${deployments}/folders`, bearer, (c) => {
    const deployment = requireDeployment(context, c);
    return listAnswer(c, {
      items: [...context.state.folders.values()].filter((folder) => folder.deploymentId === deployment.id),
      tag: 'folders',
      key: (folder) => [folder.id],
      toWire: folderWire,
    });
  });

  app.get(`${deployments}/reports`, bearer, (c) => {
    const deployment = requireDeployment(context, c);
    const sortBy = c.req.query('sortBy');
    if (sortBy !== undefined && !REPORT_SORTS.some((sort) => sort === sortBy)) {
      throw httpError(400, `sortBy: must be one of ${REPORT_SORTS.join(', ')}`);
    }
    const folderParam = c.req.query('folderId');
    const folderId = folderParam === undefined ? undefined : parseId(folderParam);
    if (folderParam !== undefined && folderId === undefined)
      throw httpError(400, 'folderId: must be a folder id (a whole number)');
    const search = c.req.query('search')?.trim().toLowerCase();
    const externalWorkbookId = c.req.query('externalWorkbookId');
    const items = [...context.state.reports.values()].filter(
      (report) =>
        report.deploymentId === deployment.id &&
        (folderId === undefined || report.folderId === folderId) &&
        (search === undefined || search === '' || report.name.toLowerCase().includes(search)) &&
        (externalWorkbookId === undefined || report.connection?.externalWorkbookId === externalWorkbookId),
    );
    const sort = reportSort(sortBy as ReportSort | undefined);
    return listAnswer(c, {
      items,
      tag: `reports:${sortBy ?? 'id'}`,
      key: sort.key,
      order: sort.order,
      cursors: sortBy !== 'lastViewedAt',
      toWire: reportWire,
    });
  });

  app.put(`${deployments}/reports/by-public-id/:publicId`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const publicId = c.req.param('publicId');
    const input = await readValid(c, validateReportInput);
    requireCreator(actorOf(context, c), 'Writing a report');
    if (input.folderId != null) folderIn(context, deployment, input.folderId, 'folderId');
    const reports = [...context.state.reports.values()].filter((report) => report.deploymentId === deployment.id);
    const current = reports.find((report) => report.publicId === publicId);
    if (
      input.publicId !== undefined &&
      input.publicId !== publicId &&
      reports.some((r) => r.publicId === input.publicId)
    )
      throw httpError(409, `A report with public id "${input.publicId}" already exists`);
    const now = context.clock.now();
    if (!current) {
      const id = context.state.nextId('report');
      const created: ReportRecord = {
        id,
        deploymentId: deployment.id,
        publicId: input.publicId ?? publicId,
        name: input.name ?? publicId,
        folderId: input.folderId ?? null,
        sqlQuery: input.sqlQuery ?? '',
        createdAt: now,
        updatedAt: now,
      };
      context.state.reports.set(id, created);
      return jsonResponse(200, reportWire(created));
    }
    const next = {
      publicId: input.publicId ?? current.publicId,
      name: input.name ?? current.name,
      folderId: input.folderId !== undefined ? input.folderId : current.folderId,
      sqlQuery: input.sqlQuery ?? current.sqlQuery,
    };
    const changed = (Object.keys(next) as (keyof typeof next)[]).some((key) => next[key] !== current[key]);
    if (changed) Object.assign(current, next, { updatedAt: now });
    return jsonResponse(200, reportWire(current));
  });

  app.put(`${deployments}/reports/:reportId/connect-workbook`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const id = parseId(c.req.param('reportId'));
    const report = id === undefined ? undefined : context.state.reports.get(id);
    if (!report || report.deploymentId !== deployment.id)
      throw httpError(404, `Report ${c.req.param('reportId') ?? ''} not found in deployment ${deployment.id}`);
    const input = await readValid(c, validateConnectWorkbookInput);
    // 4.6: connecting needs only read access to the report, which every key of the deployment has.
    report.connection = {
      externalWorkbookId: input.externalWorkbookId,
      resultLocation: input.resultLocation ?? null,
      endResultCell: input.endResultCell ?? null,
    };
    report.updatedAt = context.clock.now();
    return jsonResponse(200, reportWire(report));
  });

  app.get(`${deployments}/notifications`, bearer, (c) => {
    const deployment = requireDeployment(context, c);
    const raw = c.req.query();
    const { first: _first, after: _after, ...filters } = raw;
    const userId = filters['recipientUserId'];
    const query = valid(
      validateNotificationListFilters({
        ...filters,
        ...(userId === undefined ? {} : { recipientUserId: /^\d+$/.test(userId) ? Number(userId) : userId }),
      }),
    );
    return listAnswer(c, {
      items: [...notificationsOf(context).values()].filter(
        (notification) => notification.deploymentId === deployment.id && matchesFilters(notification, query),
      ),
      tag: 'notifications',
      key: (notification) => [notification.id],
      toWire: (notification) => notificationWire(context, notification),
    });
  });

  app.post(`${deployments}/notifications`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const input = await readValid(c, validateNotificationInput);
    const actor = actorOf(context, c);
    requireCreator(actor, 'Scheduling a notification');
    const dashboard = notifiedDashboard(context, deployment, input)!;
    checkRecipients(context, input.recipients);
    const now = context.clock.now();
    const { dashboardId: _id, dashboardPublicId: _publicId, ...fields } = input;
    const notification: NotificationRecord = {
      ...structuredClone(fields),
      id: context.state.nextId('notification'),
      deploymentId: deployment.id,
      dashboardPublicId: dashboard.publicId,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    };
    notificationsOf(context).set(notification.id, notification);
    return jsonResponse(201, notificationWire(context, notification));
  });

  app.put(`${deployments}/notifications/:notificationId`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const id = parseId(c.req.param('notificationId'));
    const notification = id === undefined ? undefined : notificationsOf(context).get(id);
    if (!notification || notification.deploymentId !== deployment.id)
      throw httpError(
        404,
        `Notification ${c.req.param('notificationId') ?? ''} not found in deployment ${deployment.id}`,
      );
    const input = await readValid(c, validateNotificationPatch);
    requireCreator(actorOf(context, c), 'Changing a notification');
    const dashboard = notifiedDashboard(context, deployment, input);
    checkRecipients(context, input.recipients);
    const { dashboardId: _id, dashboardPublicId: _publicId, ...fields } = input;
    Object.assign(notification, structuredClone(fields), {
      ...(dashboard ? { dashboardPublicId: dashboard.publicId } : {}),
      updatedAt: context.clock.now(),
    });
    return jsonResponse(200, notificationWire(context, notification));
  });

  app.post(`${deployments}/workspace/bulk-delete`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const { items } = await readValid(c, validateBulkDeleteInput);
    return jsonResponse(200, bulkDelete(context, deployment, actorOf(context, c), items));
  });

  app.post(`${deployments}/workspace/bulk-move`, bearer, async (c) => {
    const deployment = requireDeployment(context, c);
    const { items, folderId } = await readValid(c, validateBulkMoveInput);
    const actor = actorOf(context, c);
    if (folderId !== null) {
      folderIn(context, deployment, folderId, 'folderId');
      if (!canEditFolder(actor)) throw httpError(403, `No edit access to folder ${folderId}`);
    }
    return jsonResponse(200, bulkMove(context, deployment, actor, items, folderId));
  });

  // Test control (no auth: the emulator listens on loopback only).
  app.post(UPSERT_CONFLICTS_CONTROL_PATH, (c) => controlUpsertConflicts(context, c));
  app.delete(UPSERT_CONFLICTS_CONTROL_PATH, () => {
    clearUpsertConflicts(context);
    return noContent();
  });

  return app;
}
