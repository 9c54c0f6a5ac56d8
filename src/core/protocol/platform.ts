/**
 * The platform endpoints of interface §4.6: deployments, build status, logs, pods, environment
 * variables, the setup wizard, environments, regions, the data model (files, chunked uploads, file
 * hashes), dev mode, branches, repository connections and transformation sync. Types of what is
 * sent and answered, and the schemas of the rules §4.6 states (the logs `source` enum, the deploy
 * mode enum, `transform-sync`'s `branchName`); the server client and the emulator check bodies
 * with the same schemas through `validateBody`.
 *
 * Bodies beyond the names §4.6 gives are not published: the fields named here are the emulator's,
 * and anything else passes through.
 *
 * @module
 */
import * as v from 'valibot';
import { filledString, positiveId } from './management';
import { deferred, objectWith } from './workbook';

const optionalString = () => v.optional(v.string('must be a string'));
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  v.picklist(values, `must be one of ${values.join(', ')}`);

// ---------------------------------------------------------------------------------------------
// Deployments
// ---------------------------------------------------------------------------------------------

/** A deployment (§4.6). Fields beyond these are not published (§2.9). */
export interface Deployment {
  /** The deployment id. */
  id: number;
  /** Its display name. */
  name?: string;
  [key: string]: unknown;
}

/** Deploy modes of a new deployment (§4.6). */
export const DEPLOY_MODES = ['git', 'cli'] as const;
/** A deploy mode. */
export type DeployMode = (typeof DEPLOY_MODES)[number];

/**
 * Body that creates a deployment (`POST /build/api/v1/deployments/`, §4.6). The cloud provider
 * (3 provider-named values) and creation method (4 values, among them `upload` and `ssh`) are
 * enums whose full lists are not published, so they are sent as given.
 */
export interface DeploymentInput {
  /** Display name. */
  name: string;
  /** The cloud provider. */
  cloudProvider?: string;
  /** How the data model arrives, such as `upload` or `ssh`. */
  creationMethod?: string;
  /** `git` or `cli`. */
  deployMode?: DeployMode;
  /** A region id of `listRegions`. */
  regionId?: string;
  [key: string]: unknown;
}

/** Body that changes a deployment: only the fields sent change. */
export interface DeploymentPatch {
  /** A new display name. */
  name?: string;
  [key: string]: unknown;
}

/** @internal Schema of {@link DeploymentInput}: a name, and the deploy mode enum of §4.6. */
export const DeploymentInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      name: filledString('must be a non-empty string, the display name'),
      cloudProvider: optionalString(),
      creationMethod: optionalString(),
      deployMode: v.optional(oneOf(DEPLOY_MODES)),
      regionId: optionalString(),
    },
    'must be an object { name, cloudProvider?, creationMethod?, deployMode?, regionId? }',
  ),
);

/** @internal Schema of {@link DeploymentPatch}. */
export const DeploymentPatchSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    { name: v.optional(filledString('must be a non-empty string')) },
    'must be an object of the fields to change',
  ),
);

/** Where a deployment's build stands (§4.6 `build-status`, for a branch). */
export interface BuildStatus {
  /** The branch. */
  branchName: string;
  /** `building`, `success`, `failed`, or `none` before the first build. */
  status: string;
  /** The commit built. */
  commitId?: string | null;
  [key: string]: unknown;
}

/** Where a deployment stands in the setup wizard (§4.6 `creation-step`). */
export interface CreationStep {
  /** The deployment. */
  deploymentId: number;
  /** Index of the current step in `steps`. */
  step: number;
  /** The wizard's steps, in order. */
  steps: string[];
  [key: string]: unknown;
}

/** An environment of a deployment (§4.6 `environments`). */
export interface Environment {
  /** Its name: `production`, or a dev environment's. */
  name: string;
  /** `production` or `development`. */
  type?: string;
  /** The branch it serves. */
  branchName?: string;
  [key: string]: unknown;
}

