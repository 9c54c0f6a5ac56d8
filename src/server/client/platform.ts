/**
 * The platform group of the server client (interface §4.6): deployments, build status, logs, pods,
 * environment variables, the setup wizard, environments, regions, the data model (files, chunked
 * uploads, file hashes; `/build/api/v1`, same host and key), dev mode, branches, repository
 * connections and transformation sync. All with `Bearer` auth (§5).
 *
 * @module
 */
import { isRecord } from '../../core/protocol/shared';
import {
  BranchInputSchema,
  BranchRefSchema,
  CommitInputSchema,
  ConnectRepositoryInputSchema,
  DataModelFilesDeleteSchema,
  DataModelFilesInputSchema,
  DataModelFilesRenameSchema,
  DataModelUploadChunkSchema,
  DataModelUploadFinishSchema,
  DeploymentInputSchema,
  DevModeInputSchema,
  DeploymentPatchSchema,
  EnvVarsInputSchema,
  LogFiltersSchema,
  MergeInputSchema,
  type Branch,
  type BranchInput,
  type BranchRef,
  type BuildStatus,
  type Commit,
  type CommitInput,
  type ConnectRepositoryInput,
  type CreationStep,
  type DataModelFile,
  type DataModelFilesDelete,
  type DataModelFilesInput,
  type DataModelFilesRename,
  type DataModelUpload,
  type DataModelUploadChunk,
  type Deployment,
  type DeploymentInput,
  type DeploymentPatch,
  type Environment,
  type EnvVar,
  type EnvVarInput,
  type LogEntry,
  type LogFilters,
  type MergeInput,
  type Pod,
  type Region,
  type RepoHostBranch,
  type RepoHostInstallation,
  type RepoHostRepository,
  type RepoHostStatus,
  type RepositoryConnection,
  type TransformSync,
} from '../../core/protocol/platform';
import { isListPage, pageItems } from '../../core/protocol/workbook';
import type * as v from 'valibot';
import { pathSegment } from '../transport';
import {
  checked,
  createRequester,
  deploymentPath,
  hasId,
  id,
  type Call,
  type ListParams,
  type Paginated,
  type RequestOptions,
  type Requester,
  type ServiceClientBase,
  type ServiceClientOptions,
} from './request';

/** Query of the logs list (§4.6): its filters and the cursor. */
export interface LogListParams extends ListParams, LogFilters {}

/** Options of a call that reads one branch's state (default: the deployment's default branch). */
export interface BranchReadOptions extends RequestOptions {
  /** The branch; default the default branch. */
  branchName?: string;
}

/** Query of the data-model files list: the branch and the cursor. */
export interface DataModelFileListParams extends ListParams {
  /** The branch; default the default branch. */
  branchName?: string;
}

