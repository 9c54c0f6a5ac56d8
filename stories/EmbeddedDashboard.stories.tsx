import type { Meta, StoryObj } from '@storybook/react-vite';
import { EmbeddedDashboard } from '../src';
import { becomesReady, embedArgs, embedArgTypes, surfaceStates } from './embed-stories';

// A published dashboard of the emulator (`sales-overview`), signed-embedded through the
// partner's session route. `Playground` takes its props from the controls; each other story is
// one state: ready, loading (the skeleton), error with and without retry,
// renewal in place, renewal by reload.
const meta = {
  title: 'Embeds/EmbeddedDashboard',
  component: EmbeddedDashboard,
  tags: ['autodocs'],
  args: {
    ...embedArgs,
    publicId: 'sales-overview',
    allowExport: false,
    switches: { showDashboardExportMenu: true, showDashboardHeader: true, showDashboardTitle: true },
  },
  argTypes: { ...embedArgTypes, publicId: { control: 'select', options: ['sales-overview', 'orders-ops'] } },
} satisfies Meta<typeof EmbeddedDashboard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The dashboard as the controls set it: change the scheme, locale or time zone and the embed follows without a reload. */
export const Playground: Story = { play: becomesReady };

const states = surfaceStates((props) => <EmbeddedDashboard publicId="sales-overview" {...props} />, 'dashboard-loaded');

export const Ready: Story = states.Ready as Story;
export const Loading: Story = states.Loading as Story;
export const ErrorWithRetry: Story = states.ErrorWithRetry as Story;
export const ErrorWithoutRetry: Story = states.ErrorWithoutRetry as Story;
export const Renewal: Story = states.Renewal as Story;
export const RenewalByReload: Story = states.RenewalByReload as Story;
