/**
 * The `next build` of examples/nextjs-app-router, started by the global setup so that it runs
 * while the quick start's test waits on its browser, and awaited by the Next.js test. It is made
 * once per content (the package, every file of the example, the lockfile, the build's
 * environment) and reused while none of them changes: `.next/service-build-key` holds the key of
 * the build in `.next`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const NEXT_APP = 'examples/nextjs-app-router';
export const NEXT_BIN = join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');

/**
 * The environment of `next build`: a service URL nothing answers at. Only a page that froze the
 * build's environment into its HTML would show it.
 */
export const BUILD_ENV = { SERVICE_URL: 'http://127.0.0.1:9', SERVICE_DATA_URL: 'http://127.0.0.1:9/data/1' };

/** Where the build in progress reports how it ended. */
const STATUS = join('node_modules', '.cache', 'examples-next-build.json');
const STAMP = join(NEXT_APP, '.next', 'service-build-key');
const OUTPUT = join(NEXT_APP, '.next', 'service-build-output.txt');

interface BuildStatus {
  key: string;
  state: 'running' | 'ok' | 'failed';
  output: string;
}

/** Every file of the example (what `next build` reads of it), for the build's key. */
function exampleFiles(dir = NEXT_APP): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (['.next', 'node_modules', 'next-env.d.ts'].includes(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? exampleFiles(path) : [path];
  });
}

function buildKey(packageSha256: string): string {
  const key = createHash('sha256');
  key.update(packageSha256);
  key.update(readFileSync('package-lock.json'));
  key.update(JSON.stringify(BUILD_ENV));
  for (const file of exampleFiles().sort()) key.update(file).update(readFileSync(file));
  return key.digest('hex');
}

function writeStatus(status: BuildStatus): void {
  mkdirSync(dirname(STATUS), { recursive: true });
  writeFileSync(STATUS, JSON.stringify(status));
}

/**
 * Starts `next build` unless `.next` holds the build of this content; returns a function that
 * stops a build still running (for the global teardown).
 */
export function startNextBuild(packageSha256: string): () => void {
  const key = buildKey(packageSha256);
  if (existsSync(STAMP) && existsSync(OUTPUT) && readFileSync(STAMP, 'utf8') === key) {
    writeStatus({ key, state: 'ok', output: readFileSync(OUTPUT, 'utf8') });
    return () => {};
  }
  writeStatus({ key, state: 'running', output: '' });
  const child = spawn(process.execPath, [NEXT_BIN, 'build'], {
    cwd: NEXT_APP,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...BUILD_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.once('exit', (code) => {
    if (code === 0) {
      writeFileSync(OUTPUT, output);
      writeFileSync(STAMP, key);
    }
    writeStatus({ key, state: code === 0 ? 'ok' : 'failed', output });
  });
  return () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
}

/** Waits for the build the global setup started; resolves with its output (that of the build reused), throws with it when it failed. */
export async function waitForNextBuild(timeoutMs = 300_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = JSON.parse(readFileSync(STATUS, 'utf8')) as BuildStatus;
    if (status.state === 'ok') return status.output;
    if (status.state === 'failed') throw new Error(`next build failed:\n${status.output}`);
    if (Date.now() > deadline) throw new Error('next build did not end in time');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
