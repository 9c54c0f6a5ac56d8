/**
 * The semantic layer of the emulator's data API, written once as data: the views (`orders`,
 * `customers`, `products`), their dimensions and measures. Everything else derives from it:
 * `/v1/meta` ({@link metaResponse}), the SQL of `/v1/load` (`load.ts`), the `MEASURE()` rewriting
 * of `/v1/cubesql` (`cubesql.ts`), the per-request views with row-level security (`engine.ts`) and
 * the chat agent's `serviceMeta` results.
 *
 * A view is a SQL view over the raw tables (`raw.orders`, `raw.customers`, `raw.products`, built by
 * `dataset.ts`) whose columns are exactly its dimensions. Measures are aggregates over those
 * columns, so `MEASURE(orders.total_revenue)` becomes `SUM(orders."amount")`.
 *
 * @module
 */
import type { MetaCube, MetaResponse } from '../../core/protocol/data';

/** Type of a dimension, as `/v1/meta` reports it. */
export type DimensionType = 'string' | 'number' | 'time' | 'boolean';

/** A dimension: a column of the view. */
export interface DimensionModel {
  /** Dimension name within its view. */
  readonly name: string;
  /** Human title. */
  readonly title: string;
  /** What it holds. */
  readonly description: string;
  /** Data type. */
  readonly type: DimensionType;
  /** SQL over the raw table aliases of the view's `from` (`o`, `c`, `p`). */
  readonly sql: string;
  /** True for the view's primary key. */
  readonly primaryKey?: boolean;
}

/** Aggregations a measure may use (`aggType` in `/v1/meta`). */
export type Aggregation = 'count' | 'sum' | 'avg' | 'countDistinct' | 'min' | 'max';

/** A measure: an aggregate over dimensions of its view. */
export interface MeasureModel {
  /** Measure name within its view. */
  readonly name: string;
  /** Human title. */
  readonly title: string;
  /** Short title. */
  readonly shortTitle: string;
  /** What it computes. */
  readonly description: string;
  /** How rows are aggregated. */
  readonly aggType: Aggregation;
  /** Dimension aggregated; omitted for `count` (rows). */
  readonly dimension?: string;
  /** Only rows whose `dimension` equals `value` count (for example completed orders). */
  readonly filter?: {
    /** The dimension tested, by its name within the view (`status`). */
    readonly dimension: string;
    /** The value the rows must have, compared as a SQL string literal (`completed`). */
    readonly value: string;
  };
  /** Display format hint. */
  readonly format?: 'currency' | 'number';
}

/** A view of the semantic layer. */
export interface ViewModel {
  /** View name (`orders`, `customers`, `products`). */
  readonly name: string;
  /** Human title. */
  readonly title: string;
  /** What one row is. */
  readonly description: string;
  /** `FROM` clause over the raw tables. */
  readonly from: string;
  /** Its dimensions. */
  readonly dimensions: readonly DimensionModel[];
  /** Its measures. */
  readonly measures: readonly MeasureModel[];
}

