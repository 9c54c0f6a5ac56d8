/**
 * What the data view stories share: the queries of a partner's home page (the emulator's orders,
 * whose data ends on 2025-12-31, which relative ranges such as "this month" resolve against), and
 * settings for the states a story cannot reach through the provider's live data API.
 */
import { waitFor } from 'storybook/test';
import type { DataSettings } from '../src/core/data-query';

/** Revenue this month. */
export const REVENUE_THIS_MONTH = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;

/** Orders this month. */
export const ORDERS_THIS_MONTH = {
  measures: ['orders.count'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;

/** The average order value of December 2025 (compared with December 2024). */
export const AOV_DECEMBER = {
  measures: ['orders.average_order_value'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2025-12-01', '2025-12-31'] }],
} as const;

/** Revenue per month of the year. */
export const REVENUE_BY_MONTH = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'this year' }],
} as const;

/** Revenue per region and month of the year: a line per region. */
export const REVENUE_BY_REGION_AND_MONTH = {
  measures: ['orders.total_revenue'],
  dimensions: ['orders.region'],
  timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'this year' }],
} as const;

/** Orders per status. */
export const ORDERS_BY_STATUS = { measures: ['orders.count'], dimensions: ['orders.status'] } as const;

/** The best customers of the year, by revenue. */
export const TOP_CUSTOMERS = {
  measures: ['orders.total_revenue', 'orders.count'],
  dimensions: ['orders.customer_name', 'orders.customer_segment'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this year' }],
  order: { 'orders.total_revenue': 'desc' },
  limit: 50,
} as const;

/** Revenue per region, in SQL. */
export const REVENUE_BY_REGION_SQL =
  'SELECT region, MEASURE(orders.total_revenue) AS revenue, MEASURE(orders.count) AS orders FROM orders GROUP BY 1';

/** Settings of a data API that never answers: the loading state, as a slow network shows it. */
export const NEVER_ANSWERS: DataSettings = {
  url: '/api/data',
  token: 'a-token',
  fetch: () => new Promise<Response>(() => {}),
};

/** The root of a data view once its query has settled (`ready` or `error`). */
export async function settled(canvasElement: HTMLElement, part: string): Promise<HTMLElement> {
  return waitFor(
    () => {
      const element = canvasElement.querySelector<HTMLElement>(`[data-part="${part}"]`);
      if (!element || element.dataset.state === 'loading') throw new Error(`${part} is still loading`);
      return element;
    },
    { timeout: 20_000 },
  );
}
