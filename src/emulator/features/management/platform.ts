/**
 * The platform of the management API (interface 4.6), as the client's `platform` group, without
 * the data model (`data-model.ts`): deployments, build status, logs, pods, environment variables,
 * the setup wizard, environments, regions, repository connections and transformation sync.
 * `Bearer` auth; reads take any key in scope of the deployment, changes to a deployment need an
 * admin key (403 for a personal key).
 *
 * | method | path | auth |
 * |---|---|---|
 * | GET | `/api/v1/deployments/` (also without the slash) | any key: the key's deployments |
 * | POST | `/build/api/v1/deployments/` | unscoped admin key (a scoped key cannot reach a new deployment: 403) |
 * | PUT, DELETE | `/api/v1/deployments/{id}` | admin key |
 * | GET | `.../{id}/build-status?branchName=`, `.../logs`, `.../pods`, `.../environments` | any key |
 * | GET, PUT | `.../{id}/env-vars` | admin key (values may be secrets) |
 * | POST | `.../{id}/creation-step/advance`, `.../creation-step/reset` | admin key |
 * | POST | `.../{id}/transform-sync` | admin key |
 * | GET | `/api/v1/regions/` | any key |
 * | GET | `/api/v1/repohost/status`, `/installations`, `/installations/{id}/repositories`, `/repositories/{owner}/{repo}/branches` | any key |
 * | POST | `/build/api/v1/deployments/{id}/repohost/connect` | admin key |
 *
 * - Deployment `{ id, name, cloudProvider, creationMethod, deployMode, regionId, repository,
 *   createdAt, updatedAt }`. The list is `{ items }` only (4.6), limited by `first`. Create checks
 *   the body with the protocol's schema (name, deploy mode `git`/`cli`), then the emulator's
 *   choices: `cloudProvider` one of `aws`, `gcp`, `azure`, `regionId` a region of `CLOUD_REGIONS`
 *   (400 otherwise); the new deployment starts at the first setup step with an empty data model
 *   and no build. It exists in the management API only: the data API, chat and embeds serve the
 *   world's deployments. The world's deployments cannot be deleted (409): other features rely on
 *   them.
 * - Build status of a branch (default `main`): `{ branchName, status: 'none'|'building'|'success',
 *   commitId, buildNumber, startedAt, finishedAt }` (see `platform-state.ts`); 404 for a branch
 *   that does not exist.
 * - Logs `{ timestamp, source, container, message }`, oldest first, cursor-paginated; `source`
 *   (`production`, `dev`) is checked with the protocol's schema (400), `container` filters as given.
 * - Pods `{ name, status, source, containers, startedAt }`: the API and refresh worker of
 *   production (`Pending` while the default branch builds), one dev pod per dev-mode branch.
 * - Env vars `{ name, value }` by name; `PUT { envVars: [{ name, value }] }` sets the named ones,
 *   `value: null` removes one, and answers `{ items }` of all; the change is logged as a restart.
 * - Setup wizard `{ deploymentId, step, stepName, steps }`: advance stops at the last step, reset
 *   goes back to the first.
 * - Environments: `production` (the default branch) and one `development` environment per
 *   dev-mode branch.
 * - Transform sync `{ branchName }` (a branch of the deployment, 400 otherwise) → 200
 *   `{ branchName, syncJobId, workflowId }`, logged.
 * - Repository host: `status` `{ connected, provider, installationCount }`; installations `{ id,
 *   account }`, repositories `{ owner, name, defaultBranch }`, branches `{ name }` from the world
 *   (404 for an unknown installation or repository). `connect { installationId, owner, repo,
 *   branchName? }` needs a repository the installation reaches and one of its branches (400),
 *   connects the deployment and starts a build of the default branch: 200 `{ deploymentId,
 *   repository, branchName, build }`.
 *
 * @module
 */
