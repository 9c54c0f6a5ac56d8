/**
 * The error of a chart past one of its limits, thrown by the chart runtime (sanitizer, guards);
 * `ResultChart` knows it by its `name`, so the class stays in the chunk loaded on demand.
 *
 * @module
 */
import type { ChartLimits } from './chart-limits';

/** A chart past one of its {@link ChartLimits}. */
export class ChartLimitError extends Error {
  /** Which limit. */
  readonly limit: keyof ChartLimits;

  constructor(limit: keyof ChartLimits, message: string) {
    super(message);
    this.name = 'ChartLimitError';
    this.limit = limit;
  }
}