/** A region the tenant may deploy to (§4.6 `/api/v1/regions/`). */
export interface Region {
  /** Region id, such as `aws-us-east-1`. */
  id: string;
  /** Human name. */
  name?: string;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Logs, pods, environment variables
// ---------------------------------------------------------------------------------------------

/** Values of the logs `source` filter (§4.6). */
export const LOG_SOURCES = ['production', 'dev'] as const;
/** A logs source. */
export type LogSource = (typeof LOG_SOURCES)[number];

/**
 * Containers the logs `container` filter names (§4.6 lists these "including" a server container
 * whose name is not published, so other names are sent as given).
 */
export const LOG_CONTAINERS = ['INIT', 'MAIN', 'vector', 'api-proxy'] as const;

/** Filters of the logs list (§4.6). */
export interface LogFilters {
  /** `production` or `dev`. */
  source?: LogSource;
  /** A container, such as `MAIN` or `api-proxy`. */
  container?: string;
}

/** @internal Schema of {@link LogFilters}: the `source` enum of §4.6. */
export const LogFiltersSchema = /*#__PURE__*/ deferred(() =>
  v.looseObject({
    source: v.optional(oneOf(LOG_SOURCES)),
    container: v.optional(filledString('must be a non-empty string, a container name')),
  }),
);

/** A log line of a deployment's container. */
export interface LogEntry {
  /** When it was written, ISO 8601. */
  timestamp: string;
  /** `production` or `dev`. */
  source: string;
  /** The container that wrote it. */
  container: string;
  /** The line. */
  message: string;
  [key: string]: unknown;
}

/** A pod of a deployment (§4.6 `pods`). */
export interface Pod {
  /** Pod name. */
  name: string;
  /** Such as `Running`. */
  status: string;
  [key: string]: unknown;
}

/** An environment variable of a deployment. */
export interface EnvVar {
  /** Its name. */
  name: string;
  /** Its value. */
  value: string;
  [key: string]: unknown;
}

/** One variable to set: `value: null` removes it. */
export interface EnvVarInput {
  /** Its name. */
  name: string;
  /** Its value; `null` removes the variable. */
  value: string | null;
}

/** @internal Schema of the env-vars PUT body `{ envVars }`: each name once. */
export const EnvVarsInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      envVars: v.pipe(
        v.array(
          objectWith(
            {
              name: filledString('must be a non-empty string'),
              value: v.nullable(v.string('must be a string, or null to remove the variable')),
            },
            'must be an object { name, value }',
          ),
          'must be an array of { name, value }',
        ),
        v.check(
          (envVars) => new Set(envVars.map((envVar) => envVar.name)).size === envVars.length,
          'must name each variable once',
        ),
      ),
    },
    'must be an object { envVars }',
  ),
);

// ---------------------------------------------------------------------------------------------
// Data model: files, uploads, dev mode, branches
// ---------------------------------------------------------------------------------------------

/** Why `path` cannot be a data-model file path, or `undefined` when it can. */
export function dataModelPathProblem(path: string): string | undefined {
  if (path.trim() === '') return 'must not be empty';
  if (path.startsWith('/') || path.includes('\\')) return 'must be a relative path with "/" between folders';
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..'))
    return 'must not contain empty, "." or ".." parts';
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain control characters';
  return undefined;
}

const DataModelPathSchema = /*#__PURE__*/ deferred(() =>
  v.pipe(
    v.string('must be a string, a path such as model/cubes/orders.yml'),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = dataModelPathProblem(dataset.value);
      if (problem !== undefined) addIssue({ message: problem });
    }),
  ),
);

const branchName = () => filledString('must be a non-empty string, the branch name');

/** A file of a deployment's data model. */
export interface DataModelFile {
  /** Path below the data model's root, such as `model/cubes/orders.yml`. */
  path: string;
  /** Its contents. */
  content?: string;
  /** SHA-256 of the contents, hex. */
  hash?: string;
  [key: string]: unknown;
}