import { Hono, type Context } from 'hono';
import {
  BranchRefSchema,
  DeploymentInputSchema,
  DeploymentPatchSchema,
  EnvVarsInputSchema,
  LogFiltersSchema,
  ConnectRepositoryInputSchema,
} from '../../../core/protocol/platform';
import { validateBody } from '../../../core/protocol/management';
import { keyAllowsDeployment } from '../../auth';
import type { EmulatorContext, EmulatorEnv } from '../../context';
import { httpError, jsonResponse } from '../../http';
import { DEFAULT_BRANCH } from '../../world';
import {
  buildWire,
  dropPlatform,
  log,
  platformOf,
  requireBranch,
  startBuild,
  type PlatformState,
} from './platform-state';
import {
  apiKeyOf,
  deploymentsOf,
  invalid,
  iso,
  listAnswer,
  managementAuth,
  noContent,
  parseFirst,
  parseId,
  readSchema,
  requireDeployment,
  valid,
  withSlash,
  type DeploymentRecord,
} from './shared';

const CLOUD_PROVIDERS = ['aws', 'gcp', 'azure'];

function deploymentWire(context: EmulatorContext, deployment: DeploymentRecord) {
  const repository = platformOf(context, deployment).repository;
  return {
    id: deployment.id,
    name: deployment.name,
    cloudProvider: deployment.cloudProvider,
    creationMethod: deployment.creationMethod,
    deployMode: deployment.deployMode,
    regionId: deployment.regionId,
    repository: repository ? `${repository.owner}/${repository.repo}` : null,
    createdAt: iso(deployment.createdAt),
    updatedAt: iso(deployment.updatedAt),
  };
}

function creationStepWire(context: EmulatorContext, deployment: DeploymentRecord) {
  const steps = [...context.world.creationSteps];
  return {
    deploymentId: deployment.id,
    step: deployment.creationStep,
    stepName: steps[deployment.creationStep],
    steps,
  };
}

function envVarsWire(state: PlatformState) {
  return { items: [...state.envVars].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, value]) => ({ name, value })) };
}

function findRepository(context: EmulatorContext, owner: string, repo: string) {
  for (const installation of context.world.repoHostInstallations) {
    const found = installation.repositories.find((candidate) => candidate.owner === owner && candidate.name === repo);
    if (found) return { installation, repository: found };
  }
  return undefined;
}

/** The deployment of the path with its platform state. */
function platformParam(context: EmulatorContext, c: Context<EmulatorEnv>) {
  const deployment = requireDeployment(context, c);
  return { deployment, state: platformOf(context, deployment) };
}

