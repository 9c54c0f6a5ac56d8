/**
 * SQL of `/v1/cubesql` (behaviour 3): one `SELECT` over the views of the model, with measures
 * written as `MEASURE(view.measure)` (or `MEASURE(alias.measure)`, or `MEASURE(measure)` when only
 * one view has it). The SQL is parsed by DuckDB itself (`json_serialize_sql`), checked, rewritten
 * on the syntax tree (each `MEASURE()` becomes its aggregate from `model.ts`) and printed back, so
 * string literals and comments can never be mistaken for SQL.
 *
 * Allowed: the views (`orders`, `customers`, `products`), the query's own CTEs, and the table
 * functions `range`, `generate_series` and `unnest`. Anything else (raw tables, files, other table
 * functions, several statements, anything but `SELECT`) is refused with a SQL error.
 *
 * @module
 */
import type { CubeSqlColumn } from '../../core/protocol/data';
import { type DataEngine, type QueryScope, cellTextSql, columnTypeName } from './engine';
import { VIEWS, findView, measureSql, type MeasureModel, type ViewModel } from './model';

/** A SQL problem, reported to the caller as an `{"error"}` line. */
export class SqlError extends Error {
  override readonly name = 'SqlError';
}

const ALLOWED_TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);

type Json = unknown;
type JsonObject = Record<string, Json>;

function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Visits every object of the tree (depth first, parents before children). */
function walk(node: Json, visit: (object: JsonObject) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit);
  } else if (isObject(node)) {
    visit(node);
    for (const value of Object.values(node)) walk(value, visit);
  }
}

interface References {
  /** CTE names defined anywhere in the query, lowercased. */
  ctes: Set<string>;
  /** Alias (lowercased) to view, for `FROM orders AS o`. */
  aliases: Map<string, ViewModel>;
  /** Views the query reads. */
  views: Set<ViewModel>;
}

function collectReferences(tree: Json): References {
  const references: References = { ctes: new Set(), aliases: new Map(), views: new Set() };
  walk(tree, (object) => {
    const cteMap = object['cte_map'];
    if (isObject(cteMap) && Array.isArray(cteMap['map'])) {
      for (const entry of cteMap['map']) {
        if (isObject(entry) && typeof entry['key'] === 'string') references.ctes.add(entry['key'].toLowerCase());
      }
    }
  });
  walk(tree, (object) => {
    if (object['type'] === 'BASE_TABLE' && typeof object['table_name'] === 'string') {
      const name = object['table_name'];
      const qualified = (typeof object['schema_name'] === 'string' && object['schema_name'] !== '') ||
        (typeof object['catalog_name'] === 'string' && object['catalog_name'] !== '');
      const view = qualified ? undefined : findView(name.toLowerCase());
      if (!qualified && references.ctes.has(name.toLowerCase())) return;
      if (!view) {
        const written = [object['catalog_name'], object['schema_name'], name].filter((part) => typeof part === 'string' && part !== '').join('.');
        throw new SqlError(
          `Table or view "${written}" is not available: query the views ${VIEWS.map((candidate) => candidate.name).join(', ')}`,
        );
      }
      references.views.add(view);
      if (typeof object['alias'] === 'string' && object['alias'] !== '') references.aliases.set(object['alias'].toLowerCase(), view);
    } else if (object['type'] === 'TABLE_FUNCTION') {
      const fn = object['function'];
      const name = isObject(fn) && typeof fn['function_name'] === 'string' ? fn['function_name'].toLowerCase() : '?';
      if (!ALLOWED_TABLE_FUNCTIONS.has(name)) throw new SqlError(`Table function ${name}() is not available`);
    }
  });
  return references;
}

interface MeasureCall {
  /** How the query names the view (`orders`, an alias), or `undefined` when unqualified. */
  qualifier: string | undefined;
  measure: MeasureModel;
  /** The call as written, for the default column name: `measure(orders.count)`. */
  label: string;
}

