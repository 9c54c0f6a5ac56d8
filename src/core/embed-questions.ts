/**
 * "Ask about this": turning what a viewer did in an embed into a question for the native chat.
 * A drilldown in a dashboard (`service:event:drilldown`) and the dashboard's current filters
 * become a question to pre-fill in `AgentChat`; the viewer edits it and sends it. Plain strings,
 * no framework, so any host can use them; `format` replaces the English wording.
 *
 * @module
 */
import { filterEntries, type EmbedFilters } from './embed-url';
import type { EmbedEventOf } from './protocol/embed';

/** What {@link drilldownQuestion} puts into words; a `format` of your own receives it. */
export interface DrilldownQuestionParts {
  /** The measure drilled into, such as `orders.count`. */
  member: string;
  /** The value drilled into (the bar, slice or cell), as the embed sent it; `undefined` when it sent none. */
  value: unknown;
  /** The widget drilled from, when the embed said. */
  widgetId: string | undefined;
  /** The dashboard's filters in words, one per filter ({@link describeFilters}); `[]` without filters. */
  filters: string[];
}

/** Options of {@link drilldownQuestion}. */
export interface DrilldownQuestionOptions {
  /** The dashboard's current filters (what you pass as its `filters` prop), in either form. */
  filters?: EmbedFilters | undefined;
  /** Writes the question, in your words or language. Default English: see {@link drilldownQuestion}. */
  format?: (parts: DrilldownQuestionParts) => string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * The dashboard's filters in words, one string per filter in the order given, entries without a
 * value skipped: `orders.status is completed`, `orders.status is one of completed, shipped`,
 * `orders.amount gt 100`, `orders.created_at inDateRange 2025-01-01, 2025-03-31`.
 */
export function describeFilters(filters: EmbedFilters | undefined): string[] {
  const described: string[] = [];
  for (const [member, condition] of filterEntries(filters) ?? []) {
    if (typeof member !== 'string' || condition === undefined || condition === null) continue;
    const written =
      typeof condition === 'object' && !Array.isArray(condition)
        ? (condition as { value?: unknown; operator?: unknown })
        : { value: condition };
    const values = Array.isArray(written.value)
      ? written.value.map(text)
      : written.value === undefined
        ? []
        : [text(written.value)];
    const operator = typeof written.operator === 'string' && written.operator !== 'equals' ? written.operator : '';
    if (operator) described.push(`${member} ${operator}${values.length ? ` ${values.join(', ')}` : ''}`);
    else if (values.length > 1) described.push(`${member} is one of ${values.join(', ')}`);
    else if (values.length === 1) described.push(`${member} is ${values[0]}`);
  }
  return described;
}

/**
 * The question a drilldown asks, for the chat beside the dashboard to pre-fill: by default
 * `Tell me more about orders.count for completed, with these filters: orders.region is EU.`
 * (`for ...` only when the embed sent the value drilled into, the filters only when there are
 * some). Give `format` for other words or another language.
 */
export function drilldownQuestion(
  event: EmbedEventOf<'service:event:drilldown'>,
  options: DrilldownQuestionOptions = {},
): string {
  const { member, value, widgetId } = event.payload;
  const parts: DrilldownQuestionParts = { member, value, widgetId, filters: describeFilters(options.filters) };
  if (options.format) return options.format(parts);
  const about = value === undefined || value === null ? member : `${member} for ${text(value)}`;
  return `Tell me more about ${about}${parts.filters.length ? `, with these filters: ${parts.filters.join('; ')}` : ''}.`;
}
