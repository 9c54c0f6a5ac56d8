/**
 * Dashboard filters and time grains of embed URLs and of `set-filter` (behaviour 2,
 * protocol 6.3), turned into `/v1/load` queries. Runs in the page script (and in unit
 * tests); no Node, no DOM.
 *
 * - `f_<view>.<dimension>=<JSON>`: the JSON is `{"value": ...}` with an optional `operator` (default
 *   `equals`, any operator of the data API), or, leniently, a bare value or list. `{"value": null}`
 *   or `{"value": []}` without an operator clears the member's filter (how `set-filter` removes one).
 * - `tg_<view>.<dimension>=<granularity>` replaces the granularity of that time dimension.
 *
 * A filter reaches the queries of its own view only: `f_orders.status` narrows widgets that query
 * `orders`, never `customers`.
 *
 * @module
 */
import { FILTER_OPERATORS, type Filter, type FilterOperator, type LoadQuery } from '../../core/protocol/data';
import { FILTER_PARAMETER_PREFIX, TIME_GRAIN_PARAMETER_PREFIX, isMemberName } from '../../core/protocol/embed';

/** A filter scalar as the URL carries it. */
export type FilterScalar = string | number | boolean;

/** The JSON of one `f_` parameter, normalised to an object. */
export interface FilterCondition {
  value?: FilterScalar | FilterScalar[];
  operator?: string;
  [key: string]: unknown;
}

/** What {@link readFilterParameters} found: filters to set, members to clear, and what was wrong. */
export interface FilterParameters {
  /** Member to its condition, in the order given. */
  set: Map<string, FilterCondition>;
  /** Members whose filter is cleared. */
  cleared: string[];
  /** One sentence per parameter that was ignored. */
  problems: string[];
}

function isScalar(value: unknown): value is FilterScalar {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

function isOperator(value: unknown): value is FilterOperator {
  return FILTER_OPERATORS.some((operator) => operator === value);
}

/**
 * Reads the `f_` parameters of a query string (`location.search`, or a `filterUrlParameter`).
 * Parameters of other names are skipped.
 */
export function readFilterParameters(query: string | URLSearchParams): FilterParameters {
  const result: FilterParameters = { set: new Map(), cleared: [], problems: [] };
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  for (const [name, raw] of params) {
    if (!name.startsWith(FILTER_PARAMETER_PREFIX)) continue;
    const member = name.slice(FILTER_PARAMETER_PREFIX.length);
    if (!isMemberName(member)) {
      result.problems.push(`${name}: "${member}" is not a member such as "orders.status"`);
      continue;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      result.problems.push(`${name}: the value is not JSON, e.g. {"value":"completed"}`);
      continue;
    }
    const condition: FilterCondition =
      typeof json === 'object' && json !== null && !Array.isArray(json)
        ? { ...(json as Record<string, unknown>) }
        : { value: json as FilterCondition['value'] };
    const { value, operator } = condition;
    if (operator !== undefined && !isOperator(operator)) {
      result.problems.push(`${name}: unknown operator ${JSON.stringify(operator)}`);
      continue;
    }
    if (operator === undefined && (value === null || (Array.isArray(value) && value.length === 0))) {
      result.set.delete(member);
      result.cleared.push(member);
      continue;
    }
    const valueOk =
      value === undefined
        ? operator === 'set' || operator === 'notSet'
        : isScalar(value) || (Array.isArray(value) && value.every(isScalar));
    if (!valueOk) {
      result.problems.push(`${name}: "value" must be a string, number, boolean or a list of them`);
      continue;
    }
    result.set.set(member, condition);
  }
  return result;
}

/** Reads the `tg_` parameters of a query string: time dimension to granularity. */
export function readTimeGrainParameters(query: string | URLSearchParams): Map<string, string> {
  const grains = new Map<string, string>();
  const params = typeof query === 'string' ? new URLSearchParams(query) : query;
  for (const [name, grain] of params) {
    if (!name.startsWith(TIME_GRAIN_PARAMETER_PREFIX)) continue;
    const member = name.slice(TIME_GRAIN_PARAMETER_PREFIX.length);
    if (isMemberName(member) && /^[A-Za-z_]\w*$/.test(grain)) grains.set(member, grain);
  }
  return grains;
}

/** The `/v1/load` filter of one URL filter: operator `equals` unless given, values as strings. */
export function toLoadFilter(member: string, condition: FilterCondition): Filter {
  const operator = isOperator(condition.operator) ? condition.operator : 'equals';
  const { value } = condition;
  if (value === undefined) return { member, operator };
  const values = (Array.isArray(value) ? value : [value]).map(String);
  return { member, operator, values };
}

/** The view a query reads: the view of its first member. */
export function viewOfQuery(query: LoadQuery): string | undefined {
  const first = query.measures?.[0] ?? query.dimensions?.[0] ?? query.timeDimensions?.[0]?.dimension;
  return first?.slice(0, first.indexOf('.'));
}

/** Options of {@link applyToQuery}. */
export interface ApplyOptions {
  filters: ReadonlyMap<string, FilterCondition>;
  timeGrains: ReadonlyMap<string, string>;
  /** IANA time zone of the query; omitted leaves the query's own. */
  timezone?: string;
}

/**
 * A widget's query with the dashboard's filters of its view appended, its time grains replaced
 * and the time zone set. The widget's own query is never changed.
 */
export function applyToQuery(query: LoadQuery, options: ApplyOptions): LoadQuery {
  const view = viewOfQuery(query);
  const extra: Filter[] = [];
  for (const [member, condition] of options.filters) {
    if (member.slice(0, member.indexOf('.')) === view) extra.push(toLoadFilter(member, condition));
  }
  const next: LoadQuery = { ...query };
  if (extra.length) next.filters = [...(query.filters ?? []), ...extra];
  if (query.timeDimensions?.length && options.timeGrains.size) {
    next.timeDimensions = query.timeDimensions.map((dimension) => {
      const grain = options.timeGrains.get(dimension.dimension);
      return grain !== undefined && dimension.granularity !== undefined
        ? { ...dimension, granularity: grain }
        : dimension;
    });
  }
  if (options.timezone !== undefined) next.timezone = options.timezone;
  return next;
}
