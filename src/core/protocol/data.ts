/**
 * Bodies of the data API on `{data_url}` (docs/protocol.md §4.5, behaviour §3): the SQL stream of
 * `/v1/cubesql`, the JSON query of `/v1/load` (single and multi), `/v1/meta`, and the answers that
 * are not data (`Continue wait`, user errors, token refusals).
 *
 * @module
 */
import { isRecord } from './shared';

/** Paths under `{data_url}` (§4.5). The data URL already holds the deployment's base path. */
export const DATA_API_PATHS = {
  load: '/v1/load',
  cubesql: '/v1/cubesql',
  meta: '/v1/meta',
} as const;

// ---------------------------------------------------------------------------------------------
// Texts of answers that are not data
// ---------------------------------------------------------------------------------------------

/**
 * `{"error":"Continue wait"}` with HTTP 200: the query is still running. Not an error: repeat the
 * same request until data arrives.
 */
export const CONTINUE_WAIT = 'Continue wait';

/** 403 body text: the token is not valid for this deployment. */
export const INVALID_TOKEN = 'Invalid token';

/** 403 body text: no `Authorization` header was sent. */
export const AUTHORIZATION_HEADER_NOT_SET = "Authorization header isn't set";

/** Body of a 400: the query itself is wrong (unknown member, bad SQL...). */
export interface UserErrorBody {
  /** Always `UserError`. */
  type: 'UserError';
  /** The service's message: what is wrong with the query. */
  error: string;
}

/** Body of a 403 or 500, and of `Continue wait`. */
export interface DataErrorBody {
  /** The service's message. */
  error: string;
}

/** True when `value` is `{ error: string }` (any data API error body, including `Continue wait`). */
export function isDataErrorBody(value: unknown): value is DataErrorBody {
  return isRecord(value) && typeof value['error'] === 'string';
}

/** True when `value` is a 400 user error body. */
export function isUserErrorBody(value: unknown): value is UserErrorBody {
  return isRecord(value) && value['type'] === 'UserError' && typeof value['error'] === 'string';
}

/** True when `value` is the `Continue wait` answer: repeat the request. */
export function isContinueWait(value: unknown): boolean {
  return isDataErrorBody(value) && value.error === CONTINUE_WAIT;
}

// ---------------------------------------------------------------------------------------------
// SQL: POST /v1/cubesql
// ---------------------------------------------------------------------------------------------

/**
 * Body of `POST /v1/cubesql`. Measures are selected as `MEASURE(view.measure)`, e.g.
 * `SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1`.
 */
export interface CubeSqlRequest {
  /** The SQL text. */
  query: string;
  /** IANA time zone for date functions and time dimensions. Default: UTC. */
  timezone?: string;
}

/** A column of a SQL result; `column_type` values look like `String`, `Int64`, `Double`, `Timestamp`, `Boolean`. */
export interface CubeSqlColumn {
  /** Column name. */
  name: string;
  /** SQL type of the column. */
  column_type: string;
}

/**
 * A cell of a SQL result. The service sends every value as a string (numbers too) and SQL `NULL`
 * as `null`; numbers and booleans, if a server sends them, are turned into strings so that every
 * row has one shape.
 */
export type CubeSqlCell = string | null;

/** A row: one cell per column of the schema, in schema order. */
export type CubeSqlRow = CubeSqlCell[];

/** One line of the SQL stream, classified by `classifyCubeSqlLine`. */
export type CubeSqlLine =
  | {
      /** The first line: the result's columns. */
      kind: 'schema';
      /** The columns, in order. */
      schema: CubeSqlColumn[];
      /** ISO time of the last refresh of the data; absent when the service sent none. */
      lastRefreshTime?: string;
    }
  | {
      /** A batch of rows, following the schema. */
      kind: 'data';
      /** The rows, cells as strings or `null` whatever the wire held. */
      rows: CubeSqlRow[];
    }
  | {
      /** `{"error":"Continue wait"}`: the query still runs; repeat the same request. */
      kind: 'continue-wait';
    }
  | {
      /** Any other `{"error"}` line: the query failed, possibly after rows arrived. */
      kind: 'error';
      /** The service's message. */
      error: string;
    }
  | {
      /** A line of no known shape; readers skip it, so fields the service adds later break nothing. */
      kind: 'unknown';
      /** The parsed line, as it arrived. */
      line: unknown;
    };

function isColumn(value: unknown): value is CubeSqlColumn {
  return isRecord(value) && typeof value['name'] === 'string' && typeof value['column_type'] === 'string';
}

