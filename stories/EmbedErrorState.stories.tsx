import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { EmbedErrorState, embedLabels } from '../src/components/embeds/parts';
import { ServiceConfigError, ServiceError, ServiceHttpError } from '../src/core';
import { createEmbedEvent } from '../src/core/protocol/embed';
import { Frame } from './embed-stories';

const labels = embedLabels('dashboard');

// What `renderError` replaces, alone: a sentence for the viewer per error code, "Try again" only
// where loading again can help (a retry is an action here), and in development the code, the
// error's message and what to check.
const meta = {
  title: 'Embeds/Parts/EmbedErrorState',
  component: EmbedErrorState,
  tags: ['autodocs'],
  args: {
    error: new ServiceError('No ready from the embed in 20000 ms', { code: 'ready_timeout' }),
    retry: fn(),
    labels,
  },
  argTypes: { error: { control: false }, children: { control: false } },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
} satisfies Meta<typeof EmbedErrorState>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A page that never said ready: a retry can fix it, so "Try again" calls `retry`. */
export const Timeout: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(labels.errorTimeout);
    await userEvent.click(canvas.getByRole('button', { name: args.labels.retry }));
    await expect(args.retry).toHaveBeenCalledTimes(1);
  },
};

/** A configuration error (a bad `tenantUrl`): the viewer cannot fix it, so there is no "Try again". */
export const ConfigurationError: Story = {
  args: { error: new ServiceConfigError('ServiceProvider: invalid `tenantUrl`: must be https') },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(labels.errorSetup);
    // The detail is for developers, in development builds.
    await expect(canvas.getByRole('alert')).toHaveTextContent(/invalid_options.*tenantUrl/);
    await expect(canvas.queryByRole('button')).toBeNull();
  },
};

/** The page's session had expired or was used: loading again with a new one fixes it. */
export const SessionExpired: Story = {
  args: {
    error: new ServiceError('This session has already been used.', {
      code: 'embed_error',
      cause: createEmbedEvent({
        surface: 'dashboard',
        type: 'service:event:error',
        payload: { message: 'This session has already been used.', context: 'embed-auth', fatal: true },
      }),
    }),
  },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(labels.errorExpired);
    await expect(canvas.getByRole('button', { name: args.labels.retry })).toBeVisible();
  },
};

/** The session route answered 503: worth another try. */
export const ServerError: Story = {
  args: { error: new ServiceHttpError('Session route answered 503', { status: 503 }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(labels.errorServer);
    await expect(canvas.getByRole('button', { name: args.labels.retry })).toBeVisible();
  },
};

/** The session route refused the viewer (403): not for them, no "Try again". */
export const NotAvailable: Story = {
  args: { error: new ServiceHttpError('Session route answered 403', { status: 403 }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(labels.errorUnavailable);
    await expect(canvas.queryByRole('button')).toBeNull();
  },
};

/** The frame went to another site after ready (`origin_changed`): loading again brings the tenant back. */
export const LeftTheTenant: Story = {
  args: { error: new ServiceError('The frame left the tenant', { code: 'origin_changed' }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(labels.errorLeft);
    await expect(canvas.getByRole('button', { name: args.labels.retry })).toBeVisible();
  },
};

/** Translated through `labels`: every sentence and the button. */
export const Translated: Story = {
  args: {
    labels: embedLabels('dashboard', {
      errorTitle: 'Das Dashboard kann nicht angezeigt werden',
      errorTimeout: 'Das Laden hat zu lange gedauert.',
      retry: 'Erneut versuchen',
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent('Das Laden hat zu lange gedauert.');
    await expect(canvas.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
  },
};
