import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState, type ReactNode } from 'react';
import { expect, waitFor } from 'storybook/test';
import {
  AgentChat,
  EmbeddedDashboard,
  ServiceProvider,
  useAgentChat,
  useServiceContext,
  type EmbedTheme,
  type UseAgentChatResult,
} from '../src';
import { TRANSCRIPTS, createReplayFetch } from '../src/testing';

// One theme, three surfaces: ServiceProvider's `theme` brands the embedded dashboard (through
// `set-theme`), the native chat (its `--service-*` tokens) and the chart in its answer. The
// dashboard is the live emulator's; the chat replays a recorded answer with a chart.

/** The controls: the brand. */
interface Args {
  primaryColor: string;
  font: string;
  borderRadius: number;
}

/** A conversation that has asked for revenue by month, answered from the recording. */
function useRevenueAnswer(): UseAgentChatResult {
  const [fetch] = useState(() => createReplayFetch({ transcript: TRANSCRIPTS['revenue-by-month'] }).fetch);
  const chat = useAgentChat({ url: '/recorded', fetch });
  useEffect(() => {
    if (chat.messages.length === 0 && chat.status === 'idle')
      chat.send('Show revenue by month in 2025').catch(() => undefined);
  }, [chat]);
  return chat;
}

function Branded({ theme, children }: { theme: EmbedTheme; children: ReactNode }) {
  // The story's provider (tenant, session route), again with the brand.
  const outer = useServiceContext('Branded');
  return (
    <ServiceProvider tenantUrl={outer.tenantUrl} getEmbedSession={outer.getEmbedSession} theme={theme}>
      {children}
    </ServiceProvider>
  );
}

function BrandedChat() {
  const chat = useRevenueAnswer();
  return <AgentChat chat={chat.chat} style={{ height: 520 }} />;
}

function OneTheme({ primaryColor, font, borderRadius }: Args) {
  return (
    <Branded theme={{ primaryColor, font, borderRadius }}>
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: 16 }}>
        <EmbeddedDashboard publicId="sales-overview" height={520} />
        <BrandedChat />
      </div>
    </Branded>
  );
}

const meta = {
  title: 'Guides/One theme',
  component: OneTheme,
  args: { primaryColor: '#5b21b6', font: 'Georgia, serif', borderRadius: 4 },
  argTypes: { primaryColor: { control: 'color' } },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof OneTheme>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The brand on the dashboard, the chat and its chart. */
export const DashboardChatAndChart: Story = {
  play: async ({ canvasElement }) => {
    const chat = await waitFor(async () => {
      const element = canvasElement.querySelector<HTMLElement>('[data-part="chat"]');
      await expect(element).toBeTruthy();
      return element!;
    });
    await expect(getComputedStyle(chat).fontFamily).toBe('Georgia, serif');
    const line = await waitFor(
      async () => {
        const path = chat.querySelector('[data-part="chart"] svg .mark-line path');
        await expect(path).toBeTruthy();
        return path!;
      },
      { timeout: 15_000 },
    );
    await expect(line.getAttribute('stroke')).toBe('#5b21b6');
    await waitFor(
      () => expect(canvasElement.querySelector<HTMLElement>('[data-service-embed]')?.dataset['state']).toBe('ready'),
      { timeout: 15_000 },
    );
  },
};