function toCell(value: unknown): CubeSqlCell | undefined {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return undefined;
}

function toRows(value: unknown): CubeSqlRow[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const rows: CubeSqlRow[] = [];
  for (const row of value as unknown[]) {
    const cells = Array.isArray(row) ? row.map(toCell) : [undefined];
    if (cells.includes(undefined)) return undefined;
    rows.push(cells as CubeSqlRow);
  }
  return rows;
}

/**
 * Classifies one parsed line of the `/v1/cubesql` stream: the schema line, a data line (cells
 * normalised to strings or `null`), `Continue wait`, an error line, or anything else (`unknown`,
 * which readers skip so that fields the service adds later do not break them).
 */
export function classifyCubeSqlLine(line: unknown): CubeSqlLine {
  if (!isRecord(line)) return { kind: 'unknown', line };
  if (typeof line['error'] === 'string')
    return line['error'] === CONTINUE_WAIT ? { kind: 'continue-wait' } : { kind: 'error', error: line['error'] };
  const schema = line['schema'];
  if (Array.isArray(schema) && schema.every(isColumn)) {
    const refreshed = line['lastRefreshTime'];
    return { kind: 'schema', schema, ...(typeof refreshed === 'string' && { lastRefreshTime: refreshed }) };
  }
  const rows = toRows(line['data']);
  if (rows) return { kind: 'data', rows };
  return { kind: 'unknown', line };
}

// ---------------------------------------------------------------------------------------------
// JSON query: POST /v1/load
// ---------------------------------------------------------------------------------------------

/**
 * Filter operators of the JSON query:
 * - `equals`, `notEquals`: the member is (not) one of `values`.
 * - `contains`, `notContains`: text contains (does not contain) one of `values`, case-insensitive.
 * - `startsWith`, `endsWith`: text starts or ends with one of `values`.
 * - `notStartsWith`, `notEndsWith`: text starts (ends) with none of `values`.
 * - `gt`, `gte`, `lt`, `lte`: numeric comparison with the single value in `values`.
 * - `set`, `notSet`: the member is not `NULL` / is `NULL`; no `values`.
 * - `inDateRange`, `notInDateRange`: time between (outside) `values[0]` and `values[1]`, inclusive.
 * - `beforeDate`, `afterDate`: time before / after the single date in `values`.
 * - `beforeOrOnDate`, `afterOrOnDate`: the same, the date itself included.
 */
export const FILTER_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'set',
  'notSet',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'afterDate',
  'notStartsWith',
  'notEndsWith',
  'beforeOrOnDate',
  'afterOrOnDate',
] as const;

/** A filter operator; see `FILTER_OPERATORS`. */
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** A filter on one member (`view.member`). Values are strings, dates as ISO `YYYY-MM-DD`. */
export interface MemberFilter {
  /** The member filtered, `view.member`. */
  member: string;
  /** How it is compared with `values`. */
  operator: FilterOperator;
  /** Omitted for `set` and `notSet`. */
  values?: string[];
}

/** All of the filters must hold. */
export interface AndFilter {
  /** Filters that must all hold. */
  and: Filter[];
}

/** At least one of the filters must hold. */
export interface OrFilter {
  /** Filters of which one must hold. */
  or: Filter[];
}

/** A filter: one member, or an `and` / `or` group of filters (nestable). */
export type Filter = MemberFilter | AndFilter | OrFilter;

/** Time granularities; deployments may define custom ones, passed as their names. */
export type TimeGranularity =
  'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year' | (string & {});

/** A time dimension: grouped by `granularity`, restricted to `dateRange`. */
export interface TimeDimension {
  /** The time dimension, `view.dimension`. */
  dimension: string;
  /** Omit to filter by `dateRange` without grouping by time. */
  granularity?: TimeGranularity;
  /** `['2025-01-01', '2025-03-31']`, or a relative range such as `'last 6 months'`. */
  dateRange?: string | [string, string];
}

/** Sort direction. */
export type OrderDirection = 'asc' | 'desc';

/** JSON query of `/v1/load`. Member names are `view.member`. */
export interface LoadQuery {
  /** Measures to compute, `view.measure`. */
  measures?: string[];
  /** Dimensions to group by, `view.dimension`. */
  dimensions?: string[];
  /** Named segments (predefined filters) of the data model. */
  segments?: string[];
  /** Time dimensions with their granularity and date range. */
  timeDimensions?: TimeDimension[];
  /** Filters on members. */
  filters?: Filter[];
  /** `{ 'orders.count': 'desc' }`, or pairs to fix the order among several members. */
  order?: Record<string, OrderDirection> | Array<[string, OrderDirection]>;
  /** Most rows returned. */
  limit?: number;
  /** Rows skipped first. */
  offset?: number;
  /** IANA time zone for time dimensions. Default: UTC. */
  timezone?: string;
}

