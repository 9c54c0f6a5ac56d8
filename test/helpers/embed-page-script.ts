/**
 * Builds the script of the emulator's embed pages (`src/emulator/embed/page/main.ts`, with the
 * protocol and core modules it imports) into the module the emulator serves,
 * `src/emulator/embed/page-script.generated.ts`.
 *
 * Why a generated module rather than bundling at runtime: the published package holds only
 * `dist`, and esbuild is a dev dependency, so the emulator cannot bundle TypeScript sources on a
 * partner's machine. A string constant in a module works the same from the sources (tests) and
 * from `dist` (rollup inlines it), and what the browser tests exercise is exactly what ships.
 * The module is generated, never committed: `scripts/generate-page-script.ts` writes it before the
 * type check, the tests, the build and `npm start` (`npm run generate` by hand).
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Path of the generated module, from the repository root. */
export const GENERATED_MODULE = 'src/emulator/embed/page-script.generated.ts';

/** Bundles the page script: one IIFE, browser platform, readable (not minified). */
export async function buildPageScript(root: string = ROOT): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/emulator/embed/page/main.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    charset: 'utf8',
    legalComments: 'none',
    minify: false,
    sourcemap: false,
    tsconfig: 'tsconfig.json',
    // Served raw to browsers, where `process` does not exist; the core's embed checks read
    // `process.env.NODE_ENV` for their detail sentences, which the emulator, a dev tool, keeps.
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output for the embed page script');
  return file.text;
}

/** The generated module's source for `script`: one string line per script line, so diffs stay readable. */
export function pageScriptModule(script: string): string {
  const lines = script.replace(/\n$/, '').split('\n');
  return [
    '// Generated from src/emulator/embed/page/*.ts by test/helpers/embed-page-script.ts: do not edit.',
    '// Regenerate: npm run generate',
    '',
    '/** The embed page script (an IIFE for browsers), served as `/embed/_assets/page.js`. */',
    'export const PAGE_SCRIPT: string = [',
    ...lines.map((line) => `  ${JSON.stringify(line)},`),
    "].join('\\n');",
    '',
  ].join('\n');
}

/** Builds the page script and returns the generated module's source. */
export async function generatePageScriptModule(root?: string): Promise<string> {
  return pageScriptModule(await buildPageScript(root));
}
