import type { Meta, StoryObj } from '@storybook/react-vite';
import { EmbeddedChat } from '../src';
import { surfaceStates } from './embed-stories';

/** The standalone analytics chat surface of the emulator, in each state. */
const meta = {
  title: 'Embeds/EmbeddedChat',
  component: EmbeddedChat,
} satisfies Meta<typeof EmbeddedChat>;

export default meta;
type Story = StoryObj<typeof meta>;

const states = surfaceStates((props) => <EmbeddedChat {...props} />, 'view');

export const Ready: Story = states.Ready as Story;
export const Loading: Story = states.Loading as Story;
export const ErrorWithRetry: Story = states.ErrorWithRetry as Story;
export const Renewal: Story = states.Renewal as Story;
