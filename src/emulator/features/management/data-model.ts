/**
 * The data model of a deployment (interface 4.6, `/build/api/v1`, same host and key as
 * `/api/v1`): files, chunked uploads, file hashes, dev mode and branches. Part of the client's
 * `platform` group. `Bearer` auth; reads take any key in scope, writes need the AI BI User role or
 * higher (an admin key, or a personal key of an editor such as `ben`).
 *
 * | method | path below `/build/api/v1/deployments/{deploymentId}` |
 * |---|---|
 * | GET, PUT, DELETE | `/data-model/files` (GET `?branchName=`; PUT `{ branchName, files }`; DELETE `{ branchName, paths }`) |
 * | POST | `/data-model/files/rename` `{ branchName, renames: [{ from, to }] }` |
 * | POST | `/data-model/upload/start` `{ branchName }`, `/upload/file` `{ uploadId, path, content }`, `/upload/finish` `{ uploadId }` |
 * | GET | `/data-model/file-hashes?branchName=` |
 * | POST, DELETE | `/dev-mode` `{ branchName? }` |
 * | GET, POST | `/branches` (POST `{ name, from? }`) |
 * | POST | `/commit` `{ branchName, message }`, `/pull` `{ branchName }`, `/merge` `{ branchName, targetBranchName }`, `/merge-to-default` `{ branchName }` |
 *
 * Bodies are checked with the protocol's schemas (paths are relative, without `.` or `..`
 * parts); a branch named in a body must exist (400), one named in a query too (404).
 *
 * - Writes (files PUT, DELETE, rename; uploads) are restricted to dev-mode branches (4.6): 409
 *   on any other. They mark the branch `dirty`. Deleting or renaming a file that does not exist,
 *   or renaming onto one that does, is a 400.
 * - An upload collects chunks (appended per path, in order) and writes its files over the
 *   branch's at `finish` (files it does not hold stay); 404 for an unknown upload.
 * - File `{ path, content, hash (SHA-256 hex), size }`; hashes `{ branchName, hashes: { path: hash } }`.
 * - Dev mode: on the branch named, or without one on the caller's own branch `dev-<userId>`
 *   (created from the default branch when missing); the default branch never enters dev mode
 *   (409). Starting it starts a dev build; stopping answers 204.
 * - Branch `{ name, isDefault, devMode, dirty, head, fileCount, createdAt }`; a new branch (201)
 *   copies `from` (default: the default branch); names are letters, digits, `.`, `_`, `-` and `/`
 *   without `..` (400), unique (409).
 * - `commit` (201 `{ commitId, branchName, message, createdAt }`) needs changes (409 otherwise);
 *   a commit on the default branch starts a build. `pull` copies the default branch into a branch
 *   without changes (409 with uncommitted changes). `merge` and `merge-to-default` copy a branch
 *   without uncommitted changes into the target (409 when either has some) and answer the target;
 *   a merge into the default branch starts a build.
 *
 * @module
 */
import { Buffer } from 'node:buffer';
import { Hono, type Context } from 'hono';
import {
  BranchInputSchema,
  BranchRefSchema,
  CommitInputSchema,
  DataModelFilesDeleteSchema,
  DataModelFilesInputSchema,
  DataModelFilesRenameSchema,
  DataModelUploadChunkSchema,
  DataModelUploadFinishSchema,
  DevModeInputSchema,
  MergeInputSchema,
} from '../../../core/protocol/platform';
import { validateBody } from '../../../core/protocol/management';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonResponse } from '../../http';
import { DEFAULT_BRANCH } from '../../world';
import {
  branchWire,
  commitId,
  fileWire,
  log,
  platformOf,
  requireBranch,
  requireDevMode,
  startBuild,
  type BranchRecord,
  type PlatformState,
} from './platform-state';
import {
  actorOf,
  invalid,
  iso,
  listAnswer,
  managementAuth,
  noContent,
  readSchema,
  readValid,
  requireDeployment,
} from './shared';

const BRANCH_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

function filesWire(branch: BranchRecord, paths: Iterable<string>) {
  return { items: [...paths].map((path) => fileWire(path, branch.files.get(path) ?? '')) };
}

/** Copies `from`'s files and head into `to`. */
function copyInto(from: BranchRecord, to: BranchRecord): void {
  to.files = new Map(from.files);
  to.head = from.head;
  to.dirty = false;
}

