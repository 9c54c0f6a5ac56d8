// Checks the package as users receive it: packs it with `npm pack` into a temporary folder, then
// runs publint (strict: warnings fail) and Are The Types Wrong (every resolution mode, node10
// included) on that tarball. Also checks that `exports` and `typesVersions` name exactly the
// entries the build produced, so a new entry cannot ship half-declared. Run after `npm run build`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`check-package: ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}
console.log('check-package: ok');
