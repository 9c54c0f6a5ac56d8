/**
 * One theme, three surfaces, in real Chromium: `ServiceProvider`'s `theme` reaches the embedded
 * page (through `set-theme`, read back from the emulator's page across origins), the native chat
 * (its `--service-*` tokens, as computed styles) and the chart of an answer (the SVG vega draws);
 * a `theme` on the chat wins over the provider's.
 */
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { commands, userEvent } from 'vitest/browser';
import { AgentChat, EmbeddedDashboard, ServiceProvider, fetchEmbedSession, type EmbedTheme } from '../../src';
import { TRANSCRIPTS, createReplayFetch } from '../../src/testing';
import '../../src/styles.css';

const config = (await (await fetch('/__service/config')).json()) as { tenantUrl: string; embedSessionUrl: string };

afterEach(() => cleanup());

const BRAND: EmbedTheme = { primaryColor: '#7c3aed', font: 'Georgia, serif', borderRadius: 4 };
const VIOLET = 'rgb(124, 58, 237)';

async function ask(chat: HTMLElement, question: string): Promise<void> {
  await userEvent.click(chat.querySelector('textarea')!);
  await userEvent.keyboard(question);
  await userEvent.keyboard('{Enter}');
}

describe("ServiceProvider's theme brands every surface", () => {
  it('the embed, the chat and its chart; a theme on the chat wins', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['revenue-by-month'] });
    const { container } = render(
      <ServiceProvider
        tenantUrl={config.tenantUrl}
        getEmbedSession={fetchEmbedSession(config.embedSessionUrl)}
        theme={BRAND}
        chat={{ url: '/api/service', fetch: replay.fetch }}
      >
        <EmbeddedDashboard publicId="sales-overview" height={360} />
        <div style={{ display: 'flex', gap: 16, height: 640 }}>
          <AgentChat data-testid="branded" style={{ flex: 1 }} />
          <AgentChat data-testid="own" theme={{ primaryColor: '#047857' }} style={{ flex: 1 }} />
        </div>
      </ServiceProvider>,
    );

    // The embedded page: the brand colour as the page computes it.
    await waitFor(
      async () =>
        expect((await commands.inspectEmbedFrame('/embed/dashboard/sales-overview')).primaryColor).toBe(VIOLET),
      { timeout: 15_000 },
    );

    // The chat: its tokens, where the stylesheet uses them.
    const branded = container.querySelector<HTMLElement>('[data-testid="branded"]')!;
    const send = getComputedStyle(branded.querySelector('[data-part="send"]')!);
    expect(send.backgroundColor).toBe(VIOLET);
    expect(send.color).toBe('rgb(255, 255, 255)');
    expect(getComputedStyle(branded).fontFamily).toBe('Georgia, serif');
    // The composer's field (its textarea draws no border): twice the large radius, 4 px × 1.5 × 2.
    expect(getComputedStyle(branded.querySelector('.service-chat-field')!).borderTopLeftRadius).toBe('12px');
    const own = container.querySelector<HTMLElement>('[data-testid="own"]')!;
    expect(getComputedStyle(own.querySelector('[data-part="send"]')!).backgroundColor).toBe('rgb(4, 120, 87)');
    expect(getComputedStyle(own).fontFamily).toBe('Georgia, serif');

    // The chart of an answer: the brand's colour on the series and its font on the text.
    await ask(branded, 'Show revenue by month in 2025');
    const svg = await waitFor(
      () => {
        const drawn = branded.querySelector<SVGSVGElement>('[data-part="chart"] svg');
        expect(drawn?.querySelector('.mark-line path')).toBeTruthy();
        return drawn!;
      },
      { timeout: 15_000 },
    );
    expect(svg.querySelector('.mark-line path')!.getAttribute('stroke')).toBe('#7c3aed');
    const fonts = new Set([...svg.querySelectorAll('text')].map((text) => text.getAttribute('font-family')));
    expect([...fonts]).toEqual(['Georgia, serif']);
    // The user's message carries the accent too.
    const mine = branded.querySelector('[data-role="user"]')!;
    expect(getComputedStyle(mine).backgroundColor).toBe(VIOLET);
  }, 60_000); // An embed's load, a streamed answer and a chart: its waits allow 15 s each.

  it('without a theme, charts keep the spec style and the chat its own tokens', async () => {
    const replay = createReplayFetch({ transcript: TRANSCRIPTS['revenue-by-month'] });
    const { container } = render(
      <ServiceProvider chat={{ url: '/api/service', fetch: replay.fetch }}>
        <div style={{ height: 640, display: 'flex' }}>
          <AgentChat />
        </div>
      </ServiceProvider>,
    );
    const chat = container.querySelector<HTMLElement>('[data-part="chat"]')!;
    expect(chat.getAttribute('style') ?? '').not.toContain('--service');
    await ask(chat, 'Show revenue by month in 2025');
    const path = await waitFor(
      () => {
        const drawn = chat.querySelector('[data-part="chart"] svg .mark-line path');
        expect(drawn).toBeTruthy();
        return drawn!;
      },
      { timeout: 15_000 },
    );
    expect(path.getAttribute('stroke')).toBe('#4E79A7');
  });
});
