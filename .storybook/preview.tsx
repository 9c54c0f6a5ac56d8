import type { Preview } from '@storybook/react-vite';
import '../src/styles.css';
import { ServiceProvider, fetchEmbedSession } from '../src/react';
import type { StoryServiceConfig } from './service-routes';

type Theme = 'light' | 'dark' | 'system';

const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    // Any axe violation fails the story, in Storybook's panel and in `npm test` alike.
    a11y: { test: 'error' },
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
  },
  globalTypes: {
    theme: {
      description: 'Colour scheme of the @service/react design tokens',
      toolbar: {
        title: 'Theme',
        icon: 'mirror',
        items: [
          { value: 'light', title: 'Light' },
          { value: 'dark', title: 'Dark' },
          { value: 'system', title: 'System' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: 'light' satisfies Theme },
  // Where the emulator is, from the partner-server routes of service-routes.ts.
  loaders: [async () => ({ service: (await (await fetch('/__service/config')).json()) as StoryServiceConfig })],
  decorators: [
    // Every story sits in a partner app's provider, wired to the emulator through the routes.
    (Story, { loaded }) => {
      const service = loaded.service as StoryServiceConfig | undefined;
      return (
        <ServiceProvider
          tenantUrl={service?.tenantUrl}
          chat={{ url: service?.chatUrl }}
          getEmbedSession={service ? fetchEmbedSession(service.embedSessionUrl) : undefined}
        >
          <Story />
        </ServiceProvider>
      );
    },
    (Story, { globals }) => {
      const theme = (globals.theme ?? 'light') as Theme;
      // The story is themed like a partner app themes a subtree: with the attribute, or (for
      // "system") with none, so prefers-color-scheme decides.
      return (
        <div
          data-service-theme={theme === 'system' ? undefined : theme}
          style={{
            minHeight: '100vh',
            boxSizing: 'border-box',
            padding: 'var(--service-space-6)',
            background: 'var(--service-color-background)',
            color: 'var(--service-color-text)',
            fontFamily: 'var(--service-font-family)',
            lineHeight: 'var(--service-line-height)',
          }}
        >
          <Story />
        </div>
      );
    },
  ],
};

export default preview;
