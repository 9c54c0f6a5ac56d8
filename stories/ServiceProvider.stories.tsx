import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { EmbeddedDashboard, ServiceProvider, fetchEmbedSession, type ServiceProviderProps } from '../src';
import type { StoryServiceConfig } from '../.storybook/service-routes';
import { noControls, suppliedByStory } from './story-docs';

/** The controls: the provider's plain settings; the session route and the child are the story's. */
type Args = Omit<ServiceProviderProps, 'getEmbedSession' | 'children'>;

// A partner app's provider over an embedded dashboard. Without a `tenantUrl` control the
// emulator's is used, and sessions come from the partner's session route (`fetchEmbedSession`).
// The embed defaults (`colorScheme`, `locale`, `timezone`, `theme`) reach every embed below that
// does not set its own.
const meta = {
  title: 'Setup/ServiceProvider',
  component: suppliedByStory(ServiceProvider, 'getEmbedSession', 'children'),
  tags: ['autodocs'],
  args: { colorScheme: 'light', locale: 'en-US', timezone: 'UTC' },
  argTypes: {
    tenantUrl: { control: 'text' },
    colorScheme: { control: 'inline-radio', options: ['light', 'dark', 'auto'] },
    locale: { control: 'select', options: ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'es'] },
    timezone: { control: 'select', options: ['UTC', 'Europe/Berlin', 'Asia/Tokyo', 'America/New_York'] },
    theme: { control: 'object' },
    ...noControls('getEmbedSession', 'chat', 'data', 'queryClient', 'children'),
  },
  render: ({ tenantUrl, ...args }, { loaded }) => {
    const service = loaded.service as StoryServiceConfig;
    return (
      <ServiceProvider
        {...args}
        tenantUrl={tenantUrl || service.tenantUrl}
        getEmbedSession={fetchEmbedSession(service.embedSessionUrl)}
      >
        <EmbeddedDashboard publicId="sales-overview" height={420} />
      </ServiceProvider>
    );
  },
} satisfies Meta<Args>;

export default meta;
type Story = StoryObj<Args>;

const frameSrc = (canvas: HTMLElement) => canvas.querySelector('iframe')?.getAttribute('src') ?? '';

/** Embed defaults given once: the dashboard loads in German, with Berlin time. */
export const EmbedDefaults: Story = {
  args: { locale: 'de-DE', timezone: 'Europe/Berlin' },
  play: async ({ canvasElement }) => {
    await waitFor(
      () => expect(canvasElement.querySelector('[data-service-embed]')).toHaveAttribute('data-state', 'ready'),
      { timeout: 15_000 },
    );
    await expect(new URL(frameSrc(canvasElement)).searchParams.get('locale')).toBe('de-DE');
    await expect(new URL(frameSrc(canvasElement)).searchParams.get('timezone')).toBe('Europe/Berlin');
  },
};

/** A `tenantUrl` that is not https: every embed shows the typed error instead of loading anything. */
export const InsecureTenantUrl: Story = {
  args: { tenantUrl: 'http://acme.example.com' },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('alert')).toHaveTextContent(/https/);
    await expect(canvasElement.querySelector('iframe[src]')).toBeNull();
  },
};
