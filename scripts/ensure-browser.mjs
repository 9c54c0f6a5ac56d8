// Finds the Chromium that the browser and Storybook test projects drive, and installs one when
// there is none. Run as a script before those projects (`npm test` does); imported by
// vitest.config.ts, so that the config and this script always agree on the browser.
//
// Order of the search: `CHROMIUM_PATH`, Debian's `/usr/bin/chromium`, then a Chromium that
// Playwright installed into its cache. No test tool may download a browser on its own, so the
// install step is explicit and says what it does.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Flags that keep Chromium quiet on a machine with no network and no GPU. */
export const chromiumArgs = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The Chromium executable for Playwright's `launchOptions.executablePath`: the one
 * {@link findChromium} finds, or `undefined` to let Playwright look for its own.
 * @returns {string | undefined}
 */
export function chromiumExecutable() {
  return findChromium()?.path;
}

/** Where Playwright keeps the browsers it installed (it honours the same variable). */
function playwrightCacheDir() {
  const fromEnv = process.env.PLAYWRIGHT_BROWSERS_PATH;
  if (fromEnv && fromEnv !== '0') return fromEnv;
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'ms-playwright');
  if (platform() === 'win32') {
    return join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'ms-playwright');
  }
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'ms-playwright');
}

/** The executables a Playwright Chromium install contains, per platform and layout version. */
const CHROMIUM_BINARIES = [
  ['chrome-linux64', 'chrome'],
  ['chrome-linux', 'chrome'],
  ['chrome-mac-arm64', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
  ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
  ['chrome-win64', 'chrome.exe'],
  ['chrome-win', 'chrome.exe'],
];

/**
 * A Chromium that Playwright installed: the exact revision this Playwright expects first, then the
 * newest `chromium-*` folder of its cache (another revision still speaks CDP well enough here).
 */
export function findPlaywrightChromium() {
  try {
    const { chromium } = createRequire(import.meta.url)('playwright');
    const expected = chromium.executablePath();
    if (expected && existsSync(expected)) return expected;
  } catch {
    // playwright not installed yet (before `npm install`): fall back to scanning the cache.
  }
  const cache = playwrightCacheDir();
  if (!existsSync(cache)) return undefined;
  const revisions = readdirSync(cache)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  for (const revision of revisions) {
    for (const parts of CHROMIUM_BINARIES) {
      const candidate = join(cache, revision, ...parts);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * The Chromium executable to drive, or `undefined` when none is on this machine.
 * @returns {{ path: string; source: string } | undefined}
 */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    // An explicit choice that does not exist is a mistake to report, not to paper over.
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH is set to ${fromEnv}, which does not exist.`);
    return { path: fromEnv, source: 'CHROMIUM_PATH' };
  }
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: 'Debian package' };
  const fromPlaywright = findPlaywrightChromium();
  if (fromPlaywright) return { path: fromPlaywright, source: 'Playwright cache' };
  return undefined;
}

const HOW_TO_FIX = [
  'No Chromium found for the browser tests. Do one of:',
  '  - Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium',
  '  - anywhere Playwright can download: npx playwright install chromium',
  '  - point at a Chromium or Chrome you have: export CHROMIUM_PATH=/path/to/chrome',
  'then run `npm test` again.',
].join('\n');

function run(command, args, timeoutMs) {
  console.log(`ensure-browser: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', timeout: timeoutMs });
  return result.status === 0;
}

/** Installs a Chromium the way this machine allows, or returns false. */
function install() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  // Debian's package first where we can: it needs only the distribution's mirror, which machines
  // without general internet access still reach, whereas Playwright's download does not.
  if (isRoot && hasApt) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env, timeout: 10 * 60_000 }).status === 0;
    console.log('ensure-browser: apt-get update && apt-get install -y chromium');
    if (apt(['update']) && apt(['install', '-y', 'chromium'])) return true;
  }
  // Playwright's own download: works on developer laptops with internet access. Bounded, because
  // on a closed network it can hang instead of failing.
  return run(process.execPath, [playwrightCli(), 'install', 'chromium'], 5 * 60_000);
}

function playwrightCli() {
  // `playwright/cli` is not in the package's exports; its folder is found through package.json.
  const manifest = createRequire(import.meta.url).resolve('playwright/package.json');
  return join(dirname(manifest), 'cli.js');
}

function main() {
  let found;
  try {
    found = findChromium();
  } catch (error) {
    console.error(`ensure-browser: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  if (!found) {
    console.log('ensure-browser: no Chromium on this machine; installing one.');
    if (install()) found = findChromium();
  }
  if (!found) {
    console.error(HOW_TO_FIX);
    process.exit(1);
  }
  console.log(`ensure-browser: using ${found.path} (${found.source})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