/** The platform sub-app. */
export function platformApp(context: EmulatorContext): Hono<EmulatorEnv> {
  const app = new Hono<EmulatorEnv>();
  const { bearer, admin } = managementAuth(context);
  const one = '/api/v1/deployments/:deploymentId';

  for (const path of withSlash('/api/v1/deployments')) {
    app.get(path, bearer, (c) => {
      const key = apiKeyOf(c);
      const first = parseFirst(c.req.query('first'));
      const items = [...deploymentsOf(context).values()]
        .filter((deployment) => keyAllowsDeployment(key, deployment.id))
        .slice(0, first)
        .map((deployment) => deploymentWire(context, deployment));
      return jsonResponse(200, { items });
    });
  }

  for (const path of withSlash('/build/api/v1/deployments')) {
    app.post(path, admin, async (c) => {
      if (apiKeyOf(c).deploymentIds !== 'all')
        throw httpError(403, 'Creating a deployment needs an unscoped admin key: a scoped key could not reach it');
      const input = await readSchema(c, DeploymentInputSchema);
      const problems: string[] = [];
      if (input.cloudProvider !== undefined && !CLOUD_PROVIDERS.includes(input.cloudProvider))
        problems.push(`cloudProvider: must be one of ${CLOUD_PROVIDERS.join(', ')}`);
      if (input.regionId !== undefined && !context.world.regions.some((region) => region.id === input.regionId))
        problems.push(`regionId: no region "${input.regionId}"; GET /api/v1/regions/ lists them`);
      if (problems.length > 0) throw invalid(problems);
      const now = context.clock.now();
      const deployment: DeploymentRecord = {
        id: context.state.nextId('deployment'),
        name: input.name,
        cloudProvider: input.cloudProvider ?? null,
        creationMethod: input.creationMethod ?? null,
        deployMode: input.deployMode ?? null,
        regionId: input.regionId ?? null,
        createdAt: now,
        updatedAt: now,
        fixed: false,
        creationStep: 0,
      };
      deploymentsOf(context).set(deployment.id, deployment);
      return jsonResponse(201, deploymentWire(context, deployment));
    });
  }

  app.put(one, admin, async (c) => {
    const deployment = requireDeployment(context, c);
    const patch = await readSchema(c, DeploymentPatchSchema);
    if (patch.name !== undefined && patch.name !== deployment.name) {
      deployment.name = patch.name;
      deployment.updatedAt = context.clock.now();
    }
    return jsonResponse(200, deploymentWire(context, deployment));
  });

  app.delete(one, admin, (c) => {
    const deployment = requireDeployment(context, c);
    if (deployment.fixed)
      throw httpError(409, `Deployment ${deployment.id} belongs to the emulator's fixed world and cannot be deleted`);
    deploymentsOf(context).delete(deployment.id);
    dropPlatform(context, deployment.id);
    return noContent();
  });

  app.get(`${one}/build-status`, bearer, (c) => {
    const { state } = platformParam(context, c);
    const branch = requireBranch(state, c.req.query('branchName') ?? DEFAULT_BRANCH, 'query');
    return jsonResponse(200, buildWire(context, state, branch.name));
  });

  app.get(`${one}/logs`, bearer, (c) => {
    const { deployment, state } = platformParam(context, c);
    const { source, container } = valid(
      validateBody(LogFiltersSchema, { source: c.req.query('source'), container: c.req.query('container') }),
    );
    return listAnswer(c, {
      items: state.logs.filter(
        (entry) =>
          (source === undefined || entry.source === source) &&
          (container === undefined || entry.container === container),
      ),
      tag: `logs:${deployment.id}:${source ?? ''}:${container ?? ''}`,
      key: (entry) => [entry.seq],
      toWire: (entry) => ({
        timestamp: iso(entry.at),
        source: entry.source,
        container: entry.container,
        message: entry.message,
      }),
    });
  });

  app.get(`${one}/pods`, bearer, (c) => {
    const { deployment, state } = platformParam(context, c);
    const building = buildWire(context, state, DEFAULT_BRANCH).status === 'building';
    const startedAt = iso(deployment.createdAt);
    const pods = [
      {
        name: `d${deployment.id}-api-0`,
        status: building ? 'Pending' : 'Running',
        source: 'production',
        containers: ['INIT', 'MAIN', 'vector', 'api-proxy'],
        startedAt,
      },
      {
        name: `d${deployment.id}-refresh-worker-0`,
        status: 'Running',
        source: 'production',
        containers: ['MAIN', 'vector'],
        startedAt,
      },
      ...[...state.branches.values()]
        .filter((branch) => branch.devMode)
        .map((branch) => ({
          name: `d${deployment.id}-dev-${branch.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`,
          status: 'Running',
          source: 'dev',
          containers: ['MAIN'],
          startedAt: iso(branch.createdAt),
        })),
    ];
    return listAnswer(c, { items: pods, tag: `pods:${deployment.id}`, key: (pod) => [pod.name], toWire: (pod) => pod });
  });

  app.get(`${one}/env-vars`, admin, (c) => {
    const { deployment, state } = platformParam(context, c);
    return listAnswer(c, {
      items: [...state.envVars].map(([name, value]) => ({ name, value })),
      tag: `env-vars:${deployment.id}`,
      key: (envVar) => [envVar.name],
      toWire: (envVar) => envVar,
    });
  });

  app.put(`${one}/env-vars`, admin, async (c) => {
    const { state } = platformParam(context, c);
    const { envVars } = await readSchema(c, EnvVarsInputSchema);
    for (const { name, value } of envVars) {
      if (value === null) state.envVars.delete(name);
      else state.envVars.set(name, value);
    }
    const names = envVars.map((envVar) => envVar.name).join(', ');
    log(state, context.clock.now(), 'production', 'MAIN', `Environment changed (${names}); restarting`);
    return jsonResponse(200, envVarsWire(state));
  });

  app.post(`${one}/creation-step/advance`, admin, (c) => {
    const deployment = requireDeployment(context, c);
    deployment.creationStep = Math.min(deployment.creationStep + 1, context.world.creationSteps.length - 1);
    return jsonResponse(200, creationStepWire(context, deployment));
  });
  app.post(`${one}/creation-step/reset`, admin, (c) => {
    const deployment = requireDeployment(context, c);
    deployment.creationStep = 0;
    return jsonResponse(200, creationStepWire(context, deployment));
  });

  app.get(`${one}/environments`, bearer, (c) => {
    const { deployment, state } = platformParam(context, c);
    const environments = [
      { name: 'production', type: 'production', branchName: DEFAULT_BRANCH },
      ...[...state.branches.values()]
        .filter((branch) => branch.devMode)
        .map((branch) => ({ name: `dev-${branch.name}`, type: 'development', branchName: branch.name })),
    ];
    return listAnswer(c, {
      items: environments,
      tag: `environments:${deployment.id}`,
      key: (environment) => [environment.type === 'production' ? 0 : 1, environment.name],
      toWire: (environment) => environment,
    });
  });

  for (const path of withSlash('/api/v1/regions')) {
    app.get(path, bearer, (c) =>
      listAnswer(c, {
        items: context.world.regions,
        tag: 'regions',
        key: (region) => [region.id],
        toWire: (region) => ({ ...region }),
      }),
    );
  }

  app.post(`${one}/transform-sync`, admin, async (c) => {
    const { state } = platformParam(context, c);
    const { branchName } = await readSchema(c, BranchRefSchema);
    requireBranch(state, branchName);
    state.counter += 1;
    const answer = { branchName, syncJobId: `sync-${state.counter}`, workflowId: `wf-${state.counter}` };
    log(
      state,
      context.clock.now(),
      'production',
      'MAIN',
      `Transformation sync ${answer.syncJobId} started on ${branchName}`,
    );
    return jsonResponse(200, answer);
  });

  // Repository host.
  app.get('/api/v1/repohost/status', bearer, () =>
    jsonResponse(200, {
      connected: context.world.repoHostInstallations.length > 0,
      provider: 'github',
      installationCount: context.world.repoHostInstallations.length,
    }),
  );
  app.get('/api/v1/repohost/installations', bearer, (c) =>
    listAnswer(c, {
      items: context.world.repoHostInstallations,
      tag: 'installations',
      key: (installation) => [installation.id],
      toWire: (installation) => ({ id: installation.id, account: installation.account }),
    }),
  );
  app.get('/api/v1/repohost/installations/:installationId/repositories', bearer, (c) => {
    const id = parseId(c.req.param('installationId'));
    const installation = context.world.repoHostInstallations.find((candidate) => candidate.id === id);
    if (!installation) throw httpError(404, `Installation ${c.req.param('installationId') ?? ''} not found`);
    return listAnswer(c, {
      items: installation.repositories,
      tag: `repositories:${installation.id}`,
      key: (repository) => [repository.owner, repository.name],
      toWire: (repository) => ({
        owner: repository.owner,
        name: repository.name,
        defaultBranch: repository.defaultBranch,
      }),
    });
  });
  app.get('/api/v1/repohost/repositories/:owner/:repo/branches', bearer, (c) => {
    const found = findRepository(context, c.req.param('owner') ?? '', c.req.param('repo') ?? '');
    if (!found) throw httpError(404, `Repository ${c.req.param('owner') ?? ''}/${c.req.param('repo') ?? ''} not found`);
    return listAnswer(c, {
      items: found.repository.branches,
      tag: `repo-branches:${found.repository.owner}/${found.repository.name}`,
      key: (name) => [name],
      toWire: (name) => ({ name }),
    });
  });
  app.post('/build/api/v1/deployments/:deploymentId/repohost/connect', admin, async (c) => {
    const { deployment, state } = platformParam(context, c);
    const input = await readSchema(c, ConnectRepositoryInputSchema);
    const found = findRepository(context, input.owner, input.repo);
    if (!found || found.installation.id !== input.installationId)
      throw invalid([`repo: installation ${input.installationId} reaches no repository ${input.owner}/${input.repo}`]);
    const branchName = input.branchName ?? found.repository.defaultBranch;
    if (!found.repository.branches.includes(branchName))
      throw invalid([`branchName: ${input.owner}/${input.repo} has no branch "${branchName}"`]);
    state.repository = { owner: input.owner, repo: input.repo, branchName, installationId: input.installationId };
    const main = requireBranch(state, DEFAULT_BRANCH);
    startBuild(context, state, main, 'repository');
    return jsonResponse(200, {
      deploymentId: deployment.id,
      repository: `${input.owner}/${input.repo}`,
      branchName,
      build: buildWire(context, state, DEFAULT_BRANCH),
    });
  });

  return app;
}
