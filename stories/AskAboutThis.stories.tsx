import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, waitFor, within } from 'storybook/test';
import { AskAboutThis } from './ask-about-this';

// Embeds and chat together, against the live emulator: click a bar of "Orders by status" in the
// dashboard and the chat beside it is pre-filled with a question about that bar and the region
// filter set above the dashboard; send it, and the answer offers to open the creator-mode app at
// the widget you drilled into. The code is `stories/ask-about-this.tsx`; the guide is the "Ask
// about this" section of docs/quick-start.md.
const meta = {
  title: 'Guides/Ask about this',
  component: AskAboutThis,
  args: { onAppPath: fn() },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof AskAboutThis>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The dashboard, the chat and the app, all ready; the chat waits for a drilldown. */
export const DashboardChatAndApp: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await waitFor(
      async () => {
        const states = [...canvasElement.querySelectorAll<HTMLElement>('[data-service-embed]')].map(
          (root) => root.dataset['state'],
        );
        await expect(states).toEqual(['ready', 'ready']);
      },
      { timeout: 20_000 },
    );
    await expect(canvas.getByRole('textbox', { name: 'Ask a question' })).toHaveValue('');
    await waitFor(() => expect(args.onAppPath).toHaveBeenCalledWith('/'), { timeout: 15_000 });
  },
};
