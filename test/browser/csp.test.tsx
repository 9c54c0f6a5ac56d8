/**
 * The Content-Security-Policy docs/security.md recommends, proven in real Chromium: the page
 * below runs under it (no `unsafe-eval`, `frame-src` the tenant origin alone, `connect-src`
 * its own origin, where the host's routes are), and an embedded dashboard on the emulator and an
 * agent chat whose answer draws a Vega-Lite chart work without one violation.
 *
 * `style-src 'self'` has no `'unsafe-inline'`: the library's own parts add no `<style>` element
 * and set styles through the CSSOM, which the CSP allows. vega-embed's and vega-tooltip's default
 * stylesheets (inline `<style>` elements) are turned off; styles.css styles the chart and its tooltip.
 *
 * Only the test harness needs more: vitest's runner injects inline scripts and talks to Vite over
 * a WebSocket, so `script-src` allows `'unsafe-inline'` and `connect-src` allows `ws:`.
 */
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { AgentChat, EmbeddedDashboard, ServiceProvider, fetchEmbedSession } from '../../src';
import { enforceCsp, type CspViolation } from '../helpers/csp';

const config = (await (await fetch('/__service/config')).json()) as { tenantUrl: string; embedSessionUrl: string };
const tenantOrigin = new URL(config.tenantUrl).origin;

const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'", // the harness's inline scripts; no 'unsafe-eval'
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self' ws:", // the chat proxy and session routes; ws: is Vite's
  `frame-src ${tenantOrigin}`,
  "object-src 'none'",
  "base-uri 'none'",
].join('; ');

let violations: CspViolation[] = [];

beforeAll(() => {
  violations = enforceCsp(CSP);
});

afterAll(cleanup);

describe('under the recommended CSP (no unsafe-eval, no unsafe-inline styles, frame-src the tenant)', () => {
  it('the policy is in force: eval and a frame of another origin are refused', async () => {
    // eslint-disable-next-line no-new-func -- deliberately refused by the CSP
    expect(() => new Function('return 1')).toThrow(EvalError);
    const frame = document.createElement('iframe');
    frame.src = `${inject('otherEmbedOrigin')}/blocked`;
    document.body.append(frame);
    await waitFor(() =>
      expect(violations.map((violation) => violation.directive)).toEqual(
        expect.arrayContaining(['script-src', 'frame-src']),
      ),
    );
    frame.remove();
    violations.length = 0;
  });

  it('a dashboard embed and an agent chat with a chart work without one violation', async () => {
    const { container } = render(
      <ServiceProvider
        tenantUrl={config.tenantUrl}
        getEmbedSession={fetchEmbedSession(config.embedSessionUrl)}
        chat={{ url: '/api/service' }}
      >
        <EmbeddedDashboard publicId="sales-overview" height={400} />
        <div style={{ height: 600, display: 'flex', flexDirection: 'column' }}>
          <AgentChat />
        </div>
      </ServiceProvider>,
    );
    await waitFor(
      () => expect(container.querySelector<HTMLElement>('[data-service-embed]')!.dataset['state']).toBe('ready'),
      { timeout: 20_000 },
    );

    await userEvent.type(
      container.querySelector<HTMLTextAreaElement>('textarea[aria-label="Ask a question"]')!,
      'Show revenue by month in 2025{Enter}',
    );
    await waitFor(() => expect(container.querySelector('[data-part="final-answer"]')).not.toBeNull(), {
      timeout: 20_000,
    });
    // The chart's Vega-Lite spec ran its expressions through the interpreter: no eval.
    await waitFor(
      () => expect(container.querySelector('[data-part="chart"] svg, .service-result-chart svg')).not.toBeNull(),
      { timeout: 20_000 },
    );

    // vega-tooltip's handler is made with the view: before this fix it added its <style> here.
    expect(document.getElementById('vega-tooltip-style')).toBeNull();
    expect(violations).toEqual([]);
  });
});