/** The data-model sub-app. */
export function dataModelApp(context: EmulatorContext): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const { bearer } = managementAuth(context);
  const base = '/build/api/v1/deployments/:deploymentId';

  /** The deployment's platform state, for a caller who may write the data model. */
  const writable = (c: Context<EmulatorEnv>): PlatformState => {
    const deployment = requireDeployment(context, c);
    if (!actorOf(context, c).creator)
      throw httpError(403, 'Changing the data model needs the AI BI User role or higher');
    return platformOf(context, deployment);
  };
  const readable = (c: Context<EmulatorEnv>) => {
    const state = platformOf(context, requireDeployment(context, c));
    return { state, branch: requireBranch(state, c.req.query('branchName') ?? DEFAULT_BRANCH, 'query') };
  };

  app.get(`${base}/data-model/files`, bearer, (c) => {
    const { branch } = readable(c);
    return listAnswer(c, {
      items: [...branch.files],
      tag: `files:${branch.name}`,
      key: ([path]) => [path],
      toWire: ([path, content]) => fileWire(path, content),
    });
  });

  app.put(`${base}/data-model/files`, bearer, async (c) => {
    const state = writable(c);
    const input = await readSchema(c, DataModelFilesInputSchema);
    const branch = requireDevMode(requireBranch(state, input.branchName));
    for (const file of input.files) branch.files.set(file.path, file.content);
    branch.dirty = true;
    return jsonResponse(
      200,
      filesWire(
        branch,
        input.files.map((file) => file.path),
      ),
    );
  });

  app.delete(`${base}/data-model/files`, bearer, async (c) => {
    const state = writable(c);
    const input = await readSchema(c, DataModelFilesDeleteSchema);
    const branch = requireDevMode(requireBranch(state, input.branchName));
    const missing = input.paths.filter((path) => !branch.files.has(path));
    if (missing.length > 0) throw invalid(missing.map((path) => `paths: no file "${path}" on ${branch.name}`));
    for (const path of input.paths) branch.files.delete(path);
    branch.dirty = true;
    return noContent();
  });

  app.post(`${base}/data-model/files/rename`, bearer, async (c) => {
    const state = writable(c);
    const input = await readSchema(c, DataModelFilesRenameSchema);
    const branch = requireDevMode(requireBranch(state, input.branchName));
    const problems = input.renames.flatMap(({ from, to }) => [
      ...(branch.files.has(from) ? [] : [`renames: no file "${from}" on ${branch.name}`]),
      ...(branch.files.has(to) ? [`renames: "${to}" already exists on ${branch.name}`] : []),
    ]);
    if (problems.length > 0) throw invalid(problems);
    for (const { from, to } of input.renames) {
      branch.files.set(to, branch.files.get(from)!);
      branch.files.delete(from);
    }
    branch.dirty = true;
    return jsonResponse(
      200,
      filesWire(
        branch,
        input.renames.map((rename) => rename.to),
      ),
    );
  });

  app.post(`${base}/data-model/upload/start`, bearer, async (c) => {
    const state = writable(c);
    const { branchName } = await readSchema(c, BranchRefSchema);
    requireDevMode(requireBranch(state, branchName));
    state.counter += 1;
    const uploadId = `upload-${state.counter}`;
    state.uploads.set(uploadId, { branchName, files: new Map() });
    return jsonResponse(201, { uploadId, branchName });
  });

  const uploadOf = (state: PlatformState, uploadId: string) => {
    const upload = state.uploads.get(uploadId);
    if (!upload) throw httpError(404, `Upload ${uploadId} not found`);
    return upload;
  };

  app.post(`${base}/data-model/upload/file`, bearer, async (c) => {
    const state = writable(c);
    const chunk = await readSchema(c, DataModelUploadChunkSchema);
    const upload = uploadOf(state, chunk.uploadId);
    const content = (upload.files.get(chunk.path) ?? '') + chunk.content;
    upload.files.set(chunk.path, content);
    return jsonResponse(200, { uploadId: chunk.uploadId, path: chunk.path, size: Buffer.byteLength(content) });
  });

  app.post(`${base}/data-model/upload/finish`, bearer, async (c) => {
    const state = writable(c);
    const { uploadId } = await readSchema(c, DataModelUploadFinishSchema);
    const upload = uploadOf(state, uploadId);
    const branch = requireDevMode(requireBranch(state, upload.branchName));
    for (const [path, content] of upload.files) branch.files.set(path, content);
    if (upload.files.size > 0) branch.dirty = true;
    state.uploads.delete(uploadId);
    return jsonResponse(200, filesWire(branch, upload.files.keys()));
  });

  app.get(`${base}/data-model/file-hashes`, bearer, (c) => {
    const { branch } = readable(c);
    const hashes = Object.fromEntries([...branch.files].map(([path, content]) => [path, fileWire(path, content).hash]));
    return jsonResponse(200, { branchName: branch.name, hashes });
  });

  /** The branch a dev-mode body names, or the caller's own dev branch. */
  const devBranch = (
    c: Context<EmulatorEnv>,
    state: PlatformState,
    branchName: string | undefined,
    create: boolean,
  ) => {
    const name = branchName ?? `dev-${actorOf(context, c).userId}`;
    if (name === DEFAULT_BRANCH) throw httpError(409, `The default branch "${DEFAULT_BRANCH}" cannot enter dev mode`);
    const existing = state.branches.get(name);
    if (existing || branchName !== undefined || !create) return requireBranch(state, name);
    const created: BranchRecord = {
      name,
      files: new Map(),
      devMode: false,
      dirty: false,
      head: null,
      createdAt: context.clock.now(),
    };
    copyInto(requireBranch(state, DEFAULT_BRANCH), created);
    state.branches.set(name, created);
    return created;
  };

  app.post(`${base}/dev-mode`, bearer, async (c) => {
    const state = writable(c);
    const { branchName } = await readValid(c, (body) => validateBody(DevModeInputSchema, body ?? {}));
    const branch = devBranch(c, state, branchName, true);
    if (!branch.devMode) {
      branch.devMode = true;
      log(state, context.clock.now(), 'dev', 'MAIN', `Dev mode started on ${branch.name}`);
      startBuild(context, state, branch, 'dev-mode');
    }
    return jsonResponse(200, branchWire(branch));
  });

  app.delete(`${base}/dev-mode`, bearer, async (c) => {
    const state = writable(c);
    const { branchName } = await readValid(c, (body) => validateBody(DevModeInputSchema, body ?? {}));
    const branch = devBranch(c, state, branchName, false);
    if (branch.devMode) {
      branch.devMode = false;
      log(state, context.clock.now(), 'dev', 'MAIN', `Dev mode stopped on ${branch.name}`);
    }
    return noContent();
  });

  app.get(`${base}/branches`, bearer, (c) => {
    const state = platformOf(context, requireDeployment(context, c));
    return listAnswer(c, {
      items: state.branches.values(),
      tag: 'branches',
      key: (branch) => [branch.name],
      toWire: branchWire,
    });
  });

  app.post(`${base}/branches`, bearer, async (c) => {
    const state = writable(c);
    const input = await readSchema(c, BranchInputSchema);
    if (!BRANCH_NAME.test(input.name) || input.name.includes('..'))
      throw invalid([
        'name: letters, digits, ".", "_", "-" and "/" only, starting with a letter or digit, without ".."',
      ]);
    if (state.branches.has(input.name)) throw httpError(409, `Branch "${input.name}" already exists`);
    const from = requireBranch(state, input.from ?? DEFAULT_BRANCH);
    const branch: BranchRecord = {
      name: input.name,
      files: new Map(),
      devMode: false,
      dirty: false,
      head: null,
      createdAt: context.clock.now(),
    };
    copyInto(from, branch);
    state.branches.set(branch.name, branch);
    return jsonResponse(201, branchWire(branch));
  });

  app.post(`${base}/commit`, bearer, async (c) => {
    const state = writable(c);
    const input = await readSchema(c, CommitInputSchema);
    const branch = requireBranch(state, input.branchName);
    if (!branch.dirty) throw httpError(409, `Nothing to commit on ${branch.name}`);
    const now = context.clock.now();
    branch.head = commitId(state, `${branch.name}/${input.message}`);
    branch.dirty = false;
    log(
      state,
      now,
      branch.devMode ? 'dev' : 'production',
      'MAIN',
      `Committed ${branch.head} on ${branch.name}: ${input.message}`,
    );
    if (branch.name === DEFAULT_BRANCH) startBuild(context, state, branch, 'commit');
    return jsonResponse(201, {
      commitId: branch.head,
      branchName: branch.name,
      message: input.message,
      createdAt: iso(now),
    });
  });

  const noChanges = (branch: BranchRecord) => {
    if (branch.dirty) throw httpError(409, `Branch "${branch.name}" has uncommitted changes: commit them first`);
    return branch;
  };

  app.post(`${base}/pull`, bearer, async (c) => {
    const state = writable(c);
    const { branchName } = await readSchema(c, BranchRefSchema);
    const branch = noChanges(requireBranch(state, branchName));
    if (branch.name !== DEFAULT_BRANCH) copyInto(requireBranch(state, DEFAULT_BRANCH), branch);
    return jsonResponse(200, branchWire(branch));
  });

  /** Merges `source` into `target` (both without uncommitted changes); a merge into the default branch builds. */
  const merge = (state: PlatformState, source: BranchRecord, target: BranchRecord) => {
    noChanges(source);
    noChanges(target);
    copyInto(source, target);
    log(
      state,
      context.clock.now(),
      'production',
      'MAIN',
      `Merged ${source.name} into ${target.name} at ${target.head ?? 'no commit'}`,
    );
    if (target.name === DEFAULT_BRANCH) startBuild(context, state, target, 'merge');
    return jsonResponse(200, branchWire(target));
  };

  app.post(`${base}/merge`, bearer, async (c) => {
    const state = writable(c);
    const input = await readSchema(c, MergeInputSchema);
    return merge(state, requireBranch(state, input.branchName), requireBranch(state, input.targetBranchName));
  });

  app.post(`${base}/merge-to-default`, bearer, async (c) => {
    const state = writable(c);
    const { branchName } = await readSchema(c, BranchRefSchema);
    return merge(state, requireBranch(state, branchName), requireBranch(state, DEFAULT_BRANCH));
  });

  return app;
}
