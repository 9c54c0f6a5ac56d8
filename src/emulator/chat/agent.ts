/**
 * The scripted analyst agent of the emulator (agent `1`): it recognises a few intents in the
 * user's input by keywords and answers each with the full sequence of the live service
 * (protocol 2.8, 4.4; behaviour 1): reasoning in small `thinking` deltas, a
 * `serviceMeta` search with results from the real metadata of `data/model.ts`, a `serviceSqlApi`
 * call whose SQL really runs on DuckDB with the caller's row-level security (values as strings, at
 * most 100 rows, the true `totalRows`, a Vega-Lite v5 spec without data in the official default
 * style), and a final answer with `graphPath: ["final"]` streamed a few words at a time, whose
 * numbers come from the query's rows.
 *
 * Intents (first match wins; keywords are case-insensitive whole words):
 *
 * | intent | keywords | SQL |
 * |---|---|---|
 * | margin (SQL fails) | `profit`, `margin`, `cogs`, `cost of goods` | `MEASURE(orders.gross_margin)`, a measure the model lacks: the tool result is `{"error": ...}` and the answer explains it |
 * | top customers | `top`/`best`/`biggest`/`largest`/`highest`/`most valuable` + `customer(s)`/`client(s)`/`buyer(s)`; `top 25` sets how many (default 10) | revenue and orders per customer, `LIMIT n` |
 * | orders by status | `status`, or `order(s)` + `cancelled`/`returned`/`shipped`/`processing`/`completed` | orders and revenue per status |
 * | revenue by region | `region(s)` | revenue and orders per region |
 * | revenue by month | `revenue`, `sales`, `income`, `turnover`, `trend(s)`, `monthly`, `month`, `over time`; `2024` or `2025` limits to that year, `last N months` counts back from the end of the data (December 2025) | revenue and orders per month |
 * | cannot answer | anything else | none: a metadata search, then a polite answer that says what it can do |
 *
 * Dates: the data set covers 2024-01-01 to 2025-12-31 (UTC). The SQL always names explicit dates
 * inside that range, never "now", so answers do not drift with the clock.
 *
 * @module
 */
import { AGENT_NODE, type StreamMessage } from '../../core/protocol/chat';
import type { ChatPace } from '../context';
import {
  SERVICE_META_TOOL,
  defaultChartConfig,
  SERVICE_SQL_API_TOOL,
  SQL_RESULT_ROW_LIMIT,
  type MetaSearchCube,
  type MetaSearchMember,
  type ServiceMetaResult,
  type ServiceSqlApiInput,
  type ServiceSqlApiResult,
} from '../../core/protocol/tools';
import { runCubeSql, type CubeSqlResult } from '../data/cubesql';
import { FIRST_ORDER_DAY, LAST_ORDER_DAY } from '../data/dataset';
import type { DataEngine, QueryScope } from '../data/engine';
import { VIEWS } from '../data/model';
import { RunStopped, type Run } from './runs';

// ---------------------------------------------------------------------------------------------
// Intents

/** A month range `[from, to)` as `YYYY-MM-DD`, with words for the answer. */
export interface DateRange {
  from: string;
  to: string;
  label: string;
}

/** What the agent understood the user to ask. */
export type Intent =
  | { kind: 'revenueByMonth'; range: DateRange }
  | { kind: 'topCustomers'; limit: number }
  | { kind: 'ordersByStatus' }
  | { kind: 'revenueByRegion' }
  | { kind: 'margin' }
  | { kind: 'unknown' };

const has = (text: string, pattern: RegExp) => pattern.test(text);

