import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { configDefaults, defineConfig } from 'vitest/config';
import { serviceRoutes } from './.storybook/service-routes.ts';
import { chromiumArgs, chromiumExecutable } from './scripts/ensure-browser.mjs';
import {
  advanceEmulatorClock,
  auditFrameAccessibility,
  clockedEmulator,
  emulateColorScheme,
  emulateReducedMotion,
  inspectEmbedFrame,
  mintClockedSession,
  mintEmbedSession,
  postFromEmbedFrame,
  signDataToken,
  startRequestLog,
  stopRequestLog,
} from './test/browser/commands.ts';

/**
 * Each browser project gets a fresh options object: vitest mutates `instances`. The browser is
 * the one `scripts/ensure-browser.mjs` finds (`npm test` runs it first).
 */
function browser() {
  return {
    enabled: true,
    headless: true,
    provider: playwright({
      launchOptions: { executablePath: chromiumExecutable(), args: chromiumArgs },
    }),
    instances: [{ browser: 'chromium' as const }],
  };
}

/**
 * React 18 for the projects that run the React tests a second time: every import of `react`,
 * `react-dom` and their subpaths (`react/jsx-runtime`, `react-dom/client`, `react-dom/server`,
 * `react-dom/test-utils`, ...) goes to the `react-18` / `react-dom-18` dev dependencies. The regexes
 * match those names exactly, never `react-markdown` or `react-dom-18` itself.
 *
 * The alias alone reaches only code that Vite transforms, and the libraries that import React
 * must get the same copy: react-dom-18 (whose own `require('react')` would find React 19 at the top
 * of node_modules) and Testing Library are pre-bundled with the alias applied (`REACT_18_DEPS`);
 * in the unit project those pre-bundles and the ES-module libraries (TanStack Query,
 * react-markdown) also run through Vite (`REACT_18_INLINE`). `test/{unit,browser}/react-version.test.tsx`
 * fails if any of them falls back to React 19.
 */
const REACT_18_ALIAS = [
  // The pre-bundles are made for the browser, where Node's `stream` is missing: the browser build
  // of the server renderer (`renderToString` works the same there).
  { find: /^react-dom\/server$/, replacement: 'react-dom-18/server.browser' },
  { find: /^react(\/.*)?$/, replacement: 'react-18$1' },
  { find: /^react-dom(\/.*)?$/, replacement: 'react-dom-18$1' },
];
const REACT_18_DEPS = [
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-dom/client',
  'react-dom/server',
  'react-dom/test-utils',
  '@testing-library/react',
];
const REACT_18_INLINE = [
  /\/node_modules\/\.vite\/vitest\/[^/]+\/deps\//,
  /\/node_modules\/@tanstack\/react-query\//,
  /\/node_modules\/react-markdown\//,
];

/**
 * No Vite error overlay in a test page: it covers the page (a hover or click meant for a chart
 * lands on it) and shows an error of the dev server that may belong to another test's request.
 * The error is still printed by the dev server.
 */
const NO_OVERLAY = { hmr: { overlay: false } };

/** The commands of `test/browser/commands.ts`, for both browser projects. */
const browserCommands = {
  mintEmbedSession,
  emulateColorScheme,
  emulateReducedMotion,
  auditFrameAccessibility,
  clockedEmulator,
  mintClockedSession,
  advanceEmulatorClock,
  inspectEmbedFrame,
  postFromEmbedFrame,
  signDataToken,
  startRequestLog,
  stopRequestLog,
};

// A fresh clone has no generated page script (the package has no install script that would make
// it, and npm scripts generate it first): make it here too, so a bare `npx vitest` works.
if (!existsSync('src/emulator/embed/page-script.generated.ts')) {
  spawnSync(process.execPath, ['scripts/run-ts.mjs', 'scripts/generate-page-script.ts'], { stdio: 'inherit' });
}

/**
 * Browser tests that take screenshots or click inside an embed at page coordinates: run one file at
 * a time, in projects of their own, so no other file's frame shares the page while they measure it
 * (in a full run they timed out on their screenshots, or clicked beside the drilldown).
 */
const ONE_AT_A_TIME = [
  'test/browser/results-visual.test.tsx',
  'test/browser/agent-chat-visual.test.tsx',
  'test/browser/ask-about-this.test.tsx',
];

/**
 * A browser project: the partner's routes on the page's own origin, the shared emulator and
 * commands. `-one-at-a-time` projects run {@link ONE_AT_A_TIME} one file at a time; the others run
 * the rest (on React 18 only the `.tsx` files, which render React). On React 18 the alias applies
 * and Vite pre-bundles every dependency with it.
 */
function browserProject(name: string, reactMajor: 18 | 19) {
  const oneAtATime = name.endsWith('-one-at-a-time');
  return {
    plugins: [serviceRoutes()],
    server: NO_OVERLAY,
    ...(reactMajor === 18 ? { resolve: { alias: REACT_18_ALIAS }, optimizeDeps: { include: REACT_18_DEPS } } : {}),
    test: {
      name,
      ...(oneAtATime
        ? { include: ONE_AT_A_TIME, fileParallelism: false }
        : {
            include: [reactMajor === 18 ? 'test/browser/**/*.test.tsx' : 'test/browser/**/*.test.{ts,tsx}'],
            exclude: [...configDefaults.exclude, ...ONE_AT_A_TIME],
          }),
      globalSetup: ['test/browser/global-setup.ts'],
      setupFiles: ['test/browser/setup.ts'],
      provide: { reactMajor },
      browser: { ...browser(), commands: browserCommands },
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['test/unit/setup.ts'],
          provide: { reactMajor: 19 },
        },
      },
      // The partner's routes (embed session, chat proxy) on the test page's own origin, against
      // an emulator, as in Storybook (.storybook/service-routes.ts).
      browserProject('browser', 19),
      browserProject('browser-one-at-a-time', 19),
      {
        // Every story is a test: it renders, its play function passes, and axe finds nothing
        // (a11y `test: 'error'` in .storybook/preview.tsx).
        plugins: [storybookTest({ configDir: fileURLToPath(new URL('./.storybook', import.meta.url)) })],
        server: NO_OVERLAY,
        test: {
          name: 'storybook',
          browser: browser(),
        },
      },
      {
        // The unit tests that render React (every .tsx file), again on React 18.
        resolve: { alias: REACT_18_ALIAS },
        test: {
          name: 'unit-react18',
          environment: 'jsdom',
          include: ['test/unit/**/*.test.tsx'],
          setupFiles: ['test/unit/setup.ts'],
          provide: { reactMajor: 18 },
          // The markdown property search is about the parser, which has no React in it: a quarter of
          // its runs still renders every kind of document on React 18 (the unit project searches fully).
          env: { MARKDOWN_PROPERTY_RUNS: '50' },
          deps: { optimizer: { client: { enabled: true, include: REACT_18_DEPS } } },
          // Vitest keeps `react` out of the pre-bundles and loads them with Node, which would find
          // React 19: run them through Vite instead, so their `react` meets the alias too, and
          // with them the ES-module libraries that import React.
          server: { deps: { inline: REACT_18_INLINE } },
        },
      },
      // The browser tests that render React (every .tsx file), again on React 18, against the
      // same emulator and fake embeds (the global setup is shared between the projects).
      browserProject('browser-react18', 18),
      browserProject('browser-react18-one-at-a-time', 18),
    ],
  },
});