/** Body of the files PUT (§4.6): writes only on a dev-mode branch. */
export interface DataModelFilesInput {
  /** A branch in dev mode. */
  branchName: string;
  /** Files to create or overwrite. */
  files: {
    /** Relative path. */
    path: string;
    /** New contents. */
    content: string;
  }[];
}

/** @internal Schema of {@link DataModelFilesInput}. */
export const DataModelFilesInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      branchName: branchName(),
      files: v.pipe(
        v.array(
          objectWith(
            { path: DataModelPathSchema, content: v.string('must be a string, the file contents') },
            'must be an object { path, content }',
          ),
          'must be an array of { path, content }',
        ),
        v.minLength(1, 'must hold at least one file'),
      ),
    },
    'must be an object { branchName, files }',
  ),
);

/** Body of the files DELETE (§4.6). */
export interface DataModelFilesDelete {
  /** A branch in dev mode. */
  branchName: string;
  /** The files to delete. */
  paths: string[];
}

/** @internal Schema of {@link DataModelFilesDelete}. */
export const DataModelFilesDeleteSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      branchName: branchName(),
      paths: v.pipe(
        v.array(DataModelPathSchema, 'must be an array of paths'),
        v.minLength(1, 'must name at least one file'),
      ),
    },
    'must be an object { branchName, paths }',
  ),
);

/** Body of `files/rename` (§4.6). */
export interface DataModelFilesRename {
  /** A branch in dev mode. */
  branchName: string;
  /** Each file's old and new path. */
  renames: {
    /** The current path. */
    from: string;
    /** The new path. */
    to: string;
  }[];
}

/** @internal Schema of {@link DataModelFilesRename}. */
export const DataModelFilesRenameSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      branchName: branchName(),
      renames: v.pipe(
        v.array(
          objectWith({ from: DataModelPathSchema, to: DataModelPathSchema }, 'must be an object { from, to }'),
          'must be an array of { from, to }',
        ),
        v.minLength(1, 'must hold at least one rename'),
      ),
    },
    'must be an object { branchName, renames }',
  ),
);

/** A branch named in a body: dev mode, pull, merge to default, uploads, transform sync. */
export interface BranchRef {
  /** The branch. */
  branchName: string;
}

/** @internal Schema of {@link BranchRef} (`transform-sync` takes `{ branchName }`, §4.6). */
export const BranchRefSchema = /*#__PURE__*/ deferred(() =>
  objectWith({ branchName: branchName() }, 'must be an object { branchName }'),
);

/** @internal Schema of the dev-mode body `{ branchName? }`: without a branch, the caller's own dev branch. */
export const DevModeInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith({ branchName: v.optional(branchName()) }, 'must be an object { branchName? }'),
);

/** An upload in progress (`upload/start`). */
export interface DataModelUpload {
  /** Pass it to `upload/file` and `upload/finish`. */
  uploadId: string;
  [key: string]: unknown;
}

/** One chunk of a file of an upload (`upload/file`): chunks of a path are appended in order. */
export interface DataModelUploadChunk {
  /** From `upload/start`. */
  uploadId: string;
  /** The file's relative path. */
  path: string;
  /** The next piece of its contents. */
  content: string;
}

/** @internal Schema of {@link DataModelUploadChunk}. */
export const DataModelUploadChunkSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      uploadId: filledString('must be the uploadId from upload/start'),
      path: DataModelPathSchema,
      content: v.string('must be a string, a piece of the file contents'),
    },
    'must be an object { uploadId, path, content }',
  ),
);

/** @internal Schema of the `upload/finish` body `{ uploadId }`. */
export const DataModelUploadFinishSchema = /*#__PURE__*/ deferred(() =>
  objectWith({ uploadId: filledString('must be the uploadId from upload/start') }, 'must be an object { uploadId }'),
);