/** The first day of the month `months` after `day`'s month (`YYYY-MM-01`). */
function addMonths(day: string, months: number): string {
  const date = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

const monthName = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The label of a month given as `YYYY-MM-DD...`. */
function monthLabel(day: string): string {
  return monthName.format(new Date(`${day.slice(0, 10)}T00:00:00Z`));
}

/** The first day after the data (exclusive end of every range). */
const DATA_END = addMonths(LAST_ORDER_DAY, 1);

/** The date range the input asks for, inside the data's range. */
function dateRangeOf(input: string): DateRange {
  const lastMonths = /\b(?:last|past|previous)\s+(\d{1,3})\s+months?\b/i.exec(input);
  if (lastMonths) {
    const months = Math.max(1, Math.min(24, Number(lastMonths[1])));
    const from = addMonths(DATA_END, -months);
    return {
      from,
      to: DATA_END,
      label: `the last ${months} month${months === 1 ? '' : 's'} of data (${monthLabel(from)} to ${monthLabel(LAST_ORDER_DAY)})`,
    };
  }
  const years = [...new Set(input.match(/\b202[45]\b/g) ?? [])];
  if (years.length === 1) {
    const year = years[0]!;
    return { from: `${year}-01-01`, to: `${Number(year) + 1}-01-01`, label: year };
  }
  if (/\blast year\b/i.test(input)) return { from: '2025-01-01', to: DATA_END, label: '2025' };
  return {
    from: FIRST_ORDER_DAY,
    to: DATA_END,
    label: `${monthLabel(FIRST_ORDER_DAY)} to ${monthLabel(LAST_ORDER_DAY)}`,
  };
}

/** Recognises the intent of an input by keywords (see the module's table). */
export function detectIntent(input: string): Intent {
  const text = input.toLowerCase();
  if (has(text, /\b(?:profits?|profitability|margins?|cogs|cost of goods)\b/)) return { kind: 'margin' };
  if (
    has(text, /\b(?:customers?|clients?|buyers?)\b/) &&
    has(text, /\b(?:top|best|biggest|largest|highest|most valuable)\b/)
  ) {
    const count = /\btop\s+(\d{1,5})\b/.exec(text) ?? /\b(\d{1,5})\s+(?:best|biggest|largest|top)\b/.exec(text);
    const limit = count ? Math.max(1, Math.min(5000, Number(count[1]))) : 10;
    return { kind: 'topCustomers', limit };
  }
  if (
    has(text, /\bstatus(?:es)?\b/) ||
    (has(text, /\borders?\b/) && has(text, /\b(?:cancel(?:l?ed)?|returned|returns|shipped|processing|completed)\b/))
  ) {
    return { kind: 'ordersByStatus' };
  }
  if (has(text, /\bregions?\b/)) return { kind: 'revenueByRegion' };
  if (has(text, /\b(?:revenue|sales|income|turnover|trends?|monthly|months?|over time)\b/)) {
    return { kind: 'revenueByMonth', range: dateRangeOf(input) };
  }
  return { kind: 'unknown' };
}

// ---------------------------------------------------------------------------------------------
// Metadata search (serviceMeta)

/**
 * A `serviceMeta` result over the real metadata (the views of `data/model.ts`, as `/v1/meta`
 * describes them): exactly `members` (`view.member`), grouped by view, in the model's order.
 */
export function metaSearch(searchQuery: string, members: readonly string[]): ServiceMetaResult {
  const cubes: MetaSearchCube[] = [];
  for (const view of VIEWS) {
    const found: MetaSearchMember[] = [];
    for (const measure of view.measures) {
      const name = `${view.name}.${measure.name}`;
      // Measures are numbers in `/v1/meta` too (`metaResponse()`).
      if (members.includes(name))
        found.push({
          name,
          title: measure.title,
          description: measure.description,
          type: 'number',
          aggType: measure.aggType,
        });
    }
    for (const dimension of view.dimensions) {
      const name = `${view.name}.${dimension.name}`;
      if (members.includes(name))
        found.push({ name, title: dimension.title, description: dimension.description, type: dimension.type });
    }
    if (found.length > 0) cubes.push({ name: view.name, type: 'view', title: view.title, members: found });
  }
  return { cubes, searchQuery };
}

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'what',
  'whats',
  'show',
  'tell',
  'how',
  'are',
  'was',
  'were',
  'with',
  'our',
  'you',
  'can',
  'about',
  'this',
  'that',
  'today',
  'please',
  'give',
]);

