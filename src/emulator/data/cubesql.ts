/**
 * SQL of `/v1/cubesql` (behaviour 3): one `SELECT` over the views of the model, with measures
 * written as `MEASURE(view.measure)` (or `MEASURE(alias.measure)`, or `MEASURE(measure)` when only
 * one view has it). The SQL is parsed by DuckDB itself (`json_serialize_sql`), checked, rewritten
 * on the syntax tree (each `MEASURE()` becomes its aggregate from `model.ts`) and printed back, so
 * string literals and comments can never be mistaken for SQL.
 *
 * Allowed: the views (`orders`, `customers`, `products`), the query's own CTEs (in scope: a CTE
 * name is only a CTE inside the query that defines it, after its definition), and the table
 * functions `range`, `generate_series` and `unnest`. Anything else (raw tables, the system
 * catalogue, `SHOW`/`DESCRIBE`/`SUMMARIZE`, files, other table functions, functions that describe
 * the engine such as `version()` or `current_setting()`, several statements, anything but
 * `SELECT`) is refused with a SQL error. The engine's own error texts never reach the client:
 * {@link serviceSqlError} rewrites them as the service words its errors.
 *
 * Every query is bounded in time (`timeoutMs`, default {@link DEFAULT_QUERY_TIMEOUT_MS}) and
 * interrupted when its `signal` aborts (the client left) or the engine closes.
 *
 * @module
 */
import type { CubeSqlColumn } from '../../core/protocol/data';
import { type DataEngine, type QueryScope, type ScopedConnection, cellTextSql, columnTypeName } from './engine';
import { VIEWS, findView, measureSql, sqlString, type MeasureModel, type ViewModel } from './model';
import { MAX_QUERY_BYTES, MAX_QUERY_ROWS } from '../world';

/** A SQL problem, reported to the caller as an `{"error"}` line. */
export class SqlError extends Error {
  override readonly name = 'SqlError';
}

const ALLOWED_TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);

/** How long a query may run by default, in milliseconds. */
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/** Table references that read the catalogue rather than a table: `SHOW`, `DESCRIBE`, `SUMMARIZE`. */
const REFUSED_TABLE_REFS = new Set(['SHOW_REF', 'COLUMN_DATA', 'DELIM_GET']);

/** Functions that describe the engine, its settings or its catalogue, never the data. */
const REFUSED_FUNCTIONS = new Set([
  'version',
  'current_setting',
  'current_schema',
  'current_schemas',
  'current_database',
  'current_catalog',
  'current_query',
  'current_role',
  'current_user',
  'session_user',
  'user',
  'getvariable',
  'getenv',
  'col_description',
  'obj_description',
  'shobj_description',
  'format_type',
  'format_pg_type',
  'query',
  'query_table',
  'sql_auto_complete',
  'which_secret',
  'json_serialize_sql',
  'json_deserialize_sql',
  'json_serialize_plan',
  'json_execute_serialized_sql',
]);
const REFUSED_FUNCTION_PREFIXES = ['duckdb_', 'pg_', 'pragma_', 'has_', 'txid_', 'read_', 'glob', 'icu_'];