/** Deployments, builds, logs, pods, env vars, regions, the data model and branches (§4.6), made by {@link createPlatformClient}. */
export interface PlatformClient extends ServiceClientBase {
  /** Deployments of the account (§4.6; `items` without `pageInfo`: one page), limited by `first`. */
  listDeployments(params?: ListParams): Paginated<Deployment>;
  /**
   * Creates a deployment (§4.6 `POST /build/api/v1/deployments/`): `name` required, `deployMode`
   * `git` or `cli` (checked before sending). Not retried.
   */
  createDeployment(input: DeploymentInput, options?: RequestOptions): Promise<Deployment>;
  /** Changes a deployment (§4.6 `PUT /api/v1/deployments/{deploymentId}`). */
  updateDeployment(deploymentId: number, patch: DeploymentPatch, options?: RequestOptions): Promise<Deployment>;
  /** Deletes a deployment (§4.6 `DELETE /api/v1/deployments/{deploymentId}`). */
  deleteDeployment(deploymentId: number, options?: RequestOptions): Promise<void>;
  /** Build and deploy state of a branch (§4.6 `build-status`). */
  getBuildStatus(deploymentId: number, options?: BranchReadOptions): Promise<BuildStatus>;
  /** Container logs (§4.6 `logs`): `source` must be `production` or `dev` (checked before sending); `container` such as `MAIN`. */
  listLogs(deploymentId: number, params?: LogListParams): Paginated<LogEntry>;
  /** Pods of a deployment (§4.6 `pods`). */
  listPods(deploymentId: number, params?: ListParams): Paginated<Pod>;
  /** Environment variables of a deployment (§4.6 `GET env-vars`). */
  listEnvVars(deploymentId: number, params?: ListParams): Paginated<EnvVar>;
  /**
   * Sets environment variables (§4.6 `PUT env-vars`): the named ones change, `value: null` removes
   * one, the others stay; each name once. Resolves with every variable.
   */
  setEnvVars(deploymentId: number, envVars: EnvVarInput[], options?: RequestOptions): Promise<EnvVar[]>;
  /** Moves the setup wizard one step on (§4.6 `creation-step/advance`). Not retried. */
  advanceCreationStep(deploymentId: number, options?: RequestOptions): Promise<CreationStep>;
  /** Takes the setup wizard back to its first step (§4.6 `creation-step/reset`). */
  resetCreationStep(deploymentId: number, options?: RequestOptions): Promise<CreationStep>;
  /** Environments of a deployment (§4.6 `environments`). */
  listEnvironments(deploymentId: number, params?: ListParams): Paginated<Environment>;
  /** Regions available to the tenant (§4.6 `/api/v1/regions/`; it replaces the removed active-region operation). */
  listRegions(params?: ListParams): Paginated<Region>;
  /** Files of the data model on a branch (§4.6 `GET /build/api/v1/.../data-model/files`). */
  listDataModelFiles(deploymentId: number, params?: DataModelFileListParams): Paginated<DataModelFile>;
  /**
   * Writes data-model files (§4.6 `PUT .../data-model/files`): writes are restricted to dev-mode
   * branches (the service refuses others); paths are relative, without `.` or `..` parts.
   * Resolves with the files written.
   */
  writeDataModelFiles(
    deploymentId: number,
    input: DataModelFilesInput,
    options?: RequestOptions,
  ): Promise<DataModelFile[]>;
  /** Deletes data-model files of a dev-mode branch (§4.6 `DELETE .../data-model/files`). */
  deleteDataModelFiles(deploymentId: number, input: DataModelFilesDelete, options?: RequestOptions): Promise<void>;
  /** Renames data-model files of a dev-mode branch (§4.6 `POST .../data-model/files/rename`). Resolves with the renamed files. */
  renameDataModelFiles(
    deploymentId: number,
    input: DataModelFilesRename,
    options?: RequestOptions,
  ): Promise<DataModelFile[]>;
  /** Starts a chunked upload onto a dev-mode branch (§4.6 `upload/start`). */
  startDataModelUpload(deploymentId: number, input: BranchRef, options?: RequestOptions): Promise<DataModelUpload>;
  /** Sends one chunk of one file of an upload (§4.6 `upload/file`); chunks of a path are appended in order. Not retried. */
  uploadDataModelFile(deploymentId: number, chunk: DataModelUploadChunk, options?: RequestOptions): Promise<void>;
  /** Writes an upload's files onto its branch (§4.6 `upload/finish`). Resolves with the files written. */
  finishDataModelUpload(deploymentId: number, uploadId: string, options?: RequestOptions): Promise<DataModelFile[]>;
  /** SHA-256 of each data-model file of a branch, by path (§4.6 `file-hashes`), for upload diffing. */
  getDataModelFileHashes(deploymentId: number, options?: BranchReadOptions): Promise<Record<string, string>>;
  /** Starts dev mode (§4.6 `POST dev-mode`) on a branch; without one, on the caller's own dev branch. Resolves with the branch. */
  startDevMode(deploymentId: number, input?: Partial<BranchRef>, options?: RequestOptions): Promise<Branch>;
  /** Stops dev mode (§4.6 `DELETE dev-mode`) on a branch; without one, on the caller's own dev branch. */
  stopDevMode(deploymentId: number, input?: Partial<BranchRef>, options?: RequestOptions): Promise<void>;
  /** Branches of the data model (§4.6 `GET branches`). */
  listBranches(deploymentId: number, params?: ListParams): Paginated<Branch>;
  /** Creates a branch (§4.6 `POST branches`), from `from` or the default branch. Not retried. */
  createBranch(deploymentId: number, input: BranchInput, options?: RequestOptions): Promise<Branch>;
  /** Commits a branch's changes (§4.6 `commit`). Not retried. */
  commitBranch(deploymentId: number, input: CommitInput, options?: RequestOptions): Promise<Commit>;
  /** Brings the default branch's files into a branch (§4.6 `pull`). Resolves with the branch. */
  pullBranch(deploymentId: number, input: BranchRef, options?: RequestOptions): Promise<Branch>;
  /** Merges a branch into another (§4.6 `merge`). Resolves with the target branch. */
  mergeBranch(deploymentId: number, input: MergeInput, options?: RequestOptions): Promise<Branch>;
  /** Merges a branch into the default branch, which builds it (§4.6 `merge-to-default`). Resolves with the default branch. */
  mergeBranchToDefault(deploymentId: number, input: BranchRef, options?: RequestOptions): Promise<Branch>;
  /** Connects the deployment to a repository and triggers a build (§4.6 `repohost/connect`). */
  connectRepository(
    deploymentId: number,
    input: ConnectRepositoryInput,
    options?: RequestOptions,
  ): Promise<RepositoryConnection>;
  /** Whether the repository host app is installed (§4.6 `repohost/status`). */
  getRepoHostStatus(options?: RequestOptions): Promise<RepoHostStatus>;
  /** Installations of the repository host app (§4.6 `repohost/installations`). */
  listRepoHostInstallations(params?: ListParams): Paginated<RepoHostInstallation>;
  /** Repositories an installation reaches (§4.6 `repohost/installations/{installationId}/repositories`). */
  listRepoHostRepositories(installationId: number, params?: ListParams): Paginated<RepoHostRepository>;
  /** Branches of a repository (§4.6 `repohost/repositories/{owner}/{repo}/branches`). */
  listRepoHostBranches(owner: string, repo: string, params?: ListParams): Paginated<RepoHostBranch>;
  /**
   * Starts a transformation-tool sync (§4.6 `transform-sync`, body `{ branchName }`, required):
   * resolves with `{ branchName, syncJobId, workflowId }`. Not retried.
   */
  startTransformSync(deploymentId: number, input: BranchRef, options?: RequestOptions): Promise<TransformSync>;
}

