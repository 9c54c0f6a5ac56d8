import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { storybookTest } from '@storybook/addon-vitest/vitest-plugin';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { serviceRoutes } from './.storybook/service-routes.ts';
import { chromiumArgs, chromiumExecutable } from './scripts/ensure-browser.mjs';
import {
  advanceEmulatorClock,
  auditFrameAccessibility,
  emulateColorScheme,
  inspectEmbedFrame,
  mintClockedSession,
  mintEmbedSession,
  signDataToken,
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

// A fresh clone has no generated page script (the package has no install script that would make
// it, and npm scripts generate it first): make it here too, so a bare `npx vitest` works.
if (!existsSync('src/emulator/embed/page-script.generated.ts')) {
  spawnSync(process.execPath, ['scripts/run-ts.mjs', 'scripts/generate-page-script.ts'], { stdio: 'inherit' });
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['test/unit/**/*.test.{ts,tsx}'],
        },
      },
      {
        // The partner's routes (embed session, chat proxy) on the test page's own origin, against
        // an emulator, as in Storybook (.storybook/service-routes.ts).
        plugins: [serviceRoutes()],
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.{ts,tsx}'],
          globalSetup: ['test/browser/global-setup.ts'],
          setupFiles: ['test/browser/setup.ts'],
          browser: { ...browser(), commands: {
            mintEmbedSession,
            emulateColorScheme,
            auditFrameAccessibility,
            mintClockedSession,
            advanceEmulatorClock,
            inspectEmbedFrame,
            signDataToken,
          },
        },
        },
      },
      {
        // Every story is a test: it renders, its play function passes, and axe finds nothing
        // (a11y `test: 'error'` in .storybook/preview.tsx).
        plugins: [storybookTest({ configDir: fileURLToPath(new URL('./.storybook', import.meta.url)) })],
        test: {
          name: 'storybook',
          browser: browser(),
        },
      },
    ],
  },
});