const ORDERS: ViewModel = {
  name: 'orders',
  title: 'Orders',
  description: 'One row per order line: what was bought, by whom, where and when.',
  from: 'raw.orders AS o JOIN raw.customers AS c ON c.id = o.customer_id JOIN raw.products AS p ON p.id = o.product_id',
  dimensions: [
    { name: 'id', title: 'Order id', description: 'Order number.', type: 'number', sql: 'o.id', primaryKey: true },
    {
      name: 'status',
      title: 'Status',
      description: 'completed, processing, shipped, cancelled or returned.',
      type: 'string',
      sql: 'o.status',
    },
    {
      name: 'region',
      title: 'Region',
      description: 'Sales region: NA, EMEA, APAC or LATAM.',
      type: 'string',
      sql: 'o.region',
    },
    { name: 'country', title: 'Country', description: "Customer's country.", type: 'string', sql: 'c.country' },
    {
      name: 'store_id',
      title: 'Store',
      description: 'Store that took the order, 1 to 20.',
      type: 'number',
      sql: 'o.store_id',
    },
    { name: 'category', title: 'Category', description: 'Product category.', type: 'string', sql: 'p.category' },
    { name: 'product_name', title: 'Product', description: 'Product name.', type: 'string', sql: 'p.name' },
    {
      name: 'customer_id',
      title: 'Customer id',
      description: 'Customer number.',
      type: 'number',
      sql: 'o.customer_id',
    },
    { name: 'customer_name', title: 'Customer', description: 'Customer name.', type: 'string', sql: 'c.name' },
    {
      name: 'customer_segment',
      title: 'Segment',
      description: 'Consumer, Small Business or Enterprise.',
      type: 'string',
      sql: 'c.segment',
    },
    { name: 'quantity', title: 'Quantity', description: 'Units ordered.', type: 'number', sql: 'o.quantity' },
    {
      name: 'amount',
      title: 'Amount',
      description: 'Order amount in USD after discount.',
      type: 'number',
      sql: 'o.amount',
    },
    {
      name: 'created_at',
      title: 'Created at',
      description: 'When the order was placed.',
      type: 'time',
      sql: 'o.created_at',
    },
  ],
  measures: [
    {
      name: 'count',
      title: 'Orders count',
      shortTitle: 'Count',
      description: 'Number of orders.',
      aggType: 'count',
      format: 'number',
    },
    {
      name: 'total_revenue',
      title: 'Total revenue',
      shortTitle: 'Revenue',
      description: 'Sum of order amounts in USD.',
      aggType: 'sum',
      dimension: 'amount',
      format: 'currency',
    },
    {
      name: 'average_order_value',
      title: 'Average order value',
      shortTitle: 'AOV',
      description: 'Mean order amount in USD.',
      aggType: 'avg',
      dimension: 'amount',
      format: 'currency',
    },
    {
      name: 'customers_count',
      title: 'Customers count',
      shortTitle: 'Customers',
      description: 'Distinct customers who ordered.',
      aggType: 'countDistinct',
      dimension: 'customer_id',
      format: 'number',
    },
    {
      name: 'total_quantity',
      title: 'Total quantity',
      shortTitle: 'Units',
      description: 'Units ordered.',
      aggType: 'sum',
      dimension: 'quantity',
      format: 'number',
    },
    {
      name: 'completed_count',
      title: 'Completed orders',
      shortTitle: 'Completed',
      description: 'Orders with status completed.',
      aggType: 'count',
      filter: { dimension: 'status', value: 'completed' },
      format: 'number',
    },
  ],
};

const CUSTOMERS: ViewModel = {
  name: 'customers',
  title: 'Customers',
  description: 'One row per customer.',
  from: 'raw.customers AS c',
  dimensions: [
    {
      name: 'id',
      title: 'Customer id',
      description: 'Customer number.',
      type: 'number',
      sql: 'c.id',
      primaryKey: true,
    },
    { name: 'name', title: 'Name', description: 'Customer name.', type: 'string', sql: 'c.name' },
    { name: 'email', title: 'Email', description: 'Customer email.', type: 'string', sql: 'c.email' },
    {
      name: 'region',
      title: 'Region',
      description: 'Sales region: NA, EMEA, APAC or LATAM.',
      type: 'string',
      sql: 'c.region',
    },
    { name: 'country', title: 'Country', description: 'Country.', type: 'string', sql: 'c.country' },
    {
      name: 'segment',
      title: 'Segment',
      description: 'Consumer, Small Business or Enterprise.',
      type: 'string',
      sql: 'c.segment',
    },
    {
      name: 'created_at',
      title: 'Signed up at',
      description: 'When the customer signed up.',
      type: 'time',
      sql: 'c.created_at',
    },
  ],
  measures: [
    {
      name: 'count',
      title: 'Customers count',
      shortTitle: 'Count',
      description: 'Number of customers.',
      aggType: 'count',
      format: 'number',
    },
  ],
};

const PRODUCTS: ViewModel = {
  name: 'products',
  title: 'Products',
  description: 'The product catalog.',
  from: 'raw.products AS p',
  dimensions: [
    { name: 'id', title: 'Product id', description: 'Product number.', type: 'number', sql: 'p.id', primaryKey: true },
    { name: 'name', title: 'Name', description: 'Product name.', type: 'string', sql: 'p.name' },
    { name: 'category', title: 'Category', description: 'Product category.', type: 'string', sql: 'p.category' },
    { name: 'price', title: 'Price', description: 'List price in USD.', type: 'number', sql: 'p.price' },
  ],
  measures: [
    {
      name: 'count',
      title: 'Products count',
      shortTitle: 'Count',
      description: 'Number of products.',
      aggType: 'count',
      format: 'number',
    },
    {
      name: 'average_price',
      title: 'Average price',
      shortTitle: 'Avg price',
      description: 'Mean list price in USD.',
      aggType: 'avg',
      dimension: 'price',
      format: 'currency',
    },
  ],
};

/** The views of the semantic layer, in `/v1/meta` order. */
export const VIEWS: readonly ViewModel[] = [ORDERS, CUSTOMERS, PRODUCTS];

/** The view with this name, or `undefined`. */
export function findView(name: string): ViewModel | undefined {
  return VIEWS.find((view) => view.name === name);
}

