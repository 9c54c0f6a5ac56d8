// @vitest-environment node
/**
 * What production bundles of the embed path keep: a partner's bundler sets
 * `process.env.NODE_ENV` to `production` (here esbuild's `define`, minified for browsers, as
 * size-limit builds it), and every detail sentence must then fold away, while a development build
 * keeps them. Fails when a detail is written where the minifier cannot drop it (outside a
 * `process.env.NODE_ENV !== 'production'` condition, or behind a constant it cannot fold).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Details from each module of the embed path: protocol rules, URL builder, channel, controller, provider. */
const DETAILS = [
  'a BCP-47 tag',
  'is not a member',
  'must use https',
  'is not the tenant origin',
  'must resolve with a session id',
  'is required by the embeds',
];

/** Runtime failures a viewer sees in the error state: their sentences stay in every build. */
const RUNTIME = ['did not settle in', 'No ready from the embed in'];

async function bundle(nodeEnv: string): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    stdin: {
      contents: [
        "export { ServiceProvider, EmbeddedDashboard } from './src/index.ts';",
        "export { createEmbedChannel, buildEmbedUrl, parseEmbedAction } from './src/core/index.ts';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    external: [
      'react',
      'react-dom',
      'react/jsx-runtime',
      '@tanstack/react-query',
      'vega-embed',
      'vega-lite',
      'vega-interpreter',
    ],
    define: { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('embed path, bundled', () => {
  it('production drops every detail sentence; development keeps them', async () => {
    const [production, development] = await Promise.all([bundle('production'), bundle('development')]);
    for (const detail of DETAILS) {
      expect(development).toContain(detail);
      expect(production).not.toContain(detail);
    }
    for (const sentence of RUNTIME) expect(production).toContain(sentence);
    // Nothing is left reading `process` at run time, where browsers have none.
    expect(production).not.toMatch(/\bprocess\./);
  }, 30_000);
});
