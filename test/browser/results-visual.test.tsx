/**
 * The look of result tables and charts, compared with committed baselines in real Chromium
 * (`__screenshots__/results-visual.test.tsx/`, a small tolerance for anti-aliasing): light, dark,
 * and a 375 px wide phone. A change of look fails here until the baselines are updated on purpose
 * (`npx vitest run --project browser test/browser/results-visual.test.tsx --update`) and looked at.
 */
import type { ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import '../../src/styles.css';
import { SqlToolView } from '../../src/components/results';
import { loadVega } from '../../src/components/results/vega';
import { sqlToolCall, type SqlFixtureName } from '../fixtures/sql-tool-calls';

let root: Root | undefined;
let host: HTMLElement | undefined;

afterEach(() => {
  root?.unmount();
  host?.remove();
  root = host = undefined;
});

beforeAll(async () => {
  await loadVega();
  await page.viewport(900, 900);
});

/** Mounts `element` in a host of `width` pixels on the theme's background. */
function mount(element: ReactElement, options: { width: number; theme: 'light' | 'dark' }): HTMLElement {
  host = document.createElement('div');
  host.dataset.serviceTheme = options.theme;
  Object.assign(host.style, {
    width: `${options.width}px`,
    padding: '16px',
    boxSizing: 'border-box',
    background: 'var(--service-color-background)',
  });
  document.body.append(host);
  const current = createRoot(host);
  root = current;
  flushSync(() => current.render(element));
  return host;
}

async function settled(element: HTMLElement): Promise<void> {
  await vi.waitFor(
    () => {
      const chart = element.querySelector<HTMLElement>('[data-part="chart"]');
      if (chart) expect(chart.dataset.state).toBe('ready');
    },
    { timeout: 20_000 },
  );
  await document.fonts.ready;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

const SCREENSHOT = {
  comparatorName: 'pixelmatch',
  comparatorOptions: { threshold: 0.2, allowedMismatchedPixelRatio: 0.01 },
} as const;

const CASES: [
  name: string,
  fixture: SqlFixtureName,
  view: 'table' | 'chart',
  width: number,
  theme: 'light' | 'dark',
][] = [
  ['table-light', 'revenueByMonth', 'table', 640, 'light'],
  ['table-dark', 'revenueByMonth', 'table', 640, 'dark'],
  ['table-375', 'topCustomers', 'table', 375, 'light'],
  ['line-chart-light', 'revenueByMonth', 'chart', 640, 'light'],
  ['line-chart-dark', 'revenueByMonth', 'chart', 640, 'dark'],
  ['line-chart-375', 'revenueByMonth', 'chart', 375, 'light'],
  ['bar-chart-light', 'ordersByStatus', 'chart', 640, 'light'],
  ['bar-chart-dark', 'ordersByStatus', 'chart', 640, 'dark'],
  ['donut-chart-375', 'revenueByRegion', 'chart', 375, 'light'],
];

describe('results look as designed (visual baselines)', () => {
  it.each(CASES)('%s', async (name, fixture, view, width, theme) => {
    const element = mount(<SqlToolView call={sqlToolCall(fixture)} defaultView={view} locale="en-US" />, {
      width,
      theme,
    });
    await settled(element);
    await expect.element(element).toMatchScreenshot(name, SCREENSHOT);
  });

  it('a running query', async () => {
    const element = mount(<SqlToolView call={sqlToolCall('revenueByMonth', 'running')} />, {
      width: 640,
      theme: 'light',
    });
    // The shimmer is an animation: the baseline is taken with motion reduced.
    element.querySelectorAll<HTMLElement>('.service-result-skeleton__row').forEach((row) => {
      row.style.animation = 'none';
    });
    await settled(element);
    await expect.element(element).toMatchScreenshot('running', SCREENSHOT);
  });
});