function resolveMeasureCall(node: JsonObject, references: References): MeasureCall {
  const children = node['children'];
  const argument = Array.isArray(children) && children.length === 1 ? children[0] : undefined;
  const names = isObject(argument) && argument['class'] === 'COLUMN_REF' ? argument['column_names'] : undefined;
  if (!Array.isArray(names) || names.length < 1 || names.length > 2 || !names.every((name) => typeof name === 'string')) {
    throw new SqlError('MEASURE() takes one measure: MEASURE(view.measure)');
  }
  const parts = names as string[];
  if (parts.length === 2) {
    const [qualifier = '', measureName = ''] = parts;
    const view = references.aliases.get(qualifier.toLowerCase()) ?? findView(qualifier.toLowerCase());
    if (!view) throw new SqlError(`MEASURE(${parts.join('.')}): ${qualifier} is not a view of the query`);
    const measure = view.measures.find((candidate) => candidate.name === measureName.toLowerCase());
    if (!measure) throw new SqlError(`MEASURE(${parts.join('.')}): view ${view.name} has no measure ${measureName}`);
    return { qualifier, measure, label: `measure(${parts.join('.')})` };
  }
  const [measureName = ''] = parts;
  const candidates = [...references.views].filter((view) =>
    view.measures.some((candidate) => candidate.name === measureName.toLowerCase()),
  );
  const [view] = candidates;
  if (!view) throw new SqlError(`MEASURE(${measureName}): no view of the query has this measure`);
  if (candidates.length > 1) throw new SqlError(`MEASURE(${measureName}) is ambiguous: write MEASURE(view.${measureName})`);
  const measure = view.measures.find((candidate) => candidate.name === measureName.toLowerCase());
  if (!measure) throw new SqlError(`MEASURE(${measureName}): no view of the query has this measure`);
  return { qualifier: undefined, measure, label: `measure(${measureName})` };
}

function isMeasureCall(node: Json): node is JsonObject {
  return isObject(node) && node['class'] === 'FUNCTION' && typeof node['function_name'] === 'string' && node['function_name'].toLowerCase() === 'measure';
}

/**
 * Checks and rewrites a `/v1/cubesql` query; returns SQL that DuckDB runs on a scoped connection.
 * Throws {@link SqlError} when the query is not allowed or not valid SQL.
 */
export async function compileCubeSql(engine: DataEngine, sql: string): Promise<string> {
  const parsed = await engine.parseSql(sql);
  if (!isObject(parsed)) throw new SqlError('Could not parse the query');
  if (parsed['error'] === true) {
    const message = typeof parsed['error_message'] === 'string' ? parsed['error_message'] : 'Could not parse the query';
    // DuckDB's serializer refuses anything that is not a SELECT with this text; say it plainly.
    throw new SqlError(/only SELECT/i.test(message) ? 'Only SELECT queries are allowed' : message);
  }
  const statements = parsed['statements'];
  if (!Array.isArray(statements) || statements.length !== 1) throw new SqlError('Send exactly one SELECT statement');
  const references = collectReferences(parsed);

  const calls: { node: JsonObject; call: MeasureCall; topLevel: boolean }[] = [];
  walk(parsed, (object) => {
    const selectList = object['select_list'];
    const topLevel = new Set(Array.isArray(selectList) ? selectList : []);
    for (const value of Object.values(object)) {
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) {
        if (isMeasureCall(item) && !calls.some((entry) => entry.node === item)) {
          calls.push({ node: item, call: resolveMeasureCall(item, references), topLevel: topLevel.has(item) });
        }
      }
    }
  });
  if (calls.length === 0) return engine.printSql(parsed);

  const replacements = new Map<string, JsonObject>();
  for (const { node, call, topLevel } of calls) {
    const expression = measureSql(call.measure, call.qualifier);
    let template = replacements.get(expression);
    if (!template) {
      const tree = await engine.parseSql(`SELECT ${expression}`);
      const found = isObject(tree) && Array.isArray(tree['statements']) ? tree['statements'][0] : undefined;
      const nodeOfTree = isObject(found) ? found['node'] : undefined;
      const selected = isObject(nodeOfTree) && Array.isArray(nodeOfTree['select_list']) ? nodeOfTree['select_list'][0] : undefined;
      if (!isObject(selected)) throw new SqlError(`Could not expand ${call.label}`);
      template = selected;
      replacements.set(expression, template);
    }
    const alias = typeof node['alias'] === 'string' && node['alias'] !== '' ? node['alias'] : topLevel ? call.label : '';
    const location = node['query_location'];
    // Replace the call in place: every parent keeps its reference to this object.
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(node, structuredClone(template), { alias }, location === undefined ? {} : { query_location: location });
  }
  return engine.printSql(parsed);
}

