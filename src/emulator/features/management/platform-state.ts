/**
 * The small, believable state behind the platform endpoints (interface 4.6), per deployment:
 * the data model's branches with their files and commits, builds, container logs, environment
 * variables, chunked uploads and the repository connection. `platform.ts` and `data-model.ts`
 * answer from it; what one does shows in the other (a merge to the default branch starts a build,
 * the build shows in `build-status`, `pods` and `logs`).
 *
 * Time is the emulator's clock: a build runs {@link BUILD_DURATION_MS}, then succeeds, and the
 * log lines of its end carry the time it ended. A manual clock (`createManualClock`) moves builds
 * on without waiting.
 *
 * @module
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { LogSource } from '../../../core/protocol/platform';
import type { EmulatorContext } from '../../context';
import { httpError } from '../../http';
import { DEFAULT_BRANCH } from '../../world';
import { invalid, iso, type DeploymentRecord } from './shared';

/** How long a build runs, by the emulator's clock (2 s). */
export const BUILD_DURATION_MS = 2000;

/** A branch of a deployment's data model. */
export interface BranchRecord {
  name: string;
  /** Files by path. */
  files: Map<string, string>;
  /** Writes are allowed only while this is set (4.6: writes restricted to dev-mode branches). */
  devMode: boolean;
  /** Files changed since the last commit. */
  dirty: boolean;
  /** The latest commit, or `null` before the first. */
  head: string | null;
  createdAt: number;
}

/** A build of a branch. */
export interface BuildRecord {
  number: number;
  branchName: string;
  commitId: string | null;
  startedAt: number;
  /** Why it ran: `merge`, `repository`, `dev-mode`, `commit`. */
  trigger: string;
  /** Set once the end of the build was written to the logs. */
  settled: boolean;
}

/** A log line. */
export interface LogRecord {
  seq: number;
  at: number;
  source: LogSource;
  container: string;
  message: string;
}

/** The platform state of one deployment. */
export interface PlatformState {
  branches: Map<string, BranchRecord>;
  /** The latest build of each branch. */
  builds: Map<string, BuildRecord>;
  logs: LogRecord[];
  envVars: Map<string, string>;
  /** Uploads in progress by id. */
  uploads: Map<string, { branchName: string; files: Map<string, string> }>;
  repository: { owner: string; repo: string; branchName: string; installationId: number } | null;
  counter: number;
}

const PLATFORM = Symbol('emulator.management.platform');

function allStates(context: EmulatorContext): Map<number, PlatformState> {
  return context.state.featureState(PLATFORM, () => new Map<number, PlatformState>());
}

/** A new commit id: 12 hex digits, different for every call. */
export function commitId(state: PlatformState, seed: string): string {
  state.counter += 1;
  return createHash('sha1').update(`${seed}/${state.counter}`).digest('hex').slice(0, 12);
}

/** Appends a log line of the deployment. */
export function log(state: PlatformState, at: number, source: LogSource, container: string, message: string): void {
  state.counter += 1;
  state.logs.push({ seq: state.counter, at, source, container, message });
}

/**
 * The platform state of a deployment, created on first use: the world's deployments start on
 * {@link DEFAULT_BRANCH} with the world's data-model files, one commit, a finished build, the
 * world's environment variables and a few start-up log lines; a created deployment starts empty.
 */
export function platformOf(context: EmulatorContext, deployment: DeploymentRecord): PlatformState {
  const states = allStates(context);
  let state = states.get(deployment.id);
  if (state) return settleBuilds(state, context.clock.now());
  const now = context.clock.now();
  state = {
    branches: new Map(),
    builds: new Map(),
    logs: [],
    envVars: new Map(
      context.world.envVars
        .filter((envVar) => envVar.deploymentId === deployment.id)
        .map((envVar) => [envVar.name, envVar.value]),
    ),
    uploads: new Map(),
    repository: null,
    counter: 0,
  };
  const files = deployment.fixed
    ? new Map(context.world.dataModelFiles.map((file) => [file.path, file.content]))
    : new Map<string, string>();
  const head = deployment.fixed ? commitId(state, `${deployment.id}/initial`) : null;
  state.branches.set(DEFAULT_BRANCH, {
    name: DEFAULT_BRANCH,
    files,
    devMode: false,
    dirty: false,
    head,
    createdAt: now,
  });
  if (deployment.fixed) {
    state.builds.set(DEFAULT_BRANCH, {
      number: 1,
      branchName: DEFAULT_BRANCH,
      commitId: head,
      startedAt: now - BUILD_DURATION_MS,
      trigger: 'merge',
      settled: true,
    });
    log(state, now, 'production', 'INIT', `Loaded data model: ${files.size} files at ${head}`);
    log(state, now, 'production', 'MAIN', 'API server listening on port 4000');
    log(state, now, 'production', 'api-proxy', 'Proxy ready');
    log(state, now, 'production', 'vector', 'Shipping logs');
  }
  states.set(deployment.id, state);
  return state;
}

