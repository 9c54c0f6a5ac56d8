// The queries of the home page, shared by the server (which prefetches them) and the browser
// (whose views run them): the same query gives the same key, so the views find the server's data.
import { comparisonQuery, type DataQuery } from '@service/react/core';

export const REVENUE = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;

export const ORDERS = {
  measures: ['orders.count'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;

export const CUSTOMERS = {
  measures: ['orders.customers_count'],
  timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'this month' }],
} as const;

export const REVENUE_BY_MONTH = {
  measures: ['orders.total_revenue'],
  timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: 'this year' }],
} as const;

/** Every query the page runs, the cards' comparisons with the previous period included. */
export function homeQueries(): DataQuery[] {
  const cards = [REVENUE, ORDERS, CUSTOMERS];
  const previous = cards.flatMap((query) => {
    const compared = comparisonQuery(query, 'previousPeriod');
    return compared.ok ? [compared.query] : [];
  });
  return [...cards, ...previous, REVENUE_BY_MONTH];
}
