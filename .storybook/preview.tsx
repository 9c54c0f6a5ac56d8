import type { Preview } from '@storybook/react-vite';
import { extractComponentDescription } from 'storybook/internal/docs-tools';
import '../src/styles.css';
import { fetchDataToken } from '../src/core/data-token';
import { ServiceProvider, fetchEmbedSession, type DataSettings } from '../src/react';
import type { StoryServiceConfig } from './service-routes';

/** The provider's data settings for a config: one object per config, so the provider's value stays stable. */
const dataSettings = new WeakMap<StoryServiceConfig, DataSettings>();
function storyData(service: StoryServiceConfig | undefined): DataSettings | undefined {
  if (!service?.dataProxyUrl || !service.dataTokenUrl) return undefined;
  let data = dataSettings.get(service);
  if (!data) {
    data = { url: service.dataProxyUrl, token: fetchDataToken(service.dataTokenUrl) };
    dataSettings.set(service, data);
  }
  return data;
}

type Theme = 'light' | 'dark' | 'system';

/**
 * TSDoc's `{@link Name}` and `{@link Name | text}` as code: the docs pages render the TSDoc as
 * markdown, which would show the braces.
 */
function unlink(text: string): string {
  return text.replace(
    /\{@link\s+([^}|\s]+)\s*(?:\|\s*([^}]+))?\}/g,
    (_, name: string, label: string | undefined) => `\`${(label ?? name).trim()}\``,
  );
}

const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    // Any axe violation fails the story, in Storybook's panel and in `npm test` alike.
    a11y: { test: 'error' },
    controls: { matchers: { color: /(background|color)$/i, date: /Date$/i } },
    // Each component's docs page opens with its TSDoc.
    docs: {
      extractComponentDescription: (component: unknown) =>
        unlink(extractComponentDescription(component as Parameters<typeof extractComponentDescription>[0])),
    },
  },
  // ...and each prop's row shows its TSDoc the same way.
  argTypesEnhancers: [
    ({ argTypes }) =>
      Object.fromEntries(
        Object.entries(argTypes).map(([name, argType]) => [
          name,
          argType.description ? { ...argType, description: unlink(argType.description) } : argType,
        ]),
      ),
  ],
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
          data={storyData(service)}
        >
          <Story />
        </ServiceProvider>
      );
    },
    (Story, { globals, viewMode }) => {
      const theme = (globals.theme ?? 'light') as Theme;
      // The story is themed like a partner app themes a subtree: with the attribute, or (for
      // "system") with none, so prefers-color-scheme decides.
      return (
        <div
          data-service-theme={theme === 'system' ? undefined : theme}
          style={{
            // A docs page shows many stories one under another: each as tall as it is.
            minHeight: viewMode === 'docs' ? undefined : '100vh',
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
