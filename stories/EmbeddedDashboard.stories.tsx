import type { Meta, StoryObj } from '@storybook/react-vite';
import { EmbeddedDashboard } from '../src';
import { surfaceStates } from './embed-stories';

/**
 * A published dashboard of the emulator (`sales-overview`), signed-embedded through the
 * partner's session route. Each story is one state: ready, loading, error with retry, renewal.
 */
const meta = {
  title: 'Embeds/EmbeddedDashboard',
  component: EmbeddedDashboard,
  args: { publicId: 'sales-overview' },
} satisfies Meta<typeof EmbeddedDashboard>;

export default meta;
type Story = StoryObj<typeof meta>;

const states = surfaceStates((props) => <EmbeddedDashboard publicId="sales-overview" {...props} />, 'dashboard-loaded');

export const Ready: Story = states.Ready as Story;
export const Loading: Story = states.Loading as Story;
export const ErrorWithRetry: Story = states.ErrorWithRetry as Story;
export const Renewal: Story = states.Renewal as Story;
