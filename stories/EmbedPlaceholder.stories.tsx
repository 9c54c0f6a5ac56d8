import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { EmbedPlaceholder, embedLabels } from '../src/components/embeds/parts';
import { Frame } from './embed-stories';

// What `renderPlaceholder` replaces, alone, for a partner who recomposes an embed's frame.
const meta = {
  title: 'Embeds/Parts/EmbedPlaceholder',
  component: EmbedPlaceholder,
  tags: ['autodocs'],
  args: { label: embedLabels('dashboard').loading },
  argTypes: { children: { control: false } },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof EmbedPlaceholder>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The polite status shown until `ready`. */
export const Placeholder: Story = {
  play: async ({ canvasElement, args }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(args.label);
  },
};