/** A member name (`view.member`) resolved against the model. */
export type ResolvedMember =
  | { kind: 'measure'; name: string; view: ViewModel; measure: MeasureModel }
  | { kind: 'dimension'; name: string; view: ViewModel; dimension: DimensionModel };

/** Resolves `view.member`; `undefined` when the view or member does not exist. */
export function resolveMember(name: string): ResolvedMember | undefined {
  const dot = name.indexOf('.');
  if (dot <= 0) return undefined;
  const view = findView(name.slice(0, dot));
  if (!view) return undefined;
  const memberName = name.slice(dot + 1);
  const measure = view.measures.find((candidate) => candidate.name === memberName);
  if (measure) return { kind: 'measure', name, view, measure };
  const dimension = view.dimensions.find((candidate) => candidate.name === memberName);
  if (dimension) return { kind: 'dimension', name, view, dimension };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// SQL helpers
// ---------------------------------------------------------------------------------------------

/** A SQL identifier in double quotes. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A SQL string literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The aggregate of a measure over its view's columns. `qualifier` is how the query names the view
 * (its name or an alias); `undefined` leaves columns unqualified.
 */
export function measureSql(measure: MeasureModel, qualifier?: string): string {
  const column = (name: string) =>
    qualifier === undefined ? quoteIdent(name) : `${quoteIdent(qualifier)}.${quoteIdent(name)}`;
  const filter = measure.filter
    ? ` FILTER (WHERE ${column(measure.filter.dimension)} = ${sqlString(measure.filter.value)})`
    : '';
  const target = measure.dimension === undefined ? undefined : column(measure.dimension);
  switch (measure.aggType) {
    case 'count':
      return target === undefined ? `COUNT(*)${filter}` : `COUNT(${target})${filter}`;
    case 'countDistinct':
      return `COUNT(DISTINCT ${target ?? '*'})${filter}`;
    case 'sum':
      return `SUM(${target ?? '0'})${filter}`;
    case 'avg':
      return `AVG(${target ?? '0'})${filter}`;
    case 'min':
      return `MIN(${target ?? 'NULL'})${filter}`;
    case 'max':
      return `MAX(${target ?? 'NULL'})${filter}`;
  }
}

/** Options of {@link viewBodySql}. */
export interface ViewBodyOptions {
  /** SQL predicates (over the raw aliases) that every row must satisfy: row-level security. */
  predicates?: readonly string[];
  /** IANA time zone in which time dimensions are shown; default UTC (stored times are UTC). */
  timezone?: string;
}

/**
 * The `SELECT` that defines a view for one request: every dimension as a column, time dimensions
 * converted to `timezone`, rows restricted by `predicates`. `engine.ts` creates it as a temporary
 * view named after the view, so queries name `orders` and never see the raw tables.
 */
export function viewBodySql(view: ViewModel, options: ViewBodyOptions = {}): string {
  const timezone = options.timezone ?? 'UTC';
  const columns = view.dimensions.map((dimension) => {
    const expression =
      dimension.type === 'time' && timezone !== 'UTC'
        ? `timezone(${sqlString(timezone)}, ${dimension.sql} AT TIME ZONE 'UTC')`
        : dimension.sql;
    return `${expression} AS ${quoteIdent(dimension.name)}`;
  });
  const predicates = options.predicates ?? [];
  const where = predicates.length > 0 ? ` WHERE ${predicates.map((predicate) => `(${predicate})`).join(' AND ')}` : '';
  return `SELECT ${columns.join(', ')} FROM ${view.from}${where}`;
}

// ---------------------------------------------------------------------------------------------
// /v1/meta
// ---------------------------------------------------------------------------------------------

/** The `/v1/meta` answer (behaviour 3): every view with its measures and dimensions. */
export function metaResponse(): MetaResponse {
  return {
    cubes: VIEWS.map((view): MetaCube => ({
      name: view.name,
      title: view.title,
      description: view.description,
      type: 'view',
      measures: view.measures.map((measure) => ({
        name: `${view.name}.${measure.name}`,
        title: measure.title,
        shortTitle: measure.shortTitle,
        description: measure.description,
        type: 'number',
        aggType: measure.aggType,
        ...(measure.format ? { format: measure.format } : {}),
      })),
      dimensions: view.dimensions.map((dimension) => ({
        name: `${view.name}.${dimension.name}`,
        title: dimension.title,
        shortTitle: dimension.title,
        description: dimension.description,
        type: dimension.type,
        ...(dimension.primaryKey ? { primaryKey: true } : {}),
      })),
      segments: [],
    })),
  };
}
