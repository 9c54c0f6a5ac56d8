/**
 * ResultChart lets go of everything its Vega view holds when it unmounts, in real Chromium: the
 * listeners the view put on `window`, its tooltip (a `<div>` on `document.body`, outside the
 * chart), and, when it unmounts before vega has even loaded, the view it never needs to build.
 * Each test fails if the chart stopped calling `finalize()` or stopped checking for unmount.
 *
 * The first test must run before anything in this file loads vega (each browser test file runs
 * in its own page): it checks that nothing of vega was fetched before a chart appeared, and
 * unmounts while the `import()` of vega-embed is still pending.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../src/styles.css';
import { ResultChart } from '../../src/components/results';
import { loadVega } from '../../src/components/results/vega';
import { fixture, hoverBarUntilTooltip, mountChart, settled, tooltipShown, unmountChart } from './result-chart-helpers';

afterEach(unmountChart);

/** Runs `fn` in React's `act`, which React wants flagged; updates outside it are then not `act`'s. */
function inAct(fn: () => void): void {
  const flags = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  flags.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    act(fn);
  } finally {
    flags.IS_REACT_ACT_ENVIRONMENT = false;
  }
}

const { table } = fixture('ordersByStatus');

const bars = {
  mark: 'bar',
  encoding: {
    x: { field: 'status', type: 'nominal' },
    y: { field: 'orders', type: 'quantitative' },
    tooltip: [{ field: 'status' }, { field: 'orders' }],
  },
};

/**
 * Listeners on `window` still attached: every `addEventListener` on it is recorded from here on,
 * and every `removeEventListener` of the same type, listener and capture takes it out again.
 */
const attached = new Set<string>();
const ids = new WeakMap<object, number>();
let nextId = 0;
const originalAdd = window.addEventListener;
const originalRemove = window.removeEventListener;

function keyOf(
  type: string,
  listener: EventListenerOrEventListenerObject,
  options?: boolean | EventListenerOptions,
): string {
  if (!ids.has(listener)) ids.set(listener, nextId++);
  const capture = typeof options === 'boolean' ? options : options?.capture === true;
  return `${type} #${ids.get(listener)} ${capture ? 'capture' : 'bubble'}`;
}

beforeAll(() => {
  window.addEventListener = function (
    this: Window,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    // `once` listeners remove themselves after one call: not a leak to count.
    if (!listener) return;
    if (!(typeof options === 'object' && options.once)) attached.add(keyOf(type, listener, options));
    originalAdd.call(this, type, listener, options);
  } as typeof window.addEventListener;
  window.removeEventListener = function (
    this: Window,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions,
  ) {
    if (!listener) return;
    attached.delete(keyOf(type, listener, options));
    originalRemove.call(this, type, listener, options);
  } as typeof window.removeEventListener;
});

afterAll(() => {
  window.addEventListener = originalAdd;
  window.removeEventListener = originalRemove;
});

/** Errors the page reports while `run` and whatever it starts are under way. */
async function pageErrors(run: () => Promise<void>): Promise<unknown[]> {
  const errors: unknown[] = [];
  const onError = (event: Event) => errors.push((event as ErrorEvent).error ?? (event as ErrorEvent).message);
  const onRejection = (event: Event) => errors.push((event as PromiseRejectionEvent).reason);
  const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
  originalAdd.call(window, 'error', onError);
  originalAdd.call(window, 'unhandledrejection', onRejection);
  try {
    await run();
  } finally {
    originalRemove.call(window, 'error', onError);
    originalRemove.call(window, 'unhandledrejection', onRejection);
    consoleError.mockRestore();
  }
  return errors;
}

describe('ResultChart lets go of its Vega view on unmount (real Chromium)', () => {
  it('unmounted while vega is still loading, it builds no view and reports no error', async () => {
    const errors = await pageErrors(async () => {
      // Nothing of vega is fetched before a chart appears (it is loaded with import() on first use).
      const vegaRequests = () =>
        performance.getEntriesByType('resource').filter((entry) => /vega-(embed|lite|interpreter)/.test(entry.name));
      expect(vegaRequests()).toEqual([]);
      const before = new Set(attached);
      const host = document.createElement('div');
      document.body.append(host);
      const root = createRoot(host);
      // `act` runs the effects (the theme read, then the chart's) before it returns: the
      // `import()` has begun, and an import never settles synchronously.
      inAct(() => root.render(<ResultChart spec={bars} columns={table.columns} rows={table.rows} title="Orders" />));
      const chart = host.querySelector<HTMLElement>('[data-part="chart"]')!;
      expect(chart.dataset.state).toBe('loading');
      const canvas = chart.querySelector<HTMLElement>('.service-result-chart__canvas')!;
      inAct(() => root.unmount());
      host.remove();
      // A second chart, mounted after the first started loading, is drawn after it would have been.
      await loadVega();
      expect(vegaRequests().length).toBeGreaterThan(0);
      const second = mountChart(<ResultChart spec={bars} columns={table.columns} rows={table.rows} title="Orders" />);
      await settled(second);
      expect(canvas.childElementCount).toBe(0);
      expect(document.querySelectorAll('svg.marks')).toHaveLength(1);
      unmountChart();
      expect([...attached].filter((key) => !before.has(key))).toEqual([]);
    });
    expect(errors).toEqual([]);
  });

  it('takes the listeners its view put on window off again', async () => {
    const before = new Set(attached);
    // An interval selection listens on window for the end of a drag, whatever element it began on.
    const chart = mountChart(
      <ResultChart
        spec={{ ...bars, params: [{ name: 'brush', select: { type: 'interval', encodings: ['x'] } }] }}
        columns={table.columns}
        rows={table.rows}
        title="Orders"
      />,
    );
    await settled(chart);
    const added = [...attached].filter((key) => !before.has(key));
    // The proof that the test can see the view's listeners at all.
    expect(added.length).toBeGreaterThan(0);
    unmountChart();
    expect([...attached].filter((key) => !before.has(key))).toEqual([]);
  });

  it('hides its tooltip, which lives outside the chart, when it unmounts under the pointer', async () => {
    const chart = mountChart(<ResultChart spec={bars} columns={table.columns} rows={table.rows} title="Orders" />);
    await settled(chart);
    const tooltip = await hoverBarUntilTooltip(chart);
    expect(chart.contains(tooltip)).toBe(false);
    // Styled by styles.css, not by vega-tooltip's inline <style> (turned off: a strict CSP refuses it).
    expect(document.getElementById('vega-tooltip-style')).toBeNull();
    expect(getComputedStyle(tooltip).position).toBe('fixed');
    expect(getComputedStyle(tooltip).visibility).toBe('visible');
    unmountChart();
    expect(tooltipShown()).toBeNull();
    expect(tooltip.classList.contains('visible')).toBe(false);
    expect(getComputedStyle(tooltip).visibility).toBe('hidden');
  });

  it('a chart drawn again after an unmount works as the first did', async () => {
    const first = mountChart(<ResultChart spec={bars} columns={table.columns} rows={table.rows} title="Orders" />);
    await settled(first);
    unmountChart();
    const second = mountChart(<ResultChart spec={bars} columns={table.columns} rows={table.rows} title="Orders" />);
    await settled(second);
    expect(second.querySelectorAll('g.mark-rect path')).toHaveLength(table.rows.length);
  });
});
