/**
 * "Ask about this" in real Chromium against the emulator: a click on a bar in the embedded
 * dashboard (another origin, clicked through Playwright) pre-fills the chat beside it with a
 * question about that bar and the dashboard's filters; the viewer sends it; the answer's button
 * opens the creator-mode app at the widget drilled into.
 */
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { ServiceProvider, fetchEmbedSession } from '../../src';
import { AskAboutThis } from '../../stories/ask-about-this';
import '../../src/styles.css';

const config = (await (await fetch('/__service/config')).json()) as { tenantUrl: string; embedSessionUrl: string };

afterEach(() => cleanup());

describe('Ask about this', () => {
  it('a drilldown pre-fills the question with the filters; the answer opens the app there', async () => {
    // The runner's own size: a larger viewport scales the test frame and puts Playwright's clicks
    // inside the embed in the wrong place.
    await page.viewport(960, 640);
    const paths: string[] = [];
    const { container } = render(
      <ServiceProvider
        tenantUrl={config.tenantUrl}
        getEmbedSession={fetchEmbedSession(config.embedSessionUrl)}
        chat={{ url: '/api/service' }}
      >
        <AskAboutThis onAppPath={(path) => paths.push(path)} />
      </ServiceProvider>,
    );
    await waitFor(() => expect(paths).toEqual(['/']), { timeout: 20_000 });
    const dashboard = page.frameLocator(page.getByTitle('Dashboard'));
    await dashboard.getByRole('button', { name: /^completed: [\d,]+ Count$/ }).click();

    const textbox = container.querySelector('textarea')!;
    await waitFor(() =>
      expect(textbox.value).toBe(
        'Tell me more about orders.count for completed, with these filters: orders.region is EMEA.',
      ),
    );
    // The viewer may edit it before sending.
    await userEvent.click(textbox);
    await userEvent.keyboard(' Compare with last month.{Enter}');
    await waitFor(() => expect(textbox.value).toBe(''));
    const open = await waitFor(
      () => {
        const button = container.querySelector<HTMLButtonElement>('[data-testid="open-in-app"]');
        expect(button).toBeTruthy();
        return button!;
      },
      { timeout: 20_000 },
    );
    expect(container.querySelector('[data-role="user"]')?.textContent).toContain('Compare with last month.');
    await userEvent.click(open);
    await waitFor(() => expect(paths.at(-1)).toBe('/workbooks/sales-overview/widgets/orders-by-status'));
  });
});
