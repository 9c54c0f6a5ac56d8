import { defineConfig } from 'vitest/config';
import { ExamplesSequencer } from './test/examples/sequencer.ts';

/**
 * The examples as real apps (`npm run test:examples`, after `npm run build`): the Next.js example
 * built with `next build` and served by `next start`, the quick start built with `vite build` and
 * served by its production server, each driven by a real Chromium. Apart from the projects of
 * vitest.config.ts because they need the built package, and one file at a time: each builds and
 * runs an app on a machine whose cores the other tests share.
 */
export default defineConfig({
  test: {
    name: 'examples',
    environment: 'node',
    include: ['test/examples/**/*.test.ts'],
    globalSetup: ['test/examples/global-setup.ts'],
    fileParallelism: false,
    sequence: { sequencer: ExamplesSequencer },
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