function isRefusedFunction(name: string): boolean {
  return REFUSED_FUNCTIONS.has(name) || REFUSED_FUNCTION_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** The message of a DuckDB error as the service words it: stage prefix, first sentence, no hints. */
export function serviceSqlError(error: unknown): string {
  if (error instanceof SqlError) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = text.split('\n')[0]!.trim();
  const match = /^([A-Za-z ]+?) Error: (.*)$/.exec(firstLine);
  const kind = match?.[1]?.toLowerCase() ?? '';
  // "Did you mean ..." and candidate lists name things outside the model (system views, raw tables).
  const detail = (match?.[2] ?? firstLine).replace(/\s*Did you mean.*$/i, '').trim() || 'the query could not be run';
  if (kind === 'parser') return `Error during parsing: ${detail}`;
  if (kind === 'binder' || kind === 'catalog') return `Error during planning: ${detail}`;
  return `Error during execution: ${detail}`;
}

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

/** The CTE names of a node's `cte_map`, in definition order, with their bodies. */
function cteEntries(object: JsonObject): { name: string; body: Json }[] {
  const cteMap = object['cte_map'];
  if (!isObject(cteMap) || !Array.isArray(cteMap['map'])) return [];
  return cteMap['map'].flatMap((entry) =>
    isObject(entry) && typeof entry['key'] === 'string'
      ? [{ name: entry['key'].toLowerCase(), body: entry['value'] }]
      : [],
  );
}

/**
 * Checks every table reference and function of the tree and collects the views it reads. A table
 * name is a CTE only where that CTE is in scope: inside the query node that defines it, in the
 * bodies of the CTEs defined after it (and its own, for recursive CTEs). Anywhere else the same
 * name is a table, and must be a view of the model.
 */
function collectReferences(tree: Json): References {
  const references: References = { ctes: new Set(), aliases: new Map(), views: new Set() };

  function visitTable(object: JsonObject, scope: ReadonlySet<string>): void {
    const name = object['table_name'];
    if (typeof name !== 'string') return;
    const qualified =
      (typeof object['schema_name'] === 'string' && object['schema_name'] !== '') ||
      (typeof object['catalog_name'] === 'string' && object['catalog_name'] !== '');
    if (!qualified && scope.has(name.toLowerCase())) return;
    const view = qualified ? undefined : findView(name.toLowerCase());
    if (!view) {
      const written = [object['catalog_name'], object['schema_name'], name]
        .filter((part) => typeof part === 'string' && part !== '')
        .join('.');
      throw new SqlError(
        `Table or view "${written}" is not available: query the views ${VIEWS.map((candidate) => candidate.name).join(', ')}`,
      );
    }
    references.views.add(view);
    if (typeof object['alias'] === 'string' && object['alias'] !== '')
      references.aliases.set(object['alias'].toLowerCase(), view);
  }

  function visit(node: Json, scope: ReadonlySet<string>): void {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, scope);
      return;
    }
    if (!isObject(node)) return;
    const type = node['type'];
    if (typeof type === 'string' && REFUSED_TABLE_REFS.has(type))
      throw new SqlError('Only SELECT queries over the views are allowed');
    if (type === 'BASE_TABLE') visitTable(node, scope);
    else if (type === 'TABLE_FUNCTION') {
      const fn = node['function'];
      const name = isObject(fn) && typeof fn['function_name'] === 'string' ? fn['function_name'].toLowerCase() : '?';
      if (!ALLOWED_TABLE_FUNCTIONS.has(name)) throw new SqlError(`Table function ${name}() is not available`);
    } else if (node['class'] === 'FUNCTION' || node['class'] === 'AGGREGATE' || node['class'] === 'WINDOW') {
      const name = typeof node['function_name'] === 'string' ? node['function_name'].toLowerCase() : '';
      if (isRefusedFunction(name)) throw new SqlError(`Function ${name}() is not available`);
    }
    const entries = cteEntries(node);
    let inner = scope;
    if (entries.length > 0) {
      const growing = new Set(scope);
      for (const entry of entries) {
        growing.add(entry.name);
        references.ctes.add(entry.name);
        visit(entry.body, new Set(growing));
      }
      inner = growing;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'cte_map') visit(value, inner);
    }
  }

  visit(tree, new Set());
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
  if (
    !Array.isArray(names) ||
    names.length < 1 ||
    names.length > 2 ||
    !names.every((name) => typeof name === 'string')
  ) {
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
  if (candidates.length > 1)
    throw new SqlError(`MEASURE(${measureName}) is ambiguous: write MEASURE(view.${measureName})`);
  const measure = view.measures.find((candidate) => candidate.name === measureName.toLowerCase());
  if (!measure) throw new SqlError(`MEASURE(${measureName}): no view of the query has this measure`);
  return { qualifier: undefined, measure, label: `measure(${measureName})` };
}

function isMeasureCall(node: Json): node is JsonObject {
  return (
    isObject(node) &&
    node['class'] === 'FUNCTION' &&
    typeof node['function_name'] === 'string' &&
    node['function_name'].toLowerCase() === 'measure'
  );
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
    throw new SqlError(
      /only SELECT/i.test(message)
        ? 'Only SELECT queries are allowed'
        : serviceSqlError(new Error(/ Error: /.test(message) ? message : `Parser Error: ${message}`)),
    );
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
      const selected =
        isObject(nodeOfTree) && Array.isArray(nodeOfTree['select_list']) ? nodeOfTree['select_list'][0] : undefined;
      if (!isObject(selected)) throw new SqlError(`Could not expand ${call.label}`);
      template = selected;
      replacements.set(expression, template);
    }
    const alias =
      typeof node['alias'] === 'string' && node['alias'] !== '' ? node['alias'] : topLevel ? call.label : '';
    const location = node['query_location'];
    // Replace the call in place: every parent keeps its reference to this object.
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(
      node,
      structuredClone(template),
      { alias },
      location === undefined ? {} : { query_location: location },
    );
  }
  return engine.printSql(parsed);
}

/** Options of {@link streamCubeSql}. */
export interface StreamCubeSqlOptions {
  /** Rows per `{"data"}` line. Default 1,000. */
  rowsPerLine?: number;
  /** Sent in the schema line. */
  lastRefreshTime?: string;
  /** Longest run, in milliseconds, before the query is interrupted with a timeout error line. Default {@link DEFAULT_QUERY_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Interrupts the query when it aborts (the client went away); no further line is produced. */
  signal?: AbortSignal;
  /** Most rows of the result; more ends it with an `{"error"}` line before any data. Default `MAX_QUERY_ROWS`. */
  maxRows?: number;
  /** Most bytes of values (their text, UTF-8) of the result; more ends it with an `{"error"}` line. Default `MAX_QUERY_BYTES`. */
  maxBytes?: number;
}

