// Checks the package as users receive it: packs it with `npm pack` into a temporary folder, then
// runs publint (strict: warnings fail) and Are The Types Wrong (every resolution mode, node10
// included) on that tarball. Also checks that `exports` and `typesVersions` name exactly the
// entries the build produced, so a new entry cannot ship half-declared. Then installs the tarball
// into a consumer folder (its dependencies and peers linked from this repository's node_modules)
// and, there:
// - imports `@service/react/core` and `@service/react/server`, ESM and CJS, in a Node with no
//   `process` global (a browser page without a bundler, an edge runtime) and calls them;
// - type-checks the `.d.ts` of `@service/react/server` and `@service/react/emulator` in a Node-only
//   project (`lib: ["ES2023"]`, `types: ["node"]`, no DOM) with `skipLibCheck: false`.
// Run after `npm run build`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { entries } from '../rollup.config.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const problems = [];

// 1. The declared entries match the built ones.
const built = entries.map((entry) => (entry.name === 'index' ? '.' : `./${dirname(entry.name)}`));
const declared = Object.keys(pkg.exports).filter((key) => key !== './package.json' && !key.endsWith('.css'));
for (const subpath of built) {
  if (!declared.includes(subpath)) problems.push(`exports lacks "${subpath}", which the build produces`);
}
for (const subpath of declared) {
  if (!built.includes(subpath)) problems.push(`exports has "${subpath}", which the build does not produce`);
}
const typesVersions = Object.keys(pkg.typesVersions?.['*'] ?? {});
for (const subpath of built.filter((s) => s !== '.')) {
  if (!typesVersions.includes(subpath.slice(2))) {
    problems.push(`typesVersions lacks "${subpath.slice(2)}" (TypeScript's node10 resolution needs it)`);
  }
}

