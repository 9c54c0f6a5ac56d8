/**
 * The workspace group of the server client (interface §3, §4.1, §4.6): workbooks (upsert by slug,
 * list, duplicate, AI widget threads), folders, reports (list, upsert by public id, connect to an
 * external workbook), scheduled notifications, workbook embed access and the bulk delete and move
 * of workspace items. All with `Bearer` auth (§5) below `/api/v1/deployments/{deploymentId}`.
 *
 * @module
 */
import { ServiceConfigError, ServiceHttpError, ServiceValidationError } from '../../core/errors';
import {
  isBulkResult,
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
  validateReportListQuery,
  type AiWidgetThreadInput,
  type BulkResult,
  type ConnectWorkbookInput,
  type DuplicateWorkbookInput,
  type Notification,
  type NotificationInput,
  type NotificationListFilters,
  type NotificationPatch,
  type Report,
  type ReportInput,
  type ReportSort,
  type WorkbookEmbedAccess,
  type WorkbookEmbedAccessInput,
  type WorkspaceItemRef,
} from '../../core/protocol/management';
import { isRecord } from '../../core/protocol/shared';
import {
  UPSERT_BRANCH_CHANGED,
  isWorkbook,
  validateCreateWorkbookInput,
  validateSlug,
  workbookBySlugPath,
  type CreateWorkbookInput,
  type Dashboard,
  type Workbook,
} from '../../core/protocol/workbook';
import { backoffDelay, pathSegment, segmentProblem, sleep } from '../transport';
import {
  createRequester,
  deploymentPath,
  hasId,
  id,
  valid,
  type ListParams,
  type Paginated,
  type RequestOptions,
  type Requester,
  type ServiceClientBase,
  type ServiceClientOptions,
} from './request';

/** Default of {@link UpsertOptions.attempts}. */
export const DEFAULT_UPSERT_ATTEMPTS = 5;

/** Options of {@link WorkspaceClient.upsertWorkbookBySlug}. */
export interface UpsertOptions extends RequestOptions {
  /**
   * Tries in all when the service answers 409 `upsert_branch_changed` (another writer created or
   * deleted the workbook in between, §3; transient). Waits grow exponentially with jitter between
   * tries. Default 5; `1` disables the retry. Other 409s and other 4xx are never retried.
   */
  attempts?: number;
}

/** Query of the reports list (§4.6). */
export interface ReportListParams extends ListParams {
  /**
   * Sort order. Cursor paging is unavailable with `lastViewedAt` (§4.6): `after` is refused with
   * it, and only the first page is read.
   */
  sortBy?: ReportSort;
  /** Text search. */
  search?: string;
  /** Only reports in this folder. */
  folderId?: number;
  /** Only reports connected to this external workbook. */
  externalWorkbookId?: string;
}

/** Query of the notifications list (§4.6): its filters and the cursor. */
export interface NotificationListParams extends ListParams, NotificationListFilters {}

/** A folder as the folders list answers it (fields beyond these are not published, §2.9). */
export interface Folder {
  /** The folder id. */
  id: number;
  /** Its name. */
  name: string;
  [key: string]: unknown;
}