/** Options of {@link streamCubeSql}. */
export interface StreamCubeSqlOptions {
  /** Rows per `{"data"}` line. Default 1,000. */
  rowsPerLine?: number;
  /** Sent in the schema line. */
  lastRefreshTime?: string;
}

/** A line of the `/v1/cubesql` answer, before JSON encoding. */
export type CubeSqlOutputLine =
  | { schema: CubeSqlColumn[]; lastRefreshTime?: string }
  | { data: (string | null)[][] }
  | { error: string };

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a `/v1/cubesql` query on a connection scoped to the caller and yields its lines: the schema
 * (as soon as the query is bound), then data lines of `rowsPerLine` rows (values as strings, `NULL`
 * as `null`), produced chunk by chunk as the consumer pulls. Any SQL problem becomes a final
 * `{"error"}` line: alone when the query cannot be bound, after the schema when it fails while
 * running. Stopping the iteration early (a client that went away) closes the connection.
 */
export async function* streamCubeSql(
  engine: DataEngine,
  sql: string,
  scope: QueryScope,
  options: StreamCubeSqlOptions = {},
): AsyncGenerator<CubeSqlOutputLine, void, undefined> {
  const rowsPerLine = Math.max(1, options.rowsPerLine ?? 1000);
  let scoped;
  try {
    const compiled = await compileCubeSql(engine, sql);
    scoped = await engine.connect(scope);
    const { connection } = scoped;
    const prepared = await connection.prepare(compiled);
    const count = prepared.columnCount;
    const schema: CubeSqlColumn[] = [];
    const texts: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const type = prepared.columnType(index);
      schema.push({ name: prepared.columnName(index), column_type: columnTypeName(type) });
      texts.push(cellTextSql(`c${index}`, type));
    }
    // DuckDB turns the values into text: far cheaper than converting each value in JavaScript.
    const aliases = Array.from({ length: count }, (_, index) => `c${index}`).join(', ');
    // The schema is known once the query is bound: send it before the query runs.
    yield options.lastRefreshTime === undefined ? { schema } : { schema, lastRefreshTime: options.lastRefreshTime };
    // Materialised, not `connection.stream()`: @duckdb/node-api ends a streaming result with an
    // empty chunk instead of an error when a row fails, which would truncate the answer silently.
    // The lines are still produced one at a time as the client reads.
    const result = await connection.run(`SELECT ${texts.join(', ')} FROM (${compiled}) AS t(${aliases})`);
    let pending: (string | null)[][] = [];
    for (;;) {
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      for (const row of chunk.getRows()) {
        pending.push(row as (string | null)[]);
        if (pending.length === rowsPerLine) {
          yield { data: pending };
          pending = [];
        }
      }
    }
    if (pending.length > 0) yield { data: pending };
  } catch (error) {
    yield { error: errorMessage(error) };
  } finally {
    scoped?.close();
  }
}

/** Result of {@link runCubeSql}. */
export interface CubeSqlResult {
  schema: CubeSqlColumn[];
  /** At most `maxRows` rows, values as strings. */
  rows: (string | null)[][];
  /** Rows the query produced in all (more than `rows.length` when capped). */
  totalRows: number;
}

/**
 * Runs a `/v1/cubesql` query to the end and returns its rows (at most `maxRows`) and the true row
 * count: what the chat agent's `serviceSqlApi` needs (2.8: 100 rows, true `totalRows`). Throws
 * {@link SqlError} or DuckDB's error.
 */
export async function runCubeSql(
  engine: DataEngine,
  sql: string,
  scope: QueryScope,
  options: { maxRows?: number } = {},
): Promise<CubeSqlResult> {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  let schema: CubeSqlColumn[] = [];
  const rows: (string | null)[][] = [];
  let totalRows = 0;
  for await (const line of streamCubeSql(engine, sql, scope, { rowsPerLine: 2048 })) {
    if ('error' in line) throw new SqlError(line.error);
    if ('schema' in line) schema = line.schema;
    else {
      totalRows += line.data.length;
      for (const row of line.data) if (rows.length < maxRows) rows.push(row);
    }
  }
  return { schema, rows, totalRows };
}
