import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { EmbedRetryButton } from '../src/components/embeds/parts';

// The error state's button alone, for an error view of one's own.
const meta = {
  title: 'Embeds/Parts/EmbedRetryButton',
  component: EmbedRetryButton,
  tags: ['autodocs'],
  args: { label: 'Try again', retry: fn() },
} satisfies Meta<typeof EmbedRetryButton>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A click calls `retry`. */
export const RetryButton: Story = {
  play: async ({ canvasElement, args }) => {
    await userEvent.click(within(canvasElement).getByRole('button', { name: args.label }));
    await expect(args.retry).toHaveBeenCalledTimes(1);
  },
};
