import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState, type ReactNode } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import { EmbedErrorState, EmbedPlaceholder, EmbedRetryButton, embedLabels } from '../src/components/embeds/parts';
import { ServiceConfigError } from '../src/core';

/**
 * The parts every embed is made of, alone: what `renderPlaceholder` and `renderError` replace, for
 * a partner who recomposes them. They cover the frame's box exactly (no layout shift).
 */
const meta: Meta = { title: 'Embeds/Parts' };
export default meta;

const labels = embedLabels('dashboard');

function Frame({ children }: { children: ReactNode }): ReactNode {
  return (
    <div data-service-embed="" style={{ height: 240, maxWidth: 640, border: '1px solid var(--service-color-border)' }}>
      {children}
    </div>
  );
}

/** `EmbedPlaceholder`: the polite status shown until `ready`. */
export const Placeholder: StoryObj = {
  render: () => (
    <Frame>
      <EmbedPlaceholder label={labels.loading} />
    </Frame>
  ),
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent(labels.loading);
  },
};

function ErrorWithRetry(): ReactNode {
  const [retries, setRetries] = useState(0);
  return (
    <Frame>
      <EmbedErrorState
        error={new ServiceConfigError('ServiceProvider: invalid `tenantUrl`: must be https')}
        retry={() => setRetries((count) => count + 1)}
        labels={labels}
      >
        <output aria-label="retries">{retries}</output>
      </EmbedErrorState>
    </Frame>
  );
}

/** `EmbedErrorState` with its `EmbedRetryButton`: the typed error's message and a retry. */
export const ErrorState: StoryObj = {
  render: () => <ErrorWithRetry />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(/tenantUrl/);
    await userEvent.click(canvas.getByRole('button', { name: labels.retry }));
    await expect(canvas.getByLabelText('retries')).toHaveTextContent('1');
  },
};

/** `EmbedRetryButton` alone, for an error view of one's own. */
export const RetryButton: StoryObj = {
  render: () => <EmbedRetryButton retry={() => undefined} label="Try again" />,
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('button', { name: 'Try again' })).toBeEnabled();
  },
};
