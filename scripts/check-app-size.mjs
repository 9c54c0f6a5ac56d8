// What a partner's app loads up front, measured in a real Vite production build (part of `npm run
// size`). size-limit bundles one import without code splitting and is told to leave the chunks
// loaded with import() out; that cannot see what a splitting bundler does with code that a lazy
// chunk and the entry share: it lands in the entry's bundle, loaded up front. Here an app imports
// only the named components from the built package, Vite (rolldown) splits it as it would for a
// partner, and the entry chunk plus every chunk it imports statically (the manifest's `imports`)
// must stay within the budget, gzipped. What size-limit leaves out (`PEERS`) stays external.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { PEERS } from '../.size-limit.mjs';

const ROOT = resolve('node_modules/.cache/app-size');

/** Apps of one import each, and what they may load up front (gzip, kB). */
const APPS = [
  { name: 'AgentChat', imports: ['AgentChat'], limitKb: 60.2 },
  // Vite's minifier (Oxc) leaves a little more than esbuild's: 7.83 kB where size-limit measures 7.74.
  { name: 'ServiceProvider and EmbeddedDashboard', imports: ['ServiceProvider', 'EmbeddedDashboard'], limitKb: 7.9 },
];

/** Builds an app that uses `imports` of the package; resolves with its up-front and on-demand bytes, gzipped. */
async function measure(app) {
  const dir = join(ROOT, app.imports.join('-'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="./main.js"></script>\n',
  );
  // Every import is used, so none is shaken off.
  writeFileSync(
    join(dir, 'main.js'),
    `import { ${app.imports.join(', ')} } from '@service/react';\nglobalThis.used = [${app.imports.join(', ')}];\n`,
  );
  await build({
    root: dir,
    configFile: false,
    logLevel: 'error',
    resolve: { alias: { '@service/react': resolve('dist/index.js') } },
    build: {
      outDir: 'out',
      emptyOutDir: true,
      manifest: true,
      rollupOptions: { external: PEERS },
    },
  });
  const manifest = JSON.parse(readFileSync(join(dir, 'out/.vite/manifest.json'), 'utf8'));
  const gzipped = (file) => gzipSync(readFileSync(join(dir, 'out', file)), { level: 9 }).length;
  const upFront = new Set();
  const visit = (key) => {
    if (upFront.has(key)) return;
    upFront.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  visit(Object.keys(manifest).find((key) => manifest[key].isEntry));
  let upFrontBytes = 0;
  let onDemandBytes = 0;
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.file.endsWith('.js')) continue;
    if (upFront.has(key)) upFrontBytes += gzipped(chunk.file);
    else onDemandBytes += gzipped(chunk.file);
  }
  return { upFrontBytes, onDemandBytes };
}

let failed = false;
for (const app of APPS) {
  const { upFrontBytes, onDemandBytes } = await measure(app);
  const upFrontKb = upFrontBytes / 1000;
  const over = upFrontKb > app.limitKb;
  failed ||= over;
  console.log(
    `app size: ${app.name} in a Vite app: ${upFrontKb.toFixed(2)} kB up front (budget ${app.limitKb} kB), ` +
      `${(onDemandBytes / 1000).toFixed(2)} kB on demand, gzipped${over ? ' - OVER BUDGET' : ''}`,
  );
}
rmSync(ROOT, { recursive: true, force: true });
if (failed) process.exit(1);