const isNamed = (value: unknown) => isRecord(value) && typeof value['name'] === 'string';
const isCommit = (value: unknown) => isRecord(value) && typeof value['commitId'] === 'string';
const isUpload = (value: unknown) => isRecord(value) && typeof value['uploadId'] === 'string';

/** @internal The platform methods over a request path. */
export function platformMethods(r: Requester): Omit<PlatformClient, 'request'> {
  const build = (deploymentId: number, what: string) => deploymentPath(deploymentId, what, '/build/api/v1');
  /** A call whose answer is a list of items (`{ items }`, or `data` as a fallback). */
  const items = async <T>(call: Call): Promise<T[]> => {
    const page = await r.json(call);
    return isListPage(page) ? (pageItems(page) as T[]) : [];
  };
  const listOf = <T>(what: string, path: (what: string) => string, params?: ListParams) =>
    r.list<T>(() => ({ path: path(what), what }), params);
  /** A POST below the deployment's data-model path (`/build/api/v1/...`), its body checked by `schema`. */
  const onBuild = <T>(
    what: string,
    deploymentId: number,
    suffix: string,
    schema: v.GenericSchema<unknown, unknown>,
    input: unknown,
    options: RequestOptions,
    check: (value: unknown) => boolean = isNamed,
    expected = 'a branch',
  ) =>
    r.record<T>(
      {
        method: 'POST',
        path: `${build(deploymentId, what)}${suffix}`,
        what,
        body: checked(schema, input, what),
        signal: options.signal,
      },
      check,
      expected,
    );

  return {
    listDeployments: (params) => listOf('list deployments', () => '/api/v1/deployments/', params),
    async createDeployment(input, options = {}) {
      const what = 'create deployment';
      const body = checked(DeploymentInputSchema, input, what);
      return r.record(
        { method: 'POST', path: '/build/api/v1/deployments/', what, body, signal: options.signal },
        hasId,
        'a deployment',
      );
    },
    async updateDeployment(deploymentId, patch, options = {}) {
      const what = 'update deployment';
      const body = checked(DeploymentPatchSchema, patch, what);
      return r.record(
        { method: 'PUT', path: deploymentPath(deploymentId, what), what, body, signal: options.signal },
        hasId,
        'a deployment',
      );
    },
    async deleteDeployment(deploymentId, options = {}) {
      const what = 'delete deployment';
      await r.empty({ method: 'DELETE', path: deploymentPath(deploymentId, what), what, signal: options.signal });
    },
    async getBuildStatus(deploymentId, options = {}) {
      const what = 'get build status';
      return r.record({
        path: `${deploymentPath(deploymentId, what)}/build-status`,
        what,
        query: { branchName: options.branchName },
        signal: options.signal,
      });
    },
    listLogs(deploymentId, params = {}) {
      const what = 'list logs';
      const { source, container, ...rest } = params;
      return r.list(
        () => ({
          path: `${deploymentPath(deploymentId, what)}/logs`,
          what,
          query: { ...(checked(LogFiltersSchema, { source, container }, what) as LogFilters) },
        }),
        rest,
      );
    },
    listPods: (deploymentId, params) =>
      listOf('list pods', (what) => `${deploymentPath(deploymentId, what)}/pods`, params),
    listEnvVars: (deploymentId, params) =>
      listOf('list env vars', (what) => `${deploymentPath(deploymentId, what)}/env-vars`, params),
    async setEnvVars(deploymentId, envVars, options = {}) {
      const what = 'set env vars';
      const body = checked(EnvVarsInputSchema, { envVars }, what);
      return items({
        method: 'PUT',
        path: `${deploymentPath(deploymentId, what)}/env-vars`,
        what,
        body,
        signal: options.signal,
      });
    },
    async advanceCreationStep(deploymentId, options = {}) {
      const what = 'advance creation step';
      return r.record({
        method: 'POST',
        path: `${deploymentPath(deploymentId, what)}/creation-step/advance`,
        what,
        signal: options.signal,
      });
    },
    async resetCreationStep(deploymentId, options = {}) {
      const what = 'reset creation step';
      return r.record({
        method: 'POST',
        path: `${deploymentPath(deploymentId, what)}/creation-step/reset`,
        what,
        signal: options.signal,
        // Back to the first step, however often: the same state.
        idempotent: true,
      });
    },
    listEnvironments: (deploymentId, params) =>
      listOf('list environments', (what) => `${deploymentPath(deploymentId, what)}/environments`, params),
    listRegions: (params) => listOf('list regions', () => '/api/v1/regions/', params),

    listDataModelFiles(deploymentId, params = {}) {
      const what = 'list data model files';
      const { branchName, ...rest } = params;
      return r.list(
        () => ({ path: `${build(deploymentId, what)}/data-model/files`, what, query: { branchName } }),
        rest,
      );
    },
    async writeDataModelFiles(deploymentId, input, options = {}) {
      const what = 'write data model files';
      const body = checked(DataModelFilesInputSchema, input, what);
      return items({
        method: 'PUT',
        path: `${build(deploymentId, what)}/data-model/files`,
        what,
        body,
        signal: options.signal,
      });
    },
    async deleteDataModelFiles(deploymentId, input, options = {}) {
      const what = 'delete data model files';
      const body = checked(DataModelFilesDeleteSchema, input, what);
      await r.empty({
        method: 'DELETE',
        path: `${build(deploymentId, what)}/data-model/files`,
        what,
        body,
        signal: options.signal,
      });
    },
    async renameDataModelFiles(deploymentId, input, options = {}) {
      const what = 'rename data model files';
      const body = checked(DataModelFilesRenameSchema, input, what);
      return items({
        method: 'POST',
        path: `${build(deploymentId, what)}/data-model/files/rename`,
        what,
        body,
        signal: options.signal,
      });
    },
    startDataModelUpload: (deploymentId, input, options = {}) =>
      onBuild(
        'start data model upload',
        deploymentId,
        '/data-model/upload/start',
        BranchRefSchema,
        input,
        options,
        isUpload,
        'an upload { uploadId }',
      ),
    async uploadDataModelFile(deploymentId, chunk, options = {}) {
      const what = 'upload data model file';
      const body = checked(DataModelUploadChunkSchema, chunk, what);
      await r.empty({
        method: 'POST',
        path: `${build(deploymentId, what)}/data-model/upload/file`,
        what,
        body,
        signal: options.signal,
      });
    },
    async finishDataModelUpload(deploymentId, uploadId, options = {}) {
      const what = 'finish data model upload';
      const body = checked(DataModelUploadFinishSchema, { uploadId }, what);
      return items({
        method: 'POST',
        path: `${build(deploymentId, what)}/data-model/upload/finish`,
        what,
        body,
        signal: options.signal,
      });
    },
    async getDataModelFileHashes(deploymentId, options = {}) {
      const what = 'get data model file hashes';
      const answer = await r.record<{ hashes: Record<string, string> }>(
        {
          path: `${build(deploymentId, what)}/data-model/file-hashes`,
          what,
          query: { branchName: options.branchName },
          signal: options.signal,
        },
        (value) => isRecord(value) && isRecord(value['hashes']),
        'the hashes { hashes }',
      );
      return answer.hashes;
    },
    startDevMode: (deploymentId, input = {}, options = {}) =>
      onBuild('start dev mode', deploymentId, '/dev-mode', DevModeInputSchema, input, options),
    async stopDevMode(deploymentId, input = {}, options = {}) {
      const what = 'stop dev mode';
      await r.empty({
        method: 'DELETE',
        path: `${build(deploymentId, what)}/dev-mode`,
        what,
        body: checked(DevModeInputSchema, input, what),
        signal: options.signal,
      });
    },
    listBranches: (deploymentId, params) =>
      listOf('list branches', (what) => `${build(deploymentId, what)}/branches`, params),
    createBranch: (deploymentId, input, options = {}) =>
      onBuild('create branch', deploymentId, '/branches', BranchInputSchema, input, options),
    commitBranch: (deploymentId, input, options = {}) =>
      onBuild(
        'commit branch',
        deploymentId,
        '/commit',
        CommitInputSchema,
        input,
        options,
        isCommit,
        'a commit { commitId }',
      ),
    pullBranch: (deploymentId, input, options = {}) =>
      onBuild('pull branch', deploymentId, '/pull', BranchRefSchema, input, options),
    mergeBranch: (deploymentId, input, options = {}) =>
      onBuild('merge branch', deploymentId, '/merge', MergeInputSchema, input, options),
    mergeBranchToDefault: (deploymentId, input, options = {}) =>
      onBuild('merge branch to default', deploymentId, '/merge-to-default', BranchRefSchema, input, options),
    connectRepository: (deploymentId, input, options = {}) =>
      onBuild(
        'connect repository',
        deploymentId,
        '/repohost/connect',
        ConnectRepositoryInputSchema,
        input,
        options,
        isRecord,
        'an object',
      ),
    async getRepoHostStatus(options = {}) {
      return r.record({ path: '/api/v1/repohost/status', what: 'get repository host status', signal: options.signal });
    },
    listRepoHostInstallations: (params) =>
      listOf('list repository host installations', () => '/api/v1/repohost/installations', params),
    listRepoHostRepositories: (installationId, params) =>
      listOf(
        'list repository host repositories',
        (what) => `/api/v1/repohost/installations/${id(installationId, 'installationId', what)}/repositories`,
        params,
      ),
    listRepoHostBranches: (owner, repo, params) =>
      listOf(
        'list repository host branches',
        (what) =>
          `/api/v1/repohost/repositories/${pathSegment(owner, 'owner', what)}/${pathSegment(repo, 'repo', what)}/branches`,
        params,
      ),
    async startTransformSync(deploymentId, input, options = {}) {
      const what = 'start transform sync';
      const body = checked(BranchRefSchema, input, what);
      return r.record(
        {
          method: 'POST',
          path: `${deploymentPath(deploymentId, what)}/transform-sync`,
          what,
          body,
          signal: options.signal,
        },
        (value) => isRecord(value) && typeof value['syncJobId'] === 'string' && typeof value['workflowId'] === 'string',
        'a sync { branchName, syncJobId, workflowId }',
      );
    },
  };
}

/**
 * A client of the platform alone (§4.6): deployments, builds, logs, pods, env vars, regions, the
 * data model, dev mode, branches, repositories, transform sync. Same options as `createServiceClient`.
 * @throws {ServiceConfigError} for options that cannot work.
 */
export function createPlatformClient(options: ServiceClientOptions): PlatformClient {
  const r = createRequester(options);
  return { ...platformMethods(r), request: r.request };
}