/** A branch of a deployment's data model. */
export interface Branch {
  /** Branch name. */
  name: string;
  /** Whether it is the deployment's default branch. */
  isDefault?: boolean;
  /** Whether it is in dev mode (files can be written). */
  devMode?: boolean;
  /** Whether it has changes not committed. */
  dirty?: boolean;
  /** Its latest commit. */
  head?: string | null;
  [key: string]: unknown;
}

/** Body that creates a branch. */
export interface BranchInput {
  /** The new branch's name. */
  name: string;
  /** The branch it starts from; default the default branch. */
  from?: string;
}

/** @internal Schema of {@link BranchInput}. */
export const BranchInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith({ name: branchName(), from: v.optional(branchName()) }, 'must be an object { name, from? }'),
);

/** Body of `commit`. */
export interface CommitInput {
  /** The branch whose changes are committed. */
  branchName: string;
  /** The commit message. */
  message: string;
}

/** @internal Schema of {@link CommitInput}. */
export const CommitInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    { branchName: branchName(), message: filledString('must be a non-empty string, the commit message') },
    'must be an object { branchName, message }',
  ),
);

/** Body of `merge`. */
export interface MergeInput {
  /** The branch merged. */
  branchName: string;
  /** The branch it is merged into. */
  targetBranchName: string;
}

/** @internal Schema of {@link MergeInput}. */
export const MergeInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    { branchName: branchName(), targetBranchName: branchName() },
    'must be an object { branchName, targetBranchName }',
  ),
);

/** A commit made by `commit`. */
export interface Commit {
  /** The commit id. */
  commitId: string;
  /** The branch. */
  branchName: string;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Repository host and transformation sync
// ---------------------------------------------------------------------------------------------

/** Body of `repohost/connect` (§4.6): connects the deployment to a repository and triggers a build. */
export interface ConnectRepositoryInput {
  /** The installation of the repository host app. */
  installationId: number;
  /** The repository's owner. */
  owner: string;
  /** The repository's name. */
  repo: string;
  /** The branch deployed; default the repository's default branch. */
  branchName?: string;
}

/** @internal Schema of {@link ConnectRepositoryInput}. */
export const ConnectRepositoryInputSchema = /*#__PURE__*/ deferred(() =>
  objectWith(
    {
      installationId: positiveId('must be an installation id'),
      owner: filledString('must be a non-empty string'),
      repo: filledString('must be a non-empty string'),
      branchName: v.optional(branchName()),
    },
    'must be an object { installationId, owner, repo, branchName? }',
  ),
);

/** What `repohost/connect` answers. */
export interface RepositoryConnection {
  /** `owner/repo`. */
  repository: string;
  /** The branch deployed. */
  branchName: string;
  /** The build it triggered. */
  build?: BuildStatus;
  [key: string]: unknown;
}

/** Whether the repository host app is installed for the tenant (`repohost/status`). */
export interface RepoHostStatus {
  /** Whether at least one installation exists. */
  connected: boolean;
  [key: string]: unknown;
}

/** An installation of the repository host app. */
export interface RepoHostInstallation {
  /** Installation id. */
  id: number;
  /** The account it is installed on. */
  account?: string;
  [key: string]: unknown;
}

/** A repository an installation can reach. */
export interface RepoHostRepository {
  /** Its owner. */
  owner: string;
  /** Its name. */
  name: string;
  /** Its default branch. */
  defaultBranch?: string;
  [key: string]: unknown;
}

/** A branch of a repository. */
export interface RepoHostBranch {
  /** Branch name. */
  name: string;
  [key: string]: unknown;
}

/** What `transform-sync` answers (§4.6). */
export interface TransformSync {
  /** The branch synced. */
  branchName: string;
  /** The sync job. */
  syncJobId: string;
  /** The workflow running it. */
  workflowId: string;
}