/** Workbooks, folders, reports, notifications, embed access and bulk operations (§3, §4.1, §4.6), made by {@link createWorkspaceClient}. */
export interface WorkspaceClient extends ServiceClientBase {
  /**
   * Creates or updates the workbook holding `slug` in the deployment (§3, §4.1): the slug is
   * trimmed and lowercased; only the fields sent change and `meta` is merged. A 409
   * `upsert_branch_changed` is retried (see {@link UpsertOptions.attempts}); when the tries run out
   * the last 409 is thrown. A deployment that does not exist is a 404 `ServiceHttpError`.
   */
  upsertWorkbookBySlug(
    deploymentId: number,
    slug: string,
    input?: CreateWorkbookInput,
    options?: UpsertOptions,
  ): Promise<Workbook>;
  /** Workbooks of a deployment (§4.6), cursor-paginated. */
  listWorkbooks(deploymentId: number, params?: ListParams): Paginated<Workbook>;
  /**
   * Duplicates a workbook (§4.6 `POST .../workbooks/{workbookId}/duplicate`); `shared: true` clones
   * from the shared workspace. Resolves with the copy. Not retried.
   */
  duplicateWorkbook(
    deploymentId: number,
    workbookId: number,
    input?: DuplicateWorkbookInput,
    options?: RequestOptions,
  ): Promise<Workbook>;
  /**
   * Shows a chat thread in an AI widget of the workbook's dashboard (§4.6 `.../dashboard/ai-widget-thread`):
   * `threadId` and `widgetId` required, `checksum` optional. Resolves with the Dashboard (§2.4).
   */
  setAiWidgetThread(
    deploymentId: number,
    workbookId: number,
    input: AiWidgetThreadInput,
    options?: RequestOptions,
  ): Promise<Dashboard>;
  /** Embed access of a workbook (§4.6, GET `.../workbooks/{workbookId}/embed-access`). */
  getWorkbookEmbedAccess(
    deploymentId: number,
    workbookId: number,
    options?: RequestOptions,
  ): Promise<WorkbookEmbedAccess>;
  /**
   * Sets embed access of a workbook (§4.6, PUT; idempotent): `action` must be `read` or `none`,
   * for `embedTenantName` or, without it, all embed users. Resolves with the access as answered.
   */
  setWorkbookEmbedAccess(
    deploymentId: number,
    workbookId: number,
    access: WorkbookEmbedAccessInput,
    options?: RequestOptions,
  ): Promise<WorkbookEmbedAccess>;
  /** Folders of a deployment (§4.6), cursor-paginated (`items` and `pageInfo`; `data` as a fallback). */
  listFolders(deploymentId: number, params?: ListParams): Paginated<Folder>;
  /**
   * Reports of a deployment (§4.6), cursor-paginated. `sortBy` must be `name`, `createdAt`,
   * `updatedAt` or `lastViewedAt`; with `lastViewedAt` cursor paging is unavailable, so `after` is
   * refused before sending and only the first page is read.
   */
  listReports(deploymentId: number, params?: ReportListParams): Paginated<Report>;
  /**
   * Creates or updates the report with this public id (§4.6 PUT `.../reports/by-public-id/{publicId}`);
   * only the fields sent change. `input.publicId` renames it.
   */
  upsertReportByPublicId(
    deploymentId: number,
    publicId: string,
    input?: ReportInput,
    options?: RequestOptions,
  ): Promise<Report>;
  /**
   * Connects a report to an external workbook (§4.6 PUT `.../reports/{reportId}/connect-workbook`,
   * `{ externalWorkbookId, resultLocation, endResultCell }`; needs only read access to the report).
   * Resolves with the Report.
   */
  connectReportWorkbook(
    deploymentId: number,
    reportId: number,
    input: ConnectWorkbookInput,
    options?: RequestOptions,
  ): Promise<Report>;
  /**
   * Scheduled notifications of a deployment (§4.6), filtered by `dashboardPublicId`,
   * `recipientUserId`, `recipientEmail`, or `recipientEmbedTenantName` together with
   * `recipientExternalId` (one without the other is refused before sending).
   */
  listNotifications(deploymentId: number, params?: NotificationListParams): Paginated<Notification>;
  /**
   * Creates a scheduled notification (§4.6): exactly one of `dashboardId` or `dashboardPublicId`
   * (checked before sending), with the dashboard's `filters` and `timeGrains`. Not retried.
   */
  createNotification(deploymentId: number, input: NotificationInput, options?: RequestOptions): Promise<Notification>;
  /** Changes a scheduled notification (§4.6 PUT); only the fields sent change; at most one dashboard field. */
  updateNotification(
    deploymentId: number,
    notificationId: number,
    patch: NotificationPatch,
    options?: RequestOptions,
  ): Promise<Notification>;
  /**
   * Deletes workspace items (§4.6 `workspace/bulk-delete`): each typed `FOLDER`, `WORKBOOK` or
   * `REPORT` (checked before sending). Resolves with the per-item outcome: items the service could
   * not delete are in `failed`, with their reason; a partial failure never throws.
   */
  bulkDeleteWorkspaceItems(
    deploymentId: number,
    items: WorkspaceItemRef[],
    options?: RequestOptions,
  ): Promise<BulkResult<WorkspaceItemRef>>;
  /**
   * Moves workspace items into a folder, or to the top level with `null` (§4.6 `workspace/bulk-move`).
   * Resolves with the per-item outcome, as {@link WorkspaceClient.bulkDeleteWorkspaceItems}.
   */
  bulkMoveWorkspaceItems(
    deploymentId: number,
    items: WorkspaceItemRef[],
    folderId: number | null,
    options?: RequestOptions,
  ): Promise<BulkResult<WorkspaceItemRef>>;
}

