import type { StorybookConfig } from '@storybook/react-vite';
import { serviceRoutes } from './service-routes.ts';

/**
 * Storybook, set up by hand: `storybook init` would download a browser, which these machines
 * cannot. The vitest addon runs every story as a test (the `storybook` project of
 * vitest.config.ts); the a11y addon fails a story on any axe violation (see preview.tsx); the docs
 * addon gives each component a page (`tags: ['autodocs']`) with its TSDoc and live controls.
 */
const config: StorybookConfig = {
  framework: { name: '@storybook/react-vite', options: {} },
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-a11y', '@storybook/addon-vitest', '@storybook/addon-docs'],
  // No network here, and no reason to phone home from a partner's laptop either.
  core: { disableTelemetry: true },
  // The docs pages' prop tables and controls come from the TSDoc through the TypeScript checker:
  // react-docgen (the default) reads one file's syntax and loses props that arrive through
  // `Partial<Pick<...>>` (AgentChat's `url`, `auth`, `fetch`...). React's own DOM props are
  // left out: every part takes them, and hundreds of rows would hide the library's own. Only the
  // library's sources are read: the checker takes any exported object of a story helper for a
  // component and gives it a `__docgenInfo`, which then shows up as a control.
  typescript: {
    reactDocgen: 'react-docgen-typescript',
    reactDocgenTypescriptOptions: {
      include: ['src/**/*.tsx'],
      shouldExtractLiteralValuesFromEnum: true,
      shouldRemoveUndefinedFromOptional: true,
      propFilter: (prop) => !prop.parent || !/node_modules/.test(prop.parent.fileName),
    },
  },
  // Storybook's dependency scan starts from the stories, which import React only for types (the
  // JSX runtime does the rest), so `react` itself is never pre-bundled and the preview fails with
  // "react/index.js does not provide an export named 'default'" (CommonJS served raw). The
  // vitest plugin applies viteFinal too, so this also serves `npm test`.
  // The partner's server routes, against the emulator (see service-routes.ts).
  viteFinal: (viteConfig) => ({
    ...viteConfig,
    plugins: [...(viteConfig.plugins ?? []), serviceRoutes()],
    optimizeDeps: {
      ...viteConfig.optimizeDeps,
      include: [
        ...(viteConfig.optimizeDeps?.include ?? []),
        'react',
        'react-dom',
        'react-dom/client',
        'react/jsx-runtime',
        'react/jsx-dev-runtime',
      ],
    },
  }),
};

export default config;