/** Why a result over `maxRows` rows or `maxBytes` bytes is refused: `what` is `N rows` or `N bytes of values`. */
export function resultTooLarge(what: string, option: string): string {
  return `The result has more than ${what} (the emulator's ${option}): add a LIMIT, filter or aggregate`;
}

/**
 * The query that reads a checked query's result as text (`texts`: one SQL expression a column,
 * over `c0`, `c1`...): at most `maxRows + 1` rows, and an error raised inside the engine as soon
 * as the values read so far pass `maxBytes`. Both stop the engine where they are: a limit and a
 * running sum (a streaming window, which keeps the order) need no more rows than they pass.
 */
function cappedResultSql(compiled: string, texts: readonly string[], maxRows: number, maxBytes: number): string {
  const aliases = texts.map((_, index) => `c${index}`).join(', ');
  const values = texts.map((text, index) => `${text} AS v${index}`).join(', ');
  const names = texts.map((_, index) => `v${index}`).join(', ');
  const size = texts.map((_, index) => `coalesce(strlen(v${index}), 0)`).join(' + ');
  const tooLarge = sqlString(resultTooLarge(`${maxBytes} bytes of values`, 'maxQueryBytes'));
  return (
    `SELECT ${names} FROM (` +
    `SELECT *, sum(${size}) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS total_size ` +
    `FROM (SELECT ${values} FROM (${compiled}) AS t(${aliases}) LIMIT ${maxRows + 1}) AS capped` +
    `) AS sized WHERE CASE WHEN total_size > ${maxBytes} THEN error(${tooLarge}) ELSE TRUE END`
  );
}

/** A line of the `/v1/cubesql` answer, before JSON encoding. */
export type CubeSqlOutputLine =
  { schema: CubeSqlColumn[]; lastRefreshTime?: string } | { data: (string | null)[][] } | { error: string };

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
  const timeoutMs = options.timeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const { maxRows = MAX_QUERY_ROWS, maxBytes = MAX_QUERY_BYTES } = options;
  const { signal } = options;
  let scoped: ScopedConnection | undefined;
  let timedOut = false;
  const interrupt = () => scoped?.interrupt();
  const timer = setTimeout(() => {
    timedOut = true;
    interrupt();
  }, timeoutMs);
  signal?.addEventListener('abort', interrupt, { once: true });
  const checkTime = () => {
    if (timedOut) throw new SqlError(`Query timeout: the query ran longer than ${timeoutMs / 1000} s`);
  };
  /**
   * Before each statement. DuckDB forgets an interrupt that came while no statement ran, and one
   * that came before the connection existed reached nothing: without this check the next
   * statement would run to its end (minutes for a runaway query) after the client left or the
   * engine began to close.
   */
  const checkInterrupted = (on: ScopedConnection) => {
    checkTime();
    if (on.interrupted || signal?.aborted) throw new SqlError('Error during execution: Interrupted!');
  };
  try {
    const compiled = await compileCubeSql(engine, sql);
    if (signal?.aborted) return;
    scoped = await engine.connect(scope);
    const { connection } = scoped;
    checkInterrupted(scoped);
    const prepared = await connection.prepare(compiled);
    const count = prepared.columnCount;
    const schema: CubeSqlColumn[] = [];
    const texts: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const type = prepared.columnType(index);
      schema.push({ name: prepared.columnName(index), column_type: columnTypeName(type) });
      texts.push(cellTextSql(`c${index}`, type));
    }
    // The schema is known once the query is bound: send it before the query runs.
    yield options.lastRefreshTime === undefined ? { schema } : { schema, lastRefreshTime: options.lastRefreshTime };
    // Materialised, not `connection.stream()`: @duckdb/node-api ends a streaming result with an
    // empty chunk instead of an error when a row fails, which would truncate the answer silently.
    // The lines are still produced one at a time as the client reads; DuckDB turns the values into
    // text, far cheaper than converting each value in JavaScript.
    checkInterrupted(scoped);
    const result = await connection.run(cappedResultSql(compiled, texts, maxRows, maxBytes));
    if (result.rowCount > maxRows) {
      yield { error: `Error during execution: ${resultTooLarge(`${maxRows} rows`, 'maxQueryRows')}` };
      return;
    }
    let pending: (string | null)[][] = [];
    for (;;) {
      checkTime();
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
    if (signal?.aborted) return;
    yield {
      error: timedOut ? `Query timeout: the query ran longer than ${timeoutMs / 1000} s` : serviceSqlError(error),
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', interrupt);
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
