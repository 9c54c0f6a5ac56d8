/**
 * The chart under attack, in real Chromium under a strict Content-Security-Policy (no
 * `unsafe-eval`): agent-supplied Vega-Lite specs that try to load data, images or links from
 * URLs, run expressions, or rewrite their embedding through `usermeta.embedOptions`. Nothing may
 * execute and no request may leave the page: every URL in these specs carries the marker `evil`,
 * and the test watches CSP violations, resource timing entries, `window.open` and the DOM.
 */
import { userEvent } from 'vitest/browser';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../src/styles.css';
import { ResultChart } from '../../src/components/results';
import { chartHost, fixture, hoverBarUntilTooltip, mountChart, unmountChart } from './result-chart-helpers';
import { enforceCsp, type CspViolation } from '../helpers/csp';

const CSP = [
  "default-src 'self'",
  // No 'unsafe-eval': expressions must run through the interpreter.
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self'",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "frame-src 'none'",
].join('; ');

let violations: CspViolation[] = [];
const opened: unknown[] = [];
const originalOpen = window.open;

beforeAll(() => {
  violations = enforceCsp(CSP);
  window.open = (...args: unknown[]) => {
    opened.push(args);
    return null;
  };
});

afterAll(() => {
  window.open = originalOpen;
});

afterEach(unmountChart);

const { table } = fixture('ordersByStatus');
/** The statuses of the recorded rows: what every chart must show, whatever its spec says. */
const STATUSES = table.rows.map((row) => String(row[0]));

const EVIL_ORIGIN = 'https://evil.test';
const SAME_ORIGIN_EVIL = '/__evil__';

/** Requests the page made to an `evil` URL, and CSP violations of any kind. */
function leaks(): { resources: string[]; violations: typeof violations } {
  const resources = performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.includes('evil'));
  return { resources, violations: [...violations] };
}

async function draw(spec: Record<string, unknown>): Promise<HTMLElement> {
  const chart = mountChart(
    <ResultChart spec={JSON.stringify(spec)} columns={table.columns} rows={table.rows} title="Attack" />,
  );
  await vi.waitFor(() => expect(chart.dataset.state).not.toBe('loading'), { timeout: 20_000 });
  return chart;
}

/** Waits long enough for anything asynchronous a spec started (image loads, sanitize calls) to happen. */
async function quiet(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 300));
}

function expectNothingLeft(chart: HTMLElement): void {
  expect(leaks()).toEqual({ resources: [], violations: [] });
  expect((window as { __pwned?: unknown }).__pwned).toBeUndefined();
  expect(opened).toEqual([]);
  // No live link and no image with a URL anywhere in the chart or the tooltip.
  const anchors = [...document.querySelectorAll('a[href], a[*|href]')].filter(
    (anchor) => chartHost().contains(anchor) || anchor.closest('#vg-tooltip-element'),
  );
  expect(anchors).toEqual([]);
  for (const image of document.querySelectorAll('image, img')) {
    const href = image.getAttribute('href') ?? image.getAttribute('xlink:href') ?? image.getAttribute('src') ?? '';
    expect(href).not.toMatch(/evil|^https?:|^javascript:/i);
  }
  expect(chart.querySelector('.vega-actions, details')).toBeNull();
}

const bars = {
  mark: 'bar',
  encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } },
};

/** The statuses the drawn bars carry. */
function drawnStatuses(chart: HTMLElement): string[] {
  return [...chart.querySelectorAll('g.mark-rect path')].map(
    (bar) => /status: (\w+)/i.exec(bar.getAttribute('aria-label') ?? '')?.[1] ?? '',
  );
}

