import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ErrorCard } from '../src/components/results/ErrorCard';

// What `SqlToolView` and `ResultChart` show in place of one part they cannot show.
const meta = {
  title: 'Chat/Results/ErrorCard',
  component: ErrorCard,
  tags: ['autodocs'],
  args: { title: 'The chart could not be drawn', children: 'The spec is not Vega-Lite.' },
  argTypes: { children: { control: 'text' } },
} satisfies Meta<typeof ErrorCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A failed chart: the rest of the view stays. */
export const PartError: Story = {
  play: async ({ canvasElement, args }) => {
    await expect(within(canvasElement).getByRole('alert')).toHaveTextContent(args.title);
  },
};
