import type { Meta, StoryObj } from '@storybook/react-vite';
import { EmbeddedApp } from '../src';
import { becomesReady, embedArgs, embedArgTypes, surfaceStates } from './embed-stories';

// The creator-mode app of deployment 1 of the emulator: `Playground` from the controls, then each state.
const meta = {
  title: 'Embeds/EmbeddedApp',
  component: EmbeddedApp,
  tags: ['autodocs'],
  args: { ...embedArgs, deploymentId: 1, allowExport: false },
  argTypes: embedArgTypes,
} satisfies Meta<typeof EmbeddedApp>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The app as the controls set it. */
export const Playground: Story = { play: becomesReady };

const states = surfaceStates((props) => <EmbeddedApp deploymentId={1} {...props} />, 'view');

export const Ready: Story = states.Ready as Story;
export const Loading: Story = states.Loading as Story;
export const ErrorWithRetry: Story = states.ErrorWithRetry as Story;
export const ErrorWithoutRetry: Story = states.ErrorWithoutRetry as Story;
export const Renewal: Story = states.Renewal as Story;
export const RenewalByReload: Story = states.RenewalByReload as Story;
