// @vitest-environment node
/**
 * Server rendering in Node, with React 18 and React 19: importing `@service/react` and
 * `renderToString(<ServiceProvider><EmbeddedDashboard /></ServiceProvider>)` work and render the
 * placeholder, and nothing reads `window` at import or render time.
 *
 * Each React version gets its own bundle of the sources (esbuild), with `react` and `react-dom`
 * aliased to the `react-18` / `react-dom-18` dev dependencies for React 18, so the library and the
 * renderer share one React, as in an app on that version.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

const ENTRY = `
import { createElement as h, version } from 'react';
import { renderToString } from 'react-dom/server';
import { ServiceProvider, EmbeddedDashboard, EmbeddedApp, EmbeddedChat, fetchEmbedSession } from './src/index.ts';
export function render() {
  const html = renderToString(
    h(ServiceProvider, { tenantUrl: 'https://acme.example.com', getEmbedSession: fetchEmbedSession() },
      h(EmbeddedDashboard, { publicId: 'sales-overview', height: 480, onReady: () => {} }),
      h(EmbeddedApp, { deploymentId: 1, labels: { loading: 'Einen Moment…' } }),
      h(EmbeddedChat, {})),
  );
  return { html, version };
}
`;

async function bundle(version: 18 | 19): Promise<string> {
  const outDir = join(ROOT, 'node_modules', '.cache', 'ssr-test');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, `react-${version}-${Date.now()}.mjs`);
  await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'ssr-entry.ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    logLevel: 'error',
    // Only the React of this test bundled in; everything else the library needs is in the sources.
    alias: version === 18 ? { react: 'react-18', 'react-dom': 'react-dom-18' } : {},
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}

const trapped: string[] = [];

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe.each([18, 19] as const)('server rendering with React %i', (version) => {
  it('imports and renders the placeholders without touching window', async () => {
    const file = await bundle(version);
    // Any read of `window`, even `typeof window`, lands here.
    Object.defineProperty(globalThis, 'window', {
      configurable: true,
      get() {
        trapped.push(new Error('window read').stack ?? '');
        throw new ReferenceError('window is not defined on the server');
      },
    });
    const module = (await import(pathToFileURL(file).href)) as { render(): { html: string; version: string } };
    const { html, version: rendered } = module.render();
    expect(rendered.split('.')[0]).toBe(String(version));
    expect(trapped).toEqual([]);
    // The roots with their state, the placeholders (no iframe on the server), sized as asked.
    expect(html.match(/data-state="loading"/g)).toHaveLength(3);
    expect(html).not.toContain('<iframe');
    expect(html).toContain('Loading the dashboard…');
    expect(html).toContain('Einen Moment…');
    expect(html).toContain('Loading the analytics chat…');
    expect(html).toContain('height:480px');
    expect(html).toContain('data-service-embed="dashboard"');
  });
});