// 2. publint and attw on the packed tarball.
const dir = mkdtempSync(join(tmpdir(), 'service-react-pack-'));
try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { encoding: 'utf8' }),
  );
  const tarball = join(dir, packed[0].filename);
  const files = packed[0].files.map((file) => file.path);
  console.log(`check-package: packed ${files.length} files into ${packed[0].filename}`);
  for (const file of files) {
    if (!/^(dist\/|package\.json$|README\.md$|LICENSE)/.test(file))
      problems.push(`unexpected file in the tarball: ${file}`);
  }
  // Install scripts in a published manifest make npm 11 warn every consumer (and `prepare` would run
  // scripts/, which is not shipped): generation belongs to this repository's own scripts.
  const packedScripts =
    JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })).scripts ?? {};
  for (const name of ['preinstall', 'install', 'postinstall', 'prepare']) {
    if (name in packedScripts) problems.push(`the packed package.json has an install script "${name}"`);
  }

  const { messages } = await publint({
    pack: { tarball: readFileSync(tarball).buffer },
    level: 'suggestion',
    strict: true,
  });
  for (const message of messages) {
    problems.push(`publint ${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
  }
  console.log(`check-package: publint found ${messages.length} problem(s)`);

  // `npx attw` would run an unrelated package of that name: call the installed CLI directly.
  const attwBin = join(
    dirname(createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json')),
    'dist',
    'index.js',
  );
  const attw = spawnSync(
    process.execPath,
    [
      attwBin,
      tarball,
      '--profile',
      'strict',
      '--format',
      'table',
      '--no-definitely-typed',
      '--no-emoji',
      // A stylesheet has no types to check.
      '--exclude-entrypoints',
      './styles.css',
    ],
    { stdio: 'inherit' },
  );
  if (attw.status !== 0) problems.push('attw found problems (table above)');

  const consumer = installInto(join(dir, 'consumer'), tarball);
  problems.push(...runsWithoutProcess(consumer), ...runsWithoutProcess(consumer, 'development'));
  problems.push(...typesCheckInNodeOnly(consumer));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A consumer folder with the tarball as `node_modules/@service/react` and the package's
 * dependencies, peers and `@types/node` linked from this repository's node_modules (Node and
 * TypeScript follow the links to the real folders, whose own dependencies are beside them).
 */
function installInto(folder, tarball) {
  const target = join(folder, 'node_modules', '@service', 'react');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), '@types/node'];
  for (const name of names) {
    const real = join(process.cwd(), 'node_modules', name);
    if (!existsSync(real)) continue;
    mkdirSync(dirname(join(folder, 'node_modules', name)), { recursive: true });
    symlinkSync(real, join(folder, 'node_modules', name), 'dir');
  }
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  return folder;
}

/**
 * Imports core and server (ESM, then CJS) where `process` does not exist, and calls what a page
 * or an edge function calls first: `buildEmbedUrl` (good and bad options: its failure path writes
 * details in development), `isEmbedEvent`, the chat client (a stream from a `fetch` of its own),
 * `validateSessionRequest`, and both route handlers (a cross-site request is refused).
 */
function runsWithoutProcess(folder, condition) {
  const development = condition === 'development';
  const probe = `
    const { createRequire } = await import('node:module');
    const require = createRequire(${JSON.stringify(join(folder, 'package.json'))});
    const keep = globalThis.process;
    delete globalThis.process;
    const results = [];
    const check = (label, ok) => results.push([label, Boolean(ok)]);
    async function exercise(kind, core, server) {
      check(kind + ' process is gone', typeof process === 'undefined');
      const url = core.buildEmbedUrl({ tenantUrl: 'https://acme.example.com', surface: 'dashboard', publicId: 'p1', sessionId: 's1' });
      check(kind + ' buildEmbedUrl', url.startsWith('https://acme.example.com/embed/dashboard/p1'));
      let bad;
      try { core.buildEmbedUrl({ tenantUrl: 'http://acme.example.com', surface: 'dashboard', publicId: 'p1', sessionId: 's1', locale: '!!' }); } catch (error) { bad = error; }
      check(kind + ' buildEmbedUrl refuses with its own error', core.ServiceConfigError.isInstance(bad) || core.ServiceValidationError.isInstance(bad));
      // The details of a problem are the development build's alone: the other names the field.
      check(kind + ' details ${development ? 'in' : 'left out of'} the message', String(bad && bad.message).includes('"http://acme.example.com"') === ${development});
      check(kind + ' isEmbedEvent', core.isEmbedEvent({ source: 'service-embed', direction: 'event', type: 'service:event:ready', timestamp: 1, surface: 'dashboard', payload: { embedTenant: 'acme', deploymentId: 1, mode: 'signed', surface: 'dashboard' } }) && !core.isEmbedEvent({ type: 'x' }));
      const lines = [
        { id: '__cutoff__', role: 'assistant', state: { isStreaming: false, chatId: 'c1' }, sort: 0 },
        { id: '__usage__', type: 'usage', usage: { models: [], llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, totalTokens: 0 } },
      ].map((line) => JSON.stringify(line) + '\\n').join('');
      const client = core.createChatClient({ url: 'https://partner.example/api/service', fetch: async () => new Response(lines, { headers: { 'content-type': 'application/x-ndjson' } }) });
      const ids = [];
      for await (const line of client.stream({ input: 'hi' })) ids.push(line.id);
      check(kind + ' chat client streams', ids.join() === '__cutoff__,__usage__');
      check(kind + ' validateSessionRequest', server.validateSessionRequest({ deploymentId: 1, externalId: 'ann' }).ok);
      const session = server.createSessionHandler({ baseUrl: 'https://acme.example.com', apiKey: 'k', deploymentId: 1, resolve: () => null });
      const chat = server.createChatProxyHandler({ aiUrl: 'https://ai.example.com/api/v1/public/acme/agents/1', apiKey: 'k', resolveSessionSettings: () => null });
      const post = (path) => new Request('https://partner.example' + path, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, body: '{}' });
      check(kind + ' session handler', (await session(post('/api/embed-session'))).status === 403);
      check(kind + ' chat proxy', (await chat(post('/api/service/chat/stream-chat-state'))).status === 403);
      check(kind + ' session handler, same origin', (await session(new Request('https://partner.example/api/embed-session', { method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: '{}' }))).status === 401);
    }
    try {
      await exercise('ESM', await import('@service/react/core'), await import('@service/react/server'));
      await exercise('CJS', require('@service/react/core'), require('@service/react/server'));
    } catch (error) {
      results.push(['threw ' + (error && error.stack || error), false]);
    }
    globalThis.process = keep;
    process.stdout.write(JSON.stringify(results));
  `;
  const flags = development ? ['--conditions=development'] : [];
  const run = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', probe], {
    cwd: folder,
    encoding: 'utf8',
  });
  let results;
  try {
    results = JSON.parse(run.stdout);
  } catch {
    return [`importing core and server with no process failed: ${run.stderr || run.stdout}`];
  }
  const build = development ? 'development' : 'default';
  console.log(
    `check-package: ${results.filter(([, ok]) => ok).length}/${results.length} calls of the ${build} build worked with no process`,
  );
  return results.filter(([, ok]) => !ok).map(([label]) => `with no process global (${build} build): ${label}`);
}

/**
 * Type-checks a file importing every export of the server and emulator entries in a project that
 * knows Node and nothing of the DOM, with every .d.ts checked (`skipLibCheck: false`).
 */
function typesCheckInNodeOnly(folder) {
  writeFileSync(
    join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        types: ['node'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      files: ['server.ts', 'emulator.cts'],
    }),
  );
  writeFileSync(
    join(folder, 'server.ts'),
    [
      "import * as server from '@service/react/server';",
      "import * as emulator from '@service/react/emulator';",
      "import type { RouteHandler, SessionHandlerOptions } from '@service/react/server';",
      "import type { RunningEmulator } from '@service/react/emulator';",
      'export const handler: RouteHandler = server.createSessionHandler({',
      "  baseUrl: 'https://acme.example.com', apiKey: 'k', resolve: () => null,",
      '} satisfies SessionHandlerOptions);',
      'export const running: Promise<RunningEmulator> = emulator.startEmulator({ port: 0 });',
      'export { server, emulator };',
    ].join('\n'),
  );
  // CommonJS consumers read the .d.cts files.
  writeFileSync(
    join(folder, 'emulator.cts'),
    [
      "import server = require('@service/react/server');",
      "import emulator = require('@service/react/emulator');",
      'export const names = [Object.keys(server), Object.keys(emulator)];',
    ].join('\n'),
  );
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', folder], { encoding: 'utf8' });
  if (run.status === 0) {
    console.log('check-package: the server and emulator types check in a Node-only project (no DOM, skipLibCheck off)');
    return [];
  }
  return [
    `the server and emulator types fail in a Node-only project (lib ES2023, no DOM, skipLibCheck off):\n${run.stdout}${run.stderr}`,
  ];
}

if (problems.length > 0) {
  console.error(`check-package: ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}
console.log('check-package: ok');