/** Drops the platform state of a deleted deployment. */
export function dropPlatform(context: EmulatorContext, deploymentId: number): void {
  allStates(context).delete(deploymentId);
}

/** Writes the end of every build whose time has come to the logs, at the time it ended. */
function settleBuilds(state: PlatformState, now: number): PlatformState {
  for (const build of state.builds.values()) {
    const endedAt = build.startedAt + BUILD_DURATION_MS;
    if (build.settled || endedAt > now) continue;
    build.settled = true;
    const source: LogSource = build.trigger === 'dev-mode' ? 'dev' : 'production';
    log(
      state,
      endedAt,
      source,
      'INIT',
      `Build ${build.number} of ${build.branchName} succeeded (${build.commitId ?? 'no commit'})`,
    );
    log(state, endedAt, source, 'MAIN', `Serving ${build.branchName} at ${build.commitId ?? 'no commit'}`);
  }
  return state;
}

/** Starts a build of a branch at its head. */
export function startBuild(
  context: EmulatorContext,
  state: PlatformState,
  branch: BranchRecord,
  trigger: BuildRecord['trigger'],
): BuildRecord {
  const now = context.clock.now();
  const number = Math.max(0, ...[...state.builds.values()].map((build) => build.number)) + 1;
  const build: BuildRecord = {
    number,
    branchName: branch.name,
    commitId: branch.head,
    startedAt: now,
    trigger,
    settled: false,
  };
  state.builds.set(branch.name, build);
  log(
    state,
    now,
    trigger === 'dev-mode' ? 'dev' : 'production',
    'INIT',
    `Build ${number} of ${branch.name} started (${trigger})`,
  );
  return build;
}

/** The status of a branch's latest build, by the clock. */
export function buildWire(context: EmulatorContext, state: PlatformState, branchName: string) {
  const build = state.builds.get(branchName);
  if (!build)
    return { branchName, status: 'none', commitId: null, buildNumber: null, startedAt: null, finishedAt: null };
  const finishedAt = build.startedAt + BUILD_DURATION_MS;
  const done = finishedAt <= context.clock.now();
  return {
    branchName,
    status: done ? 'success' : 'building',
    commitId: build.commitId,
    buildNumber: build.number,
    startedAt: iso(build.startedAt),
    finishedAt: done ? iso(finishedAt) : null,
  };
}

/** A branch of the deployment, or a 404 (path, query) or 400 (body) naming it. */
export function requireBranch(state: PlatformState, name: string, where: 'query' | 'body' = 'body'): BranchRecord {
  const branch = state.branches.get(name);
  if (branch) return branch;
  if (where === 'query') throw httpError(404, `Branch "${name}" not found`);
  throw invalid([`branchName: no branch "${name}"`]);
}

/** A branch that accepts writes: in dev mode (4.6), else 409. */
export function requireDevMode(branch: BranchRecord): BranchRecord {
  if (!branch.devMode)
    throw httpError(
      409,
      `Branch "${branch.name}" is not in dev mode: data-model writes are restricted to dev-mode branches (POST .../dev-mode first)`,
    );
  return branch;
}

/** The wire shape of a branch. */
export function branchWire(branch: BranchRecord) {
  return {
    name: branch.name,
    isDefault: branch.name === DEFAULT_BRANCH,
    devMode: branch.devMode,
    dirty: branch.dirty,
    head: branch.head,
    fileCount: branch.files.size,
    createdAt: iso(branch.createdAt),
  };
}

/** The wire shape of a file: path, contents, SHA-256 and size in bytes. */
export function fileWire(path: string, content: string) {
  return {
    path,
    content,
    hash: createHash('sha256').update(content).digest('hex'),
    size: Buffer.byteLength(content),
  };
}