const isDashboard = (value: unknown) => isRecord(value) && typeof value['publicId'] === 'string';

/** @internal The workspace methods over a request path. */
export function workspaceMethods(r: Requester): Omit<WorkspaceClient, 'request'> {
  const workbookPath = (deploymentId: number, workbookId: number, what: string) =>
    `${deploymentPath(deploymentId, what)}/workbooks/${id(workbookId, 'workbookId', what)}`;
  const bulk = (what: string, deploymentId: number, kind: string, body: unknown, signal?: AbortSignal) =>
    r.record<BulkResult<WorkspaceItemRef>>(
      { method: 'POST', path: `${deploymentPath(deploymentId, what)}/workspace/${kind}`, what, body, signal },
      isBulkResult,
      'a bulk result { succeeded, failed }',
    );

  return {
    async upsertWorkbookBySlug(deploymentId, slug, input, upsertOptions = {}) {
      const what = 'upsert workbook by slug';
      const attempts = upsertOptions.attempts ?? DEFAULT_UPSERT_ATTEMPTS;
      if (!Number.isInteger(attempts) || attempts < 1) {
        throw new ServiceConfigError(
          `${what}: \`attempts\` must be a whole number of 1 or more (got ${String(attempts)})`,
        );
      }
      const problems: string[] = [];
      if (typeof deploymentId !== 'number' || !Number.isInteger(deploymentId) || deploymentId < 1) {
        problems.push('deploymentId: must be a positive whole number');
      }
      const checkedSlug = validateSlug(slug);
      if (!checkedSlug.ok) problems.push(...checkedSlug.problems);
      // The slug is a path segment: "." or ".." would resolve to another path.
      const slugProblem = checkedSlug.ok ? segmentProblem(checkedSlug.value) : undefined;
      if (slugProblem !== undefined) problems.push(`slug: ${slugProblem}`);
      const body = validateCreateWorkbookInput(input);
      if (!body.ok) problems.push(...body.problems);
      if (problems.length > 0 || !checkedSlug.ok || !body.ok) {
        throw new ServiceValidationError(problems, { message: `${what}: ${problems.join('; ')}` });
      }
      const { signal } = upsertOptions;
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await r.record<Workbook>(
            {
              method: 'PUT',
              path: workbookBySlugPath(deploymentId, checkedSlug.value),
              what,
              // No body is the same as an empty one (§2.2); send `{}` so the request is JSON either way.
              body: body.value,
              signal,
            },
            isWorkbook,
            'a workbook',
          );
        } catch (error) {
          const conflict =
            ServiceHttpError.isInstance(error) && error.status === 409 && error.code === UPSERT_BRANCH_CHANGED;
          if (!conflict || attempt >= attempts) throw error;
          await sleep(backoffDelay(attempt, r.retry), signal, what);
        }
      }
    },

    listWorkbooks(deploymentId, params) {
      const what = 'list workbooks';
      return r.list(() => ({ path: `${deploymentPath(deploymentId, what)}/workbooks`, what }), params);
    },
    async duplicateWorkbook(deploymentId, workbookId, input, options = {}) {
      const what = 'duplicate workbook';
      return r.record(
        {
          method: 'POST',
          path: `${workbookPath(deploymentId, workbookId, what)}/duplicate`,
          what,
          body: valid(validateDuplicateWorkbookInput(input), what),
          signal: options.signal,
        },
        isWorkbook,
        'a workbook',
      );
    },
    async setAiWidgetThread(deploymentId, workbookId, input, options = {}) {
      const what = 'set AI widget thread';
      return r.record(
        {
          method: 'POST',
          path: `${workbookPath(deploymentId, workbookId, what)}/dashboard/ai-widget-thread`,
          what,
          body: valid(validateAiWidgetThreadInput(input), what),
          signal: options.signal,
        },
        isDashboard,
        'a dashboard',
      );
    },
    async getWorkbookEmbedAccess(deploymentId, workbookId, options = {}) {
      const what = 'get workbook embed access';
      return r.record({
        path: `${workbookPath(deploymentId, workbookId, what)}/embed-access`,
        what,
        signal: options.signal,
      });
    },
    async setWorkbookEmbedAccess(deploymentId, workbookId, access, options = {}) {
      const what = 'set workbook embed access';
      const answer = await r.json({
        method: 'PUT',
        path: `${workbookPath(deploymentId, workbookId, what)}/embed-access`,
        what,
        body: valid(validateEmbedAccessInput(access), what),
        signal: options.signal,
      });
      return isRecord(answer) ? answer : {};
    },

    listFolders(deploymentId, params) {
      const what = 'list folders';
      return r.list(() => ({ path: `${deploymentPath(deploymentId, what)}/folders`, what }), params);
    },
    listReports(deploymentId, params = {}) {
      const what = 'list reports';
      const { sortBy, search, folderId, externalWorkbookId, ...rest } = params;
      return r.list(() => {
        valid(validateReportListQuery({ sortBy, after: rest.after }), what);
        return {
          path: `${deploymentPath(deploymentId, what)}/reports`,
          what,
          query: { sortBy, search, folderId, externalWorkbookId },
          firstPageOnly: sortBy === 'lastViewedAt',
        };
      }, rest);
    },
    async upsertReportByPublicId(deploymentId, publicId, input, options = {}) {
      const what = 'upsert report by public id';
      return r.record(
        {
          method: 'PUT',
          path: `${deploymentPath(deploymentId, what)}/reports/by-public-id/${pathSegment(publicId, 'publicId', what)}`,
          what,
          body: valid(validateReportInput(input), what),
          signal: options.signal,
        },
        hasId,
        'a report',
      );
    },
    async connectReportWorkbook(deploymentId, reportId, input, options = {}) {
      const what = 'connect report workbook';
      return r.record(
        {
          method: 'PUT',
          path: `${deploymentPath(deploymentId, what)}/reports/${id(reportId, 'reportId', what)}/connect-workbook`,
          what,
          body: valid(validateConnectWorkbookInput(input), what),
          signal: options.signal,
        },
        hasId,
        'a report',
      );
    },

    listNotifications(deploymentId, params = {}) {
      const what = 'list notifications';
      const { first, after, signal, query, ...filters } = params;
      return r.list(
        () => ({
          path: `${deploymentPath(deploymentId, what)}/notifications`,
          what,
          query: { ...valid(validateNotificationListFilters(filters), what) },
        }),
        { first, after, signal, query },
      );
    },
    async createNotification(deploymentId, input, options = {}) {
      const what = 'create notification';
      return r.record(
        {
          method: 'POST',
          path: `${deploymentPath(deploymentId, what)}/notifications`,
          what,
          body: valid(validateNotificationInput(input), what),
          signal: options.signal,
        },
        hasId,
        'a notification',
      );
    },
    async updateNotification(deploymentId, notificationId, patch, options = {}) {
      const what = 'update notification';
      return r.record(
        {
          method: 'PUT',
          path: `${deploymentPath(deploymentId, what)}/notifications/${id(notificationId, 'notificationId', what)}`,
          what,
          body: valid(validateNotificationPatch(patch), what),
          signal: options.signal,
        },
        hasId,
        'a notification',
      );
    },

    async bulkDeleteWorkspaceItems(deploymentId, items, options = {}) {
      const what = 'bulk delete workspace items';
      return bulk(what, deploymentId, 'bulk-delete', valid(validateBulkDeleteInput({ items }), what), options.signal);
    },
    async bulkMoveWorkspaceItems(deploymentId, items, folderId, options = {}) {
      const what = 'bulk move workspace items';
      const body = valid(validateBulkMoveInput({ items, folderId }), what);
      return bulk(what, deploymentId, 'bulk-move', body, options.signal);
    },
  };
}

/**
 * A client of the workspace alone (§3, §4.1, §4.6): workbooks, folders, reports, notifications,
 * embed access, bulk operations. Same options as `createServiceClient`.
 * @throws {ServiceConfigError} for options that cannot work.
 */
export function createWorkspaceClient(options: ServiceClientOptions): WorkspaceClient {
  const r = createRequester(options);
  return { ...workspaceMethods(r), request: r.request };
}
