import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { EmbedErrorState, embedLabels } from '../src/components/embeds/parts';
import { ServiceConfigError } from '../src/core';
import { Frame } from './embed-stories';

const labels = embedLabels('dashboard');

// What `renderError` replaces, alone: the typed error's message and a retry (an action here).
const meta = {
  title: 'Embeds/Parts/EmbedErrorState',
  component: EmbedErrorState,
  tags: ['autodocs'],
  args: {
    error: new ServiceConfigError('ServiceProvider: invalid `tenantUrl`: must be https'),
    retry: fn(),
    labels: { errorTitle: labels.errorTitle, retry: labels.retry },
  },
  argTypes: { error: { control: false }, children: { control: false } },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof EmbedErrorState>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A configuration error: its message, and the retry button calling `retry`. */
export const ErrorState: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(/tenantUrl/);
    await userEvent.click(canvas.getByRole('button', { name: args.labels.retry }));
    await expect(args.retry).toHaveBeenCalledTimes(1);
  },
};