/** A row of a load result: member name to value, values as strings (`null` for SQL `NULL`). */
export type LoadRow = Record<string, string | number | boolean | null>;

/** What the service says about one member of the result. */
export interface MemberAnnotation {
  /** Human title. */
  title?: string;
  /** Short title. */
  shortTitle?: string;
  /** Data type. */
  type?: string;
  [key: string]: unknown;
}

/** Annotation of a load result, per member name. */
export interface LoadAnnotation {
  /** Titles and types of the measures, by name. */
  measures: Record<string, MemberAnnotation>;
  /** Of the dimensions. */
  dimensions: Record<string, MemberAnnotation>;
  /** Of the segments. */
  segments: Record<string, MemberAnnotation>;
  /** Of the time dimensions. */
  timeDimensions: Record<string, MemberAnnotation>;
}

/** Answer of `/v1/load` for one query. */
export interface LoadResponse<Row = LoadRow> {
  /** The query as the service normalised it. */
  query: LoadQuery & Record<string, unknown>;
  /** The rows, one object per row keyed by member. */
  data: Row[];
  /** Titles and types of the members in `data`. */
  annotation: LoadAnnotation;
  /** When the data was last refreshed, ISO 8601. */
  lastRefreshTime?: string;
  [key: string]: unknown;
}

/**
 * Answer of `/v1/load` with `queryType: 'multi'`: one result per query, in order. The service
 * names the kind of answer: `regularQuery` (one query), `blendingQuery` (several, data blending),
 * `compareDateRangeQuery`; older servers sent `multi`.
 */
export interface MultiLoadResponse<Row = LoadRow> {
  /** Which kind of query answered. */
  queryType: 'multi' | 'regularQuery' | 'blendingQuery' | 'compareDateRangeQuery' | (string & {});
  /** The query a client pivots the results by (`regularQuery` and `blendingQuery` answers). */
  pivotQuery?: LoadQuery & Record<string, unknown>;
  /** One answer per query. */
  results: LoadResponse<Row>[];
  [key: string]: unknown;
}

/** True when `value` is a load result: an object with a `data` array. */
export function isLoadResponse(value: unknown): value is LoadResponse {
  return isRecord(value) && Array.isArray(value['data']) && !('error' in value);
}

/** True when `value` is a multi load result: a `queryType` string and a `results` array of load results. */
export function isMultiLoadResponse(value: unknown): value is MultiLoadResponse {
  return (
    isRecord(value) &&
    typeof value['queryType'] === 'string' &&
    Array.isArray(value['results']) &&
    value['results'].every(isLoadResponse)
  );
}

// ---------------------------------------------------------------------------------------------
// Metadata: GET /v1/meta
// ---------------------------------------------------------------------------------------------

/** A measure in the metadata. */
export interface MetaMeasure {
  /** `view.measure`. */
  name: string;
  /** Human title. */
  title?: string;
  /** Short title. */
  shortTitle?: string;
  /** Data type. */
  type?: string;
  /** Aggregation (`sum`, `count`...). */
  aggType?: string;
  [key: string]: unknown;
}

/** A dimension in the metadata; `type` is `string`, `number`, `time`, `boolean`. */
export interface MetaDimension {
  /** `view.dimension`. */
  name: string;
  /** Human title. */
  title?: string;
  /** Data type (`string`, `number`, `time`...). */
  type?: string;
  [key: string]: unknown;
}

/** A cube or view of the data model. */
export interface MetaCube {
  /** The cube or view name. */
  name: string;
  /** Human title. */
  title?: string;
  /** A cube of the model, or a view over cubes. */
  type: 'cube' | 'view';
  /** Its measures. */
  measures: MetaMeasure[];
  /** Its dimensions. */
  dimensions: MetaDimension[];
  /** Its segments. */
  segments: unknown[];
  [key: string]: unknown;
}

/** Answer of `GET /v1/meta`. */
export interface MetaResponse {
  /** The cubes and views the caller may query. */
  cubes: MetaCube[];
  [key: string]: unknown;
}

/** True when `value` is a metadata answer: an object with a `cubes` array. */
export function isMetaResponse(value: unknown): value is MetaResponse {
  return isRecord(value) && Array.isArray(value['cubes']);
}
