/**
 * MetricCard, QueryChart and QueryTable against the emulator over real HTTP (React 19 and 18):
 * values formatted from the annotation as the data API answered them, comparison with a previous
 * period, loading and error states with retry, sorting and "load more", and the component
 * contract (ref to the root, rest props and className, data-part, data-state, replaceable labels).
 */
import { QueryClient } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createRef, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MetricCard, QueryChart, QueryTable } from '../../../src/components/data';
import type { DataSettings } from '../../../src/core/data-query';
import { describeColumn, formatValue } from '../../../src/core/format-value';
import { ServiceProvider } from '../../../src/react';
import { encodeInThisRealm, rawData, recordingFetch, startTestEmulator } from './helpers';

encodeInThisRealm();
afterEach(cleanup);

const env = startTestEmulator();

const settings = (extra: Partial<DataSettings> = {}): DataSettings => ({
  url: env.emulator.dataUrl,
  token: env.token,
  ...extra,
});

function renderIn(element: ReactNode, data: DataSettings = settings()) {
  return render(
    <ServiceProvider data={data} queryClient={new QueryClient()}>
      {element}
    </ServiceProvider>,
  );
}

function part(container: HTMLElement, name: string): HTMLElement {
  const element = container.querySelector<HTMLElement>(`[data-part="${name}"]`);
  if (!element) throw new Error(`no data-part="${name}"`);
  return element;
}

/** The rows of a table's body (role queries take seconds over hundreds of rows in jsdom). */
function bodyRows(container: HTMLElement): HTMLTableRowElement[] {
  return [...container.querySelectorAll<HTMLTableRowElement>('tbody tr')];
}

async function ready(container: HTMLElement, name: string): Promise<HTMLElement> {
  await waitFor(() => expect(part(container, name).dataset.state).not.toBe('loading'), { timeout: 10_000 });
  return part(container, name);
}

const REVENUE_2025 = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2025-07-01', '2025-12-31'] }],
} as const;