/** Members whose name or title contains a word of the query: the search of the fallback intent. */
export function membersMatching(searchQuery: string): string[] {
  const words = (searchQuery.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((word) => !STOP_WORDS.has(word));
  const names: string[] = [];
  for (const view of VIEWS) {
    for (const member of [...view.measures, ...view.dimensions]) {
      const name = `${view.name}.${member.name}`;
      const haystack = `${name} ${member.title}`.toLowerCase();
      if (words.some((word) => haystack.includes(word))) names.push(name);
    }
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// Charts (Vega-Lite v5, no data)

/** Vega-Lite `config` of the official default chart style (behaviour 1). */
export function chartConfig(): Record<string, unknown> {
  return defaultChartConfig();
}

/** A Vega-Lite v5 spec as JSON text, without `data` (the rows are `result.data`, 2.8). */
function vegaSpec(title: string, body: Record<string, unknown>): string {
  return JSON.stringify({
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    width: 'container',
    height: 300,
    ...body,
    config: chartConfig(),
  });
}

// ---------------------------------------------------------------------------------------------
// Plans: what the agent says and runs for each intent

/** A SQL step: the tool input, and how to word the answer from its result. */
interface SqlPlan {
  searchQuery: string;
  members: readonly string[];
  firstThought: string;
  secondThought: string;
  input: Omit<ServiceSqlApiInput, 'memoryId' | 'userRequest'>;
  answer(result: CubeSqlResult): string;
  failure?: (error: string) => string;
}

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const count = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

const num = (value: string | null | undefined) => (value === null || value === undefined ? 0 : Number(value));

const EMPTY_ANSWER =
  'The query ran but returned **no rows**: the data you have access to holds no orders for this question. ' +
  'If you expected data, ask your administrator which regions or stores your account may see.';

/** The line of an answer that says the table is capped (4.4 "Loading all results"). */
function capNote(result: CubeSqlResult): string {
  return result.totalRows > result.rows.length
    ? `\n\nThe table shows the first ${count.format(result.rows.length)} of ${count.format(result.totalRows)} rows; run the query on the data API to load them all.`
    : '';
}

function revenueByMonthPlan(range: DateRange): SqlPlan {
  const sqlQuery = [
    "SELECT DATE_TRUNC('month', created_at) AS month,",
    '  ROUND(MEASURE(orders.total_revenue), 2) AS revenue,',
    '  MEASURE(orders.count) AS orders',
    'FROM orders',
    `WHERE created_at >= TIMESTAMP '${range.from}' AND created_at < TIMESTAMP '${range.to}'`,
    'GROUP BY 1',
    'ORDER BY 1',
  ].join('\n');
  return {
    searchQuery: 'revenue by month',
    members: ['orders.total_revenue', 'orders.count', 'orders.created_at'],
    firstThought:
      'The user wants revenue over time, month by month. I should look up the revenue measure and the order date in the data model first.',
    secondThought:
      `orders.total_revenue sums the order amounts and orders.created_at is when each order was placed. The data covers ${monthLabel(FIRST_ORDER_DAY)} to ${monthLabel(LAST_ORDER_DAY)}, ` +
      `so I will group by month over ${range.label} and draw a line chart.`,
    input: {
      sqlQuery,
      queryTitle: 'Revenue by month',
      description: `Total revenue and number of orders per month, ${range.label}.`,
      vegaSpec: vegaSpec('Revenue by month', {
        mark: { type: 'line', point: true },
        encoding: {
          // One tick a month, labelled once: without the time unit and the interval Vega picks
          // ticks by the width (weekly on a wide chart), and `%b %Y` repeats a month's name.
          x: {
            field: 'month',
            type: 'temporal',
            timeUnit: 'yearmonth',
            title: 'Month',
            axis: { format: '%b %Y', tickCount: { interval: 'month', step: 1 }, labelOverlap: true },
          },
          y: { field: 'revenue', type: 'quantitative', title: 'Revenue (USD)', axis: { format: '$,.0f' } },
          tooltip: [
            { field: 'month', type: 'temporal', title: 'Month', format: '%B %Y' },
            { field: 'revenue', type: 'quantitative', title: 'Revenue', format: '$,.2f' },
            { field: 'orders', type: 'quantitative', title: 'Orders', format: ',' },
          ],
        },
      }),
    },
    answer(result) {
      if (result.rows.length === 0) return EMPTY_ANSWER;
      const months = result.rows.map((row) => ({ month: String(row[0]), revenue: num(row[1]), orders: num(row[2]) }));
      const total = months.reduce((sum, month) => sum + month.revenue, 0);
      const orders = months.reduce((sum, month) => sum + month.orders, 0);
      const best = months.reduce((a, b) => (b.revenue > a.revenue ? b : a));
      const worst = months.reduce((a, b) => (b.revenue < a.revenue ? b : a));
      const byYear = new Map<string, number>();
      for (const month of months)
        byYear.set(month.month.slice(0, 4), (byYear.get(month.month.slice(0, 4)) ?? 0) + month.revenue);
      const first = byYear.get('2024');
      const second = byYear.get('2025');
      const growth =
        first !== undefined && second !== undefined && first > 0 && months.length === 24
          ? ` Revenue in 2025 was ${money.format(second)}, ${second >= first ? 'up' : 'down'} ${percent.format(Math.abs(second / first - 1))} on 2024 (${money.format(first)}).`
          : '';
      return (
        `Here is monthly revenue for ${range.label}: **${money.format(total)}** from ${count.format(orders)} orders over ${months.length} month${months.length === 1 ? '' : 's'}.${growth}\n\n` +
        `- Best month: **${monthLabel(best.month)}** with ${money.format(best.revenue)}\n` +
        `- Weakest month: **${monthLabel(worst.month)}** with ${money.format(worst.revenue)}\n` +
        `- Average per month: ${money.format(total / months.length)}\n\n` +
        'The chart shows the trend and the table has every month.' +
        capNote(result)
      );
    },
  };
}

function topCustomersPlan(limit: number): SqlPlan {
  const sqlQuery = [
    'SELECT customer_id, customer_name,',
    '  ROUND(MEASURE(orders.total_revenue), 2) AS revenue,',
    '  MEASURE(orders.count) AS orders',
    'FROM orders',
    `WHERE created_at >= TIMESTAMP '${FIRST_ORDER_DAY}' AND created_at < TIMESTAMP '${DATA_END}'`,
    'GROUP BY 1, 2',
    'ORDER BY 3 DESC',
    `LIMIT ${limit}`,
  ].join('\n');
  return {
    searchQuery: 'top customers by revenue',
    members: ['orders.total_revenue', 'orders.count', 'orders.customer_id', 'orders.customer_name'],
    firstThought: `The user asks for the ${limit} best customers. "Best" most likely means highest revenue, so I need revenue per customer.`,
    secondThought: `orders.customer_name and orders.customer_id identify the customer; orders.total_revenue is the revenue. I will rank customers by revenue over all the data (${monthLabel(FIRST_ORDER_DAY)} to ${monthLabel(LAST_ORDER_DAY)}) and keep the top ${limit}.`,
    input: {
      sqlQuery,
      queryTitle: `Top ${limit} customers by revenue`,
      description: `The ${limit} customers with the highest total revenue, with their number of orders.`,
      vegaSpec: vegaSpec(`Top ${limit} customers by revenue`, {
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'customer_name', type: 'nominal', title: 'Customer', sort: '-x' },
          x: { field: 'revenue', type: 'quantitative', title: 'Revenue (USD)', axis: { format: '$,.0f' } },
          tooltip: [
            { field: 'customer_name', type: 'nominal', title: 'Customer' },
            { field: 'revenue', type: 'quantitative', title: 'Revenue', format: '$,.2f' },
            { field: 'orders', type: 'quantitative', title: 'Orders', format: ',' },
          ],
        },
      }),
    },
    answer(result) {
      if (result.rows.length === 0) return EMPTY_ANSWER;
      const shown = result.rows.slice(0, 5);
      const list = shown
        .map(
          (row, index) =>
            `${index + 1}. **${String(row[1])}**: ${money.format(num(row[2]))} from ${count.format(num(row[3]))} orders`,
        )
        .join('\n');
      const total = result.rows.reduce((sum, row) => sum + num(row[2]), 0);
      return (
        `These are your top ${count.format(result.totalRows)} customers by revenue (${monthLabel(FIRST_ORDER_DAY)} to ${monthLabel(LAST_ORDER_DAY)}).` +
        `${shown.length < result.totalRows ? ` The first ${shown.length}:` : ''}\n\n${list}\n\n` +
        `Together the ${count.format(result.rows.length)} customers in the table brought in ${money.format(total)}.` +
        capNote(result)
      );
    },
  };
}

function ordersByStatusPlan(): SqlPlan {
  const sqlQuery = [
    'SELECT status,',
    '  MEASURE(orders.count) AS orders,',
    '  ROUND(MEASURE(orders.total_revenue), 2) AS revenue',
    'FROM orders',
    `WHERE created_at >= TIMESTAMP '${FIRST_ORDER_DAY}' AND created_at < TIMESTAMP '${DATA_END}'`,
    'GROUP BY 1',
    'ORDER BY 2 DESC',
  ].join('\n');
  return {
    searchQuery: 'orders by status',
    members: ['orders.count', 'orders.total_revenue', 'orders.status'],
    firstThought: 'The user wants to know how orders split by status. I need the order count and the status dimension.',
    secondThought:
      'orders.status holds completed, processing, shipped, cancelled or returned. I will count orders per status and show it as a bar chart.',
    input: {
      sqlQuery,
      queryTitle: 'Orders by status',
      description: 'Number of orders and revenue per order status.',
      vegaSpec: vegaSpec('Orders by status', {
        mark: { type: 'bar' },
        encoding: {
          x: { field: 'status', type: 'nominal', title: 'Status', sort: '-y' },
          y: { field: 'orders', type: 'quantitative', title: 'Orders', axis: { format: ',' } },
          color: { field: 'status', type: 'nominal', legend: null },
          tooltip: [
            { field: 'status', type: 'nominal', title: 'Status' },
            { field: 'orders', type: 'quantitative', title: 'Orders', format: ',' },
            { field: 'revenue', type: 'quantitative', title: 'Revenue', format: '$,.2f' },
          ],
        },
      }),
    },
    answer(result) {
      if (result.rows.length === 0) return EMPTY_ANSWER;
      const total = result.rows.reduce((sum, row) => sum + num(row[1]), 0);
      const list = result.rows
        .map(
          (row) =>
            `- **${String(row[0])}**: ${count.format(num(row[1]))} orders (${percent.format(total > 0 ? num(row[1]) / total : 0)})`,
        )
        .join('\n');
      return (
        `Of ${count.format(total)} orders from ${monthLabel(FIRST_ORDER_DAY)} to ${monthLabel(LAST_ORDER_DAY)}:\n\n${list}\n\nThe chart compares the statuses.` +
        capNote(result)
      );
    },
  };
}

function revenueByRegionPlan(): SqlPlan {
  const sqlQuery = [
    'SELECT region,',
    '  ROUND(MEASURE(orders.total_revenue), 2) AS revenue,',
    '  MEASURE(orders.count) AS orders',
    'FROM orders',
    `WHERE created_at >= TIMESTAMP '${FIRST_ORDER_DAY}' AND created_at < TIMESTAMP '${DATA_END}'`,
    'GROUP BY 1',
    'ORDER BY 2 DESC',
  ].join('\n');
  return {
    searchQuery: 'revenue by region',
    members: ['orders.total_revenue', 'orders.count', 'orders.region'],
    firstThought:
      'The user wants revenue broken down by region. I should find the revenue measure and a region dimension.',
    secondThought:
      'orders.region is the sales region of each order (NA, EMEA, APAC or LATAM). I will sum revenue per region and show the shares in a donut chart.',
    input: {
      sqlQuery,
      queryTitle: 'Revenue by region',
      description: 'Total revenue and number of orders per sales region.',
      vegaSpec: vegaSpec('Revenue by region', {
        mark: { type: 'arc', innerRadius: 60 },
        encoding: {
          theta: { field: 'revenue', type: 'quantitative', title: 'Revenue (USD)' },
          color: { field: 'region', type: 'nominal', title: 'Region' },
          tooltip: [
            { field: 'region', type: 'nominal', title: 'Region' },
            { field: 'revenue', type: 'quantitative', title: 'Revenue', format: '$,.2f' },
            { field: 'orders', type: 'quantitative', title: 'Orders', format: ',' },
          ],
        },
      }),
    },
    answer(result) {
      if (result.rows.length === 0) return EMPTY_ANSWER;
      const total = result.rows.reduce((sum, row) => sum + num(row[1]), 0);
      const list = result.rows
        .map(
          (row) =>
            `- **${String(row[0])}**: ${money.format(num(row[1]))} (${percent.format(total > 0 ? num(row[1]) / total : 0)})`,
        )
        .join('\n');
      return (
        `Revenue by region, ${monthLabel(FIRST_ORDER_DAY)} to ${monthLabel(LAST_ORDER_DAY)}, ${money.format(total)} in all:\n\n${list}` +
        capNote(result)
      );
    },
  };
}

function marginPlan(): SqlPlan {
  const sqlQuery = [
    "SELECT DATE_TRUNC('quarter', created_at) AS quarter,",
    '  MEASURE(orders.gross_margin) AS gross_margin',
    'FROM orders',
    `WHERE created_at >= TIMESTAMP '${FIRST_ORDER_DAY}' AND created_at < TIMESTAMP '${DATA_END}'`,
    'GROUP BY 1',
    'ORDER BY 1',
  ].join('\n');
  return {
    searchQuery: 'profit margin',
    members: ['orders.total_revenue', 'orders.amount', 'products.price'],
    firstThought:
      'The user asks about profit or margin. Margin needs costs as well as revenue, so I should check what the data model has.',
    secondThought:
      'I see revenue and prices but no cost measure. A gross margin measure on orders may still exist; I will try orders.gross_margin per quarter.',
    input: {
      sqlQuery,
      queryTitle: 'Gross margin by quarter',
      description: 'Gross margin per quarter.',
      vegaSpec: vegaSpec('Gross margin by quarter', {
        mark: { type: 'line', point: true },
        encoding: {
          x: {
            field: 'quarter',
            type: 'temporal',
            timeUnit: 'yearquarter',
            title: 'Quarter',
            axis: { format: 'Q%q %Y', tickCount: { interval: 'month', step: 3 }, labelOverlap: true },
          },
          y: { field: 'gross_margin', type: 'quantitative', title: 'Gross margin (USD)' },
        },
      }),
    },
    answer: () => 'The margin query unexpectedly succeeded.',
    failure: (error) =>
      'I could not calculate the profit margin. The query failed with this error:\n\n' +
      `> ${error}\n\n` +
      'The data model has no cost or margin measure: it records what customers paid (revenue, order amounts and list prices), ' +
      'not what the goods cost. I can show **revenue by month**, **revenue by region** or the **average order value** instead, ' +
      'or your data team could add a cost field to the model.',
  };
}

const UNKNOWN_ANSWER =
  "I'm sorry, I can't answer that one. I can only answer questions about the Acme Commerce data: orders, customers and products " +
  `from ${monthLabel(FIRST_ORDER_DAY)} to ${monthLabel(LAST_ORDER_DAY)}. For example, you could ask:\n\n` +
  '- *Show me revenue by month*\n' +
  '- *Who are our top 10 customers?*\n' +
  '- *How many orders are in each status?*\n' +
  '- *What is revenue by region?*';

// ---------------------------------------------------------------------------------------------
// Running a script

/** Options of {@link runAgent}. */
export interface AgentOptions {
  run: Run;
  /** The user's input. */
  input: string;
  pace: ChatPace;
  data: DataEngine;
  /** Row-level security and time zone of the chat user. */
  scope: QueryScope;
  /** New ids (message ids, memory ids, result uuids). */
  randomId: () => string;
}

/** Delays of the realistic pace, in milliseconds. */
const REALISTIC = {
  thinkingChunk: 70,
  contentChunk: 55,
  beforeMessage: 150,
  beforeTool: 200,
  metaTool: 350,
  sqlTool: 250,
} as const;

/** Words per delta. */
const WORDS_PER_CHUNK = 3;

/** Splits text into chunks of a few words each, whitespace kept, so the chunks join back to the text. */
export function chunkText(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const chunks: string[] = [];
  for (let index = 0; index < words.length; index += WORDS_PER_CHUNK)
    chunks.push(words.slice(index, index + WORDS_PER_CHUNK).join(''));
  return chunks;
}

/** About four characters per token, like the models the service runs. */
const tokens = (text: string) => Math.ceil(text.length / 4);

/** The emitting side of a run: pacing, ids, sort numbers, usage. */
class Script {
  constructor(private readonly options: AgentOptions) {}

  private get run(): Run {
    return this.options.run;
  }

  /** Waits for the pace, then for a hold or suspension to end; throws once the run is stopped. */
  async wait(ms: number): Promise<void> {
    if (this.options.pace === 'instant') await new Promise<void>((resolve) => setImmediate(resolve));
    else await new Promise<void>((resolve) => setTimeout(resolve, ms));
    await this.run.checkpoint();
  }

  newMessageId(): string {
    let id: string;
    do id = this.options.randomId().replace(/-/g, '').slice(0, 8);
    while (this.run.thread.hasMessage(id));
    return id;
  }

  /** Streams an assistant message in deltas of a few words, then sends it whole (`isInProcess: false`). */
  async stream(kind: 'thinking' | 'content', text: string, graphPath: string[]): Promise<void> {
    const id = this.newMessageId();
    const sort = this.run.thread.nextSort();
    const base = { id, role: 'assistant' as const, graphPath, isStructuredResponse: false };
    await this.wait(REALISTIC.beforeMessage);
    const delay = kind === 'thinking' ? REALISTIC.thinkingChunk : REALISTIC.contentChunk;
    for (const chunk of chunkText(text)) {
      const line: StreamMessage =
        kind === 'thinking'
          ? { ...base, content: '', thinking: chunk, isInProcess: true, isDelta: true, sort }
          : { ...base, content: chunk, isInProcess: true, isDelta: true, sort };
      this.run.emit(line);
      await this.wait(delay);
    }
    this.run.emit(
      kind === 'thinking'
        ? { ...base, content: '', thinking: text, isInProcess: false, isDelta: false, sort }
        : { ...base, content: text, isInProcess: false, isDelta: false, sort },
    );
    this.run.usage.outputTokens += tokens(text);
  }

  /** A tool call: the start line, the work, then the result line under the same id (behaviour 1). */
  async tool(name: string, input: object, work: () => Promise<object>, workDelay: number): Promise<string> {
    const id = this.newMessageId();
    const inputText = JSON.stringify(input);
    const graphPath = [AGENT_NODE, 'tools'];
    await this.wait(REALISTIC.beforeTool);
    this.run.emit({
      id,
      role: 'assistant',
      toolCall: { name, input: inputText },
      graphPath,
      isInProcess: true,
      isDelta: false,
      sort: this.run.thread.nextSort(),
    });
    this.run.usage.outputTokens += tokens(inputText);
    const result = await work();
    await this.wait(workDelay);
    const resultText = JSON.stringify(result);
    this.run.emit({
      id,
      role: 'assistant',
      toolCall: { name, input: inputText, result: resultText },
      graphPath,
      isInProcess: false,
      isDelta: false,
      sort: this.run.thread.nextSort(),
    });
    return resultText;
  }

  /** One model turn: counts a call and the tokens it read. */
  llmCall(context: string): void {
    this.run.usage.llmCalls += 1;
    this.run.usage.inputTokens += 1800 + tokens(context);
  }
}

function planOf(intent: Intent): SqlPlan | undefined {
  switch (intent.kind) {
    case 'revenueByMonth':
      return revenueByMonthPlan(intent.range);
    case 'topCustomers':
      return topCustomersPlan(intent.limit);
    case 'ordersByStatus':
      return ordersByStatusPlan();
    case 'revenueByRegion':
      return revenueByRegionPlan();
    case 'margin':
      return marginPlan();
    case 'unknown':
      return undefined;
  }
}

/**
 * Runs the agent on `run` until its answer is complete, then finishes the run (`__state__`,
 * `__usage__`). An abort ends it quietly; an unexpected failure ends the run with an `{"error"}`
 * line. Never rejects.
 */
export async function runAgent(options: AgentOptions): Promise<void> {
  const { run, input } = options;
  const script = new Script(options);
  const agent = [AGENT_NODE];
  try {
    const intent = detectIntent(input);
    const plan = planOf(intent);
    let context = input;
    if (!plan) {
      script.llmCall(context);
      await script.stream(
        'thinking',
        "The user's question does not look like something the orders, customers and products data can answer. Let me search the data model to be sure.",
        agent,
      );
      const searchQuery = input.trim().slice(0, 200);
      context += await script.tool(
        SERVICE_META_TOOL,
        { searchQuery },
        async () => metaSearch(searchQuery, membersMatching(searchQuery)),
        REALISTIC.metaTool,
      );
      script.llmCall(context);
      await script.stream('content', UNKNOWN_ANSWER, ['final']);
      run.finish();
      return;
    }
    script.llmCall(context);
    await script.stream('thinking', plan.firstThought, agent);
    context += await script.tool(
      SERVICE_META_TOOL,
      { searchQuery: plan.searchQuery },
      async () => metaSearch(plan.searchQuery, plan.members),
      REALISTIC.metaTool,
    );
    script.llmCall(context);
    await script.stream('thinking', plan.secondThought, agent);
    const toolInput: ServiceSqlApiInput = {
      sqlQuery: plan.input.sqlQuery,
      queryTitle: plan.input.queryTitle,
      description: plan.input.description,
      userRequest: input,
      memoryId: options.randomId(),
      ...(plan.input.vegaSpec === undefined ? {} : { vegaSpec: plan.input.vegaSpec }),
    };
    // Set inside the tool's work; a holder, because narrowing does not follow assignments in closures.
    const sql: { outcome: { ok: true; result: CubeSqlResult } | { ok: false; error: string } } = {
      outcome: { ok: false, error: 'The query did not run' },
    };
    context += await script.tool(
      SERVICE_SQL_API_TOOL,
      toolInput,
      async () => {
        try {
          const result = await runCubeSql(options.data, toolInput.sqlQuery, options.scope, {
            maxRows: SQL_RESULT_ROW_LIMIT,
          });
          sql.outcome = { ok: true, result };
          const answer: ServiceSqlApiResult = {
            sqlQuery: toolInput.sqlQuery,
            queryTitle: toolInput.queryTitle,
            description: toolInput.description,
            userRequest: toolInput.userRequest,
            schema: result.schema,
            data: result.rows,
            totalRows: result.totalRows,
            uuid: options.randomId(),
            ...(toolInput.vegaSpec === undefined ? {} : { vegaSpec: toolInput.vegaSpec }),
          };
          return answer;
        } catch (error) {
          if (error instanceof RunStopped) throw error;
          const message = error instanceof Error ? error.message : String(error);
          sql.outcome = { ok: false, error: message };
          // A failed tool reports `{"error"}` in its result (2.8, 7).
          return { error: message };
        }
      },
      REALISTIC.sqlTool,
    );
    script.llmCall(context);
    const { outcome } = sql;
    const answer = outcome.ok ? plan.answer(outcome.result) : (plan.failure ?? defaultFailure)(outcome.error);
    await script.stream('content', answer, ['final']);
    run.finish();
  } catch (error) {
    if (error instanceof RunStopped) return;
    run.fail(error instanceof Error ? error.message : String(error));
  }
}

function defaultFailure(error: string): string {
  return `I could not get the data for this question: the query failed with the error "${error}". Please try again, or rephrase the question.`;
}
