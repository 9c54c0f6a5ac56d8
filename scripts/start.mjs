// `npm start`: everything a developer needs on a laptop with no tenant, in one command.
//
// The local emulator of the service on http://127.0.0.1:4010 (run from source through
// scripts/run-ts.mjs) and Storybook on http://localhost:6006, which learns the emulator's address
// through `STORYBOOK_SERVICE_URL` so every story talks to it. The two are different origins, as a
// partner app and the tenant are. Each service is one entry of SERVICES; Ctrl-C (or any one of
// them exiting) stops them all.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function binOf(pkgName) {
  const manifestPath = require.resolve(`${pkgName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return join(dirname(manifestPath), bin);
}

const port = process.env.STORYBOOK_PORT ?? '6006';
const emulatorPort = process.env.EMULATOR_PORT ?? '4010';
const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;

/** @type {{ name: string; command: string; args: string[]; env?: Record<string, string> }[]} */
const SERVICES = [
  {
    name: 'emulator',
    command: process.execPath,
    args: ['scripts/run-ts.mjs', 'src/emulator/cli.ts', '--', '--port', emulatorPort],
  },
  {
    name: 'storybook',
    command: process.execPath,
    args: [
      binOf('storybook'),
      'dev',
      '--port',
      port,
      '--ci',
      '--no-version-updates',
      '--disable-telemetry',
      '--exact-port',
    ],
    env: { STORYBOOK_DISABLE_TELEMETRY: '1', STORYBOOK_SERVICE_URL: emulatorUrl },
  },
];

const children = SERVICES.map((service) => {
  const child = spawn(service.command, service.args, {
    stdio: 'inherit',
    env: { ...process.env, ...service.env },
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`start: ${service.name} exited (${signal ?? code}); stopping the others.`);
    stop(code ?? 1);
  });
  return child;
});

let stopping = false;
function stop(exitCode) {
  stopping = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  process.exitCode = exitCode;
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
console.log(`start: emulator on ${emulatorUrl}, Storybook on http://localhost:${port} (Ctrl-C stops both)`);
