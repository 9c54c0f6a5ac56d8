// @vitest-environment node
/**
 * Bounded queries, from the command line: Ctrl+C (SIGINT) stops the CLI at once even while a
 * runaway `/v1/cubesql` query runs; before, the process stayed busy until the query ended.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { dataToken } from './helpers';

describe('service-emulator CLI', () => {
  it('SIGINT during a runaway query exits with 0 long before the query timeout', async () => {
    // Bundled and run by Node itself, so the signal reaches the CLI and not a wrapper process.
    const outfile = resolve('node_modules/.cache/cli-test/cli.mjs');
    await build({
      entryPoints: ['src/emulator/cli.ts'],
      outfile,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    const child = spawn(process.execPath, [outfile, '--port', '0', '--query-timeout', '120000'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const dataUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /data_url\s+(\S+)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the CLI exited with ${String(code)}: ${output}`)));
      });
      const response = await fetch(`${dataUrl}/v1/cubesql`, {
        method: 'POST',
        headers: { authorization: await dataToken(), 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'SELECT count(*) FROM range(300000000000)' }),
      });
      const reader = response.body!.getReader();
      await reader.read(); // the schema line: the query now runs
      const started = performance.now();
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      // The query alone would run for minutes, and the timeout is 120 s: a twentieth of it.
      expect(performance.now() - started).toBeLessThan(120_000 / 20);
      await reader.cancel().catch(() => undefined);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);
});
