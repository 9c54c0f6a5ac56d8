import type { Meta, StoryObj } from '@storybook/react-vite';
import { EmbeddedChat } from '../src';
import { becomesReady, embedArgs, embedArgTypes, surfaceStates } from './embed-stories';

// The standalone analytics chat surface of the emulator: `Playground` from the controls, then each state.
const meta = {
  title: 'Embeds/EmbeddedChat',
  component: EmbeddedChat,
  tags: ['autodocs'],
  args: { ...embedArgs, switches: { showNewChat: true, showChatInput: true, showChatHistory: true } },
  argTypes: embedArgTypes,
} satisfies Meta<typeof EmbeddedChat>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The chat surface as the controls set it: `switches` with a `false` hides that part (a reload). */
export const Playground: Story = { play: becomesReady };

const states = surfaceStates((props) => <EmbeddedChat {...props} />, 'view');

export const Ready: Story = states.Ready as Story;
export const Loading: Story = states.Loading as Story;
export const ErrorWithRetry: Story = states.ErrorWithRetry as Story;
export const ErrorWithoutRetry: Story = states.ErrorWithoutRetry as Story;
export const Renewal: Story = states.Renewal as Story;
export const RenewalByReload: Story = states.RenewalByReload as Story;