describe('chart specs cannot reach out or run code (strict CSP, real Chromium)', () => {
  it('the CSP is in force: a plain eval is refused and reported', async () => {
    // Proves the watch works: the same listener would see the interpreter fall back to eval.
    // eslint-disable-next-line no-new-func -- deliberately refused by the CSP
    expect(() => new Function('return 1')).toThrow(EvalError);
    await vi.waitFor(() => expect(violations.map((violation) => violation.directive)).toContain('script-src'));
    violations.length = 0;
  });

  it('data.url (remote and same-origin), values, datasets and lookups all draw our rows', async () => {
    const chart = await draw({
      ...bars,
      data: { url: `${EVIL_ORIGIN}/data.json` },
      datasets: { stolen: [{ status: 'stolen', orders: 1 }] },
      layer: [
        { ...bars, data: { url: `${SAME_ORIGIN_EVIL}/data.csv`, format: { type: 'csv' } } },
        { ...bars, data: { values: [{ status: 'injected', orders: 5 }] } },
        { ...bars, data: { name: 'stolen' } },
        {
          ...bars,
          transform: [
            { lookup: 'status', from: { data: { url: `${EVIL_ORIGIN}/lookup.json` }, key: 'status', fields: ['x'] } },
          ],
        },
      ],
    });
    expect(chart.dataset.state).toBe('ready');
    await quiet();
    const drawn = drawnStatuses(chart);
    expect(new Set(drawn)).toEqual(new Set(STATUSES));
    expect(drawn).toHaveLength(STATUSES.length * 4);
    expectNothingLeft(chart);
  });

  it('href channels make no link and clicking a mark goes nowhere', async () => {
    const chart = await draw({
      ...bars,
      transform: [{ calculate: "'javascript:window.__pwned=1'", as: 'link' }],
      encoding: { ...bars.encoding, href: { field: 'link', type: 'nominal' } },
      mark: { type: 'bar', href: `${EVIL_ORIGIN}/click` },
    });
    expect(chart.dataset.state).toBe('ready');
    const bar = chart.querySelector<SVGElement>('g.mark-rect path')!;
    await userEvent.click(bar);
    await quiet();
    expect(location.href).not.toMatch(/evil|javascript/);
    expectNothingLeft(chart);
  });

  it('image marks with URLs load nothing', async () => {
    const chart = await draw({
      layer: [
        bars,
        {
          mark: { type: 'image', width: 20, height: 20 },
          encoding: {
            x: { field: 'status', type: 'nominal' },
            y: { field: 'orders', type: 'quantitative' },
            url: { value: `${EVIL_ORIGIN}/pixel.png` },
          },
        },
        {
          mark: { type: 'image', width: 20, height: 20, url: `${SAME_ORIGIN_EVIL}/pixel.png` },
          encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'orders', type: 'quantitative' } },
        },
      ],
    });
    expect(chart.dataset.state).toBe('ready');
    await quiet();
    expectNothingLeft(chart);
  });

  it('tooltips show text only: an image field loads nothing and HTML stays text', async () => {
    const chart = await draw({
      ...bars,
      transform: [
        { calculate: `'${EVIL_ORIGIN}/tooltip.png'`, as: 'picture' },
        { calculate: "'<img src=/__evil__/x.png onerror=window.__pwned=1>'", as: 'html' },
      ],
      encoding: {
        ...bars.encoding,
        tooltip: [
          { field: 'picture', title: 'image' },
          { field: 'html', title: 'note' },
          { field: 'status', title: 'title' },
        ],
      },
    });
    expect(chart.dataset.state).toBe('ready');
    const tooltip = await hoverBarUntilTooltip(chart);
    expect(tooltip.querySelector('img')).toBeNull();
    expect(tooltip.textContent).toContain('<img src=/__evil__/x.png');
    expect(tooltip.textContent).not.toContain('tooltip.png');
    await quiet();
    expectNothingLeft(chart);
  });

  it.each([
    ['a calculate reaching for globals', { transform: [{ calculate: 'window.__pwned = 1', as: 'x' }] }],
    ['a constructor escape', { transform: [{ calculate: "constructor.constructor('window.__pwned=1')()", as: 'x' }] }],
    [
      'a filter calling a non-function',
      { transform: [{ filter: "'a'.constructor.constructor('window.__pwned=1')()" }] },
    ],
    ['a parameter expression', { params: [{ name: 'p', expr: '(function(){window.__pwned=1})()' }] }],
    [
      'an event stream with an expression',
      { params: [{ name: 'q', value: 0, on: [{ events: 'click', update: 'eval("window.__pwned=1")' }] }] },
    ],
  ])('expressions cannot run code: %s', async (_, attack) => {
    const chart = await draw({ ...bars, ...attack });
    // Either the spec is refused (error card) or it draws: never does the payload run.
    expect(['ready', 'error']).toContain(chart.dataset.state);
    if (chart.dataset.state === 'ready') await userEvent.click(chart.querySelector<SVGElement>('g.mark-rect path')!);
    await quiet();
    expectNothingLeft(chart);
  });

  it('usermeta.embedOptions cannot turn the interpreter off, replace the loader or change the embedding', async () => {
    const chart = await draw({
      ...bars,
      data: { url: `${EVIL_ORIGIN}/data.json` },
      transform: [{ calculate: "datum.status + '!'", as: 'shout' }],
      usermeta: {
        embedOptions: {
          ast: false,
          loader: { baseURL: `${EVIL_ORIGIN}/`, mode: 'http' },
          config: `${EVIL_ORIGIN}/config.json`,
          patch: `${EVIL_ORIGIN}/patch.json`,
          actions: true,
          renderer: 'canvas',
          tooltip: false,
          defaultStyle: true,
        },
      },
    });
    expect(chart.dataset.state).toBe('ready');
    // Still SVG (not the canvas it asked for), still our rows, still no actions menu; and the
    // expression ran without eval (a CSP violation would show otherwise).
    expect(chart.querySelector('svg.marks')).not.toBeNull();
    expect(chart.querySelector('canvas')).toBeNull();
    expect(new Set(drawnStatuses(chart))).toEqual(new Set(STATUSES));
    expect(document.getElementById('vega-embed-style')).toBeNull();
    await quiet();
    expectNothingLeft(chart);
  });
});