describe('MetricCard', () => {
  it("shows the measure's short title and its value formatted by the annotation, as the data API answered it", async () => {
    const { container } = renderIn(<MetricCard query={REVENUE_2025} locale="en-US" />);
    const card = await ready(container, 'metric-card');
    expect(card.dataset.state).toBe('ready');
    const answer = (await rawData(env, '/v1/load', { query: REVENUE_2025 })) as {
      data: Record<string, string>[];
    };
    const value = answer.data[0]!['orders.total_revenue']!;
    const column = describeColumn({ name: 'v', type: 'number', format: 'currency' }, [value]);
    expect(part(card, 'metric-value').textContent).toBe(formatValue(value, column, 'en-US'));
    expect(part(card, 'metric-value').textContent).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(screen.getByRole('group', { name: 'Revenue' })).toBe(card);
  });

  it('compares with the previous period: direction, change and an accessible sentence', async () => {
    const { container } = renderIn(
      <MetricCard query={REVENUE_2025} compare="previousPeriod" locale="en-US" title="Revenue, second half" />,
    );
    const card = await ready(container, 'metric-card');
    const previousQuery = {
      ...REVENUE_2025,
      // 184 days, just before the 184 days of the query.
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2024-12-29', '2025-06-30'] }],
    };
    const [now, before] = await Promise.all(
      [REVENUE_2025, previousQuery].map(async (query) => {
        const answer = (await rawData(env, '/v1/load', { query })) as { data: Record<string, string>[] };
        return Number(answer.data[0]!['orders.total_revenue']);
      }),
    );
    const comparison = part(card, 'metric-comparison');
    const direction = now! > before! ? 'up' : 'down';
    expect(comparison.dataset.direction).toBe(direction);
    expect(comparison.dataset.sentiment).toBe(direction === 'up' ? 'positive' : 'negative');
    const change = `${(Math.abs((now! - before!) / before!) * 100).toFixed(1)}%`;
    expect(comparison.textContent).toContain(`${change} vs. previous period`);
    const spoken = comparison.querySelector('.service-visually-hidden')!.textContent;
    expect(spoken).toBe(
      `${direction === 'up' ? 'Up' : 'Down'} ${change} from ${new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(before!)} in the previous period`,
    );
    expect(screen.getByRole('group', { name: 'Revenue, second half' })).toBe(card);
  });

  it('a falling metric that should fall is good news: positiveDirection="down"', async () => {
    // Cancelled orders: fewer in the second half than in the whole year before it.
    const query = {
      measures: ['orders.count'],
      filters: [{ member: 'orders.status', operator: 'equals', values: ['cancelled'] }],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2025-07-01', '2025-12-31'] }],
    } as const;
    const { container } = renderIn(
      <MetricCard query={query} compare={['2024-01-01', '2025-06-30']} positiveDirection="down" />,
    );
    const card = await ready(container, 'metric-card');
    expect(part(card, 'metric-comparison').dataset).toMatchObject({ direction: 'down', sentiment: 'positive' });
    expect(part(card, 'metric-comparison').textContent).toMatch(/vs\. comparison period.*in the comparison period$/);
  });

  it('loads with a skeleton (aria-busy), then fails with the error and a retry button', async () => {
    const held = recordingFetch({ hold: true });
    const { container, unmount } = renderIn(<MetricCard query={REVENUE_2025} />, settings({ fetch: held.fetch }));
    const card = part(container, 'metric-card');
    expect(card.dataset.state).toBe('loading');
    expect(card.getAttribute('aria-busy')).toBe('true');
    expect(part(card, 'metric-skeleton')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Loading…' })).toBe(card);
    unmount();

    const { sent: calls, fetch } = recordingFetch();
    const failed = renderIn(<MetricCard query={{ measures: ['orders.nope'] }} />, settings({ fetch }));
    const errorCard = await ready(failed.container, 'metric-card');
    expect(errorCard.dataset.state).toBe('error');
    expect(within(errorCard).getByRole('alert').textContent).toMatch(/could not be loaded.*orders\.nope/s);
    expect(calls).toHaveLength(1);
    fireEvent.click(within(errorCard).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it('a comparison the query cannot make is an error that says why, with nothing sent', async () => {
    const { sent: calls, fetch } = recordingFetch();
    const { container } = renderIn(
      <MetricCard query={{ measures: ['orders.count'] }} compare="previousPeriod" />,
      settings({ fetch }),
    );
    const card = part(container, 'metric-card');
    await waitFor(() => expect(card.dataset.state).toBe('error'));
    expect(within(card).getByRole('alert').textContent).toMatch(/no time dimension with a dateRange/);
    expect(calls).toEqual([]);
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('follows the component contract: ref to the root, rest props, className, labels and locale', async () => {
    const ref = createRef<HTMLDivElement>();
    const { container } = renderIn(
      <MetricCard
        ref={ref}
        query={REVENUE_2025}
        compare="previousPeriod"
        className="kpi"
        id="revenue"
        data-testid="revenue-card"
        locale="de-DE"
        valueFormat={{ currency: 'EUR' }}
        labels={{ comparisonPeriod: () => 'ggü. Vorperiode', comparison: ({ change }) => `Veränderung ${change}` }}
      />,
    );
    const card = await ready(container, 'metric-card');
    expect(ref.current).toBe(card);
    expect(card.className).toBe('service-metric-card kpi');
    expect(card.id).toBe('revenue');
    expect(card.dataset.testid).toBe('revenue-card');
    expect(part(card, 'metric-value').textContent).toMatch(/^[\d.]+,\d\d\s€$/);
    expect(part(card, 'metric-comparison').textContent).toMatch(/ggü\. Vorperiode/);
    expect(part(card, 'metric-comparison').textContent).toMatch(/Veränderung \d+,\d\s%/);
  });
});

describe('QueryTable', () => {
  const BY_CUSTOMER = {
    measures: ['orders.total_revenue'],
    dimensions: ['orders.customer_name'],
    order: { 'orders.total_revenue': 'desc' },
    limit: 250,
  } as const;

  it('reads a JSON query a page at a time: "Load more" asks the data API for the next page', async () => {
    const { sent: calls, fetch } = recordingFetch();
    const { container } = renderIn(
      <QueryTable query={BY_CUSTOMER} pageSize={100} title="Revenue by customer" locale="en-US" />,
      settings({ fetch }),
    );
    const table = await ready(container, 'query-table');
    const answer = (await rawData(env, '/v1/load', { query: BY_CUSTOMER })) as {
      data: Record<string, string>[];
    };
    const names = () => bodyRows(table).map((row) => row.cells[0]!.textContent);
    expect(names()).toEqual(answer.data.slice(0, 100).map((row) => row['orders.customer_name']));
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Customer', 'Revenue']);
    expect(part(table, 'row-count').textContent).toBe('100 rows loaded');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(names()).toHaveLength(200));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(names()).toHaveLength(250));
    expect(names()).toEqual(answer.data.map((row) => row['orders.customer_name']));
    // The query's own limit is reached: no more pages, and the count is the whole.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(part(table, 'row-count').textContent).toBe('250 rows');
    expect(calls).toHaveLength(3);
    expect(screen.getByRole('region', { name: 'Result of Revenue by customer' })).toBeTruthy();
  });

  it('sorts a JSON query on the data API by the header clicked (numbers descending first, then reversed)', async () => {
    const onSortChange = vi.fn();
    const query = { measures: ['orders.count'], dimensions: ['orders.region'] } as const;
    const { container } = renderIn(<QueryTable query={query} onSortChange={onSortChange} />);
    const table = await ready(container, 'query-table');
    const regions = () => bodyRows(table).map((row) => row.cells[0]!.textContent);
    const header = (name: string) => within(table).getByRole('columnheader', { name });
    const sorted = async (order: Record<string, string>) =>
      (
        (await rawData(env, '/v1/load', { query: { ...query, order } })) as {
          data: Record<string, string>[];
        }
      ).data.map((row) => row['orders.region']);
    expect(header('Count').getAttribute('aria-sort')).toBe('none');

    fireEvent.click(within(header('Count')).getByRole('button'));
    expect(onSortChange).toHaveBeenLastCalledWith({ column: 'orders.count', direction: 'desc' });
    const descending = await sorted({ 'orders.count': 'desc' });
    await waitFor(() => expect(regions()).toEqual(descending));
    expect(header('Count').getAttribute('aria-sort')).toBe('descending');

    fireEvent.click(within(header('Count')).getByRole('button'));
    const ascending = await sorted({ 'orders.count': 'asc' });
    await waitFor(() => expect(regions()).toEqual(ascending));
    expect(header('Count').getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(header('Region')).getByRole('button'));
    expect(onSortChange).toHaveBeenLastCalledWith({ column: 'orders.region', direction: 'asc' });
    await waitFor(() => expect(regions()).toEqual([...ascending].sort()));
  });

  it('SQL arrives whole: shown a page at a time, sorted here; a controlled sort follows its prop', async () => {
    const sql = 'SELECT customer_name, MEASURE(orders.total_revenue) AS revenue FROM orders GROUP BY 1';
    const { sent: calls, fetch } = recordingFetch();
    const { container, rerender } = render(
      <ServiceProvider data={settings({ fetch })} queryClient={new QueryClient()}>
        <QueryTable query={sql} pageSize={50} sort={{ column: 'revenue', direction: 'desc' }} locale="en-US" />
      </ServiceProvider>,
    );
    const table = await ready(container, 'query-table');
    const answer = (await rawData(env, '/v1/cubesql', { query: sql })) as { rows: string[][] };
    const byRevenue = [...answer.rows].sort((a, b) => Number(b[1]) - Number(a[1])).map((row) => row[0]);
    const names = () => bodyRows(table).map((row) => row.cells[0]!.textContent);
    expect(names()).toEqual(byRevenue.slice(0, 50));
    expect(part(table, 'row-count').textContent).toBe(
      `Showing 50 of ${new Intl.NumberFormat('en-US').format(answer.rows.length)} rows`,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(names()).toEqual(byRevenue.slice(0, 100));
    // Controlled: a click asks, the prop decides.
    fireEvent.click(within(within(table).getByRole('columnheader', { name: 'Customer name' })).getByRole('button'));
    expect(names()).toEqual(byRevenue.slice(0, 100));
    rerender(
      <ServiceProvider data={settings({ fetch })} queryClient={new QueryClient()}>
        <QueryTable query={sql} pageSize={50} sort={{ column: 'revenue', direction: 'asc' }} locale="en-US" />
      </ServiceProvider>,
    );
    await waitFor(() => expect(names()[0]).toBe([...byRevenue].reverse()[0]));
    expect(calls.length).toBeLessThanOrEqual(2);
  });

  it('loading shows a skeleton; a failed query shows the error and retries; contract of the root', async () => {
    const held = recordingFetch({ hold: true });
    const first = renderIn(<QueryTable query={{ measures: ['orders.count'] }} />, settings({ fetch: held.fetch }));
    expect(part(first.container, 'query-table').dataset.state).toBe('loading');
    expect(part(first.container, 'result-skeleton')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    first.unmount();

    const ref = createRef<HTMLDivElement>();
    const { sent: calls, fetch } = recordingFetch();
    const { container } = renderIn(
      <QueryTable
        ref={ref}
        query="SELECT nope FROM orders"
        className="mine"
        aria-label="Orders"
        labels={{ retry: 'Nochmal' }}
      />,
      settings({ fetch }),
    );
    const table = await ready(container, 'query-table');
    expect(ref.current).toBe(table);
    expect(table.className).toBe('service-query-table mine');
    expect(table.getAttribute('aria-label')).toBe('Orders');
    expect(table.dataset.state).toBe('error');
    await act(async () => {
      fireEvent.click(within(table).getByRole('button', { name: 'Nochmal' }));
    });
    await waitFor(() => expect(calls.length).toBe(2));
  });
});

describe('QueryChart', () => {
  it('draws the default chart of the result with ResultChart: columns renamed for Vega, titled', async () => {
    const ref = createRef<HTMLDivElement>();
    const query = {
      measures: ['orders.total_revenue'],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'month', dateRange: ['2025-01-01', '2025-12-31'] },
      ],
    } as const;
    const { container } = renderIn(<QueryChart ref={ref} query={query} title="Revenue by month" className="trend" />);
    const root = await ready(container, 'query-chart');
    expect(ref.current).toBe(root);
    expect(root.className).toBe('service-query-chart trend');
    expect(root.dataset.state).toBe('ready');
    // jsdom draws nothing: the chart part is there, with its own state and accessible name.
    const chart = part(root, 'chart');
    expect(chart.querySelector('[role="figure"]')?.getAttribute('aria-label')).toBe('Chart: Revenue by month');
  });

  it('a result with no number to draw, and a failed query, are error states', async () => {
    const { container } = renderIn(<QueryChart query="SELECT region FROM orders GROUP BY 1" />);
    const root = await ready(container, 'query-chart');
    expect(root.dataset.state).toBe('error');
    expect(within(root).getByRole('alert').textContent).toMatch(/no numbers to chart/);
    cleanup();
    const failed = renderIn(<QueryChart query={{ measures: ['orders.nope'] }} />);
    const failedRoot = await ready(failed.container, 'query-chart');
    expect(failedRoot.dataset.state).toBe('error');
    expect(within(failedRoot).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('shows a skeleton of the spec height while the query runs', () => {
    const held = recordingFetch({ hold: true });
    const { container } = renderIn(
      <QueryChart query={{ measures: ['orders.count'] }} spec={{ mark: 'bar', height: 200 }} title="Orders" />,
      settings({ fetch: held.fetch }),
    );
    const root = part(container, 'query-chart');
    expect(root.dataset.state).toBe('loading');
    const skeleton = screen.getByRole('img', { name: 'Loading… Orders' });
    expect(skeleton.style.height).toBe('260px');
  });
});
