/**
 * The DuckDB side of the emulator: one in-memory database per emulator start, holding the raw
 * tables of `dataset.ts`, and one short-lived connection per query whose temporary views (named
 * after the views of `model.ts`) carry that caller's row-level security and time zone.
 *
 * Queries therefore name `orders`, never `raw.orders`; `cubesql.ts` refuses any other table.
 * External access (files, network) is switched off and the configuration locked once the data is
 * built, so SQL sent to the emulator cannot read the machine it runs on.
 *
 * @module
 */
import {
  DuckDBInstance,
  DuckDBTypeId,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { DATASET_SQL } from './dataset';
import { VIEWS, quoteIdent, viewBodySql } from './model';

/** What a query may see: row-level security predicates per view, and the time zone of time values. */
export interface QueryScope {
  /** View name to SQL predicates (`security.ts`). */
  readonly predicates?: ReadonlyMap<string, readonly string[]>;
  /** IANA time zone; default UTC. Must be valid ({@link isValidTimeZone}). */
  readonly timezone?: string;
}

/** A connection whose views are scoped to one caller; close it when done. */
export interface ScopedConnection {
  readonly connection: DuckDBConnection;
  /** Stops the statement running on it, which then rejects with DuckDB's interrupt error. */
  interrupt(): void;
  /**
   * True once {@link interrupt} was called. DuckDB forgets an interrupt that lands between two
   * statements (the next one clears it), so a caller checks this before it starts a statement.
   */
  readonly interrupted: boolean;
  close(): void;
}

/** The data engine of one emulator start. */
export interface DataEngine {
  /** Settles when the data set is built; rejects if it could not be. */
  readonly ready: Promise<void>;
  /** ISO time at which the data set was built: `lastRefreshTime` of every answer. */
  lastRefreshTime(): string;
  /** Opens a connection whose views carry `scope`. Waits for {@link ready}. */
  connect(scope?: QueryScope): Promise<ScopedConnection>;
  /** Scoped connections open now: one per query running or being streamed. */
  openConnections(): number;
  /** Parses SQL into DuckDB's JSON syntax tree without running it (`json_serialize_sql`). */
  parseSql(sql: string): Promise<unknown>;
  /** Turns a JSON syntax tree back into SQL text (`json_deserialize_sql`). */
  printSql(tree: unknown): Promise<string>;
  /**
   * Closes the database: interrupts every running query first (a runaway query would otherwise
   * keep a core busy and the process alive), waits up to 10 s for them to stop. Further calls reject.
   */
  close(): Promise<void>;
}

/** How often an interrupted connection is interrupted again until it closes. */
const INTERRUPT_REPEAT_MS = 25;

const BIG_INTEGER_TAG = '__emulator_bigint__:';
/** A JSON number value of 16 or more digits right after a key (never inside a string). */
const BIG_INTEGER_VALUE = /((?<!\\)"[A-Za-z_]+":)(-?\d{16,})(?=[,}\]])/g;
const TAGGED_BIG_INTEGER = /"__emulator_bigint__:(-?\d+)"/g;

/** Options of {@link createDataEngine}. */
export interface DataEngineOptions {
  /** Time of the build, for `lastRefreshTime`. Default: `Date.now()` when the build ends. */
  now?: () => number;
}

/** True when `timezone` is an IANA time zone name the runtime knows. */
export function isValidTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts building the data set at once and returns the engine; `ready` settles when it is built.
 * Takes about 0.3 s.
 */
export function createDataEngine(options: DataEngineOptions = {}): DataEngine {
  const now = options.now ?? Date.now;
  let instance: DuckDBInstance | undefined;
  let utility: DuckDBConnection | undefined;
  let builtAt = new Date(now()).toISOString();
  let closed = false;
  /** Open scoped connections, interrupted on close. */
  const open = new Set<ScopedConnection>();
  let allClosed: (() => void) | undefined;

  const ready = (async () => {
    // The instance must not fetch extensions from the network: everything needed is bundled.
    instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false' });
    const setup = await instance.connect();
    try {
      await setup.run("SET GLOBAL TimeZone = 'UTC'");
      for (const statement of DATASET_SQL) await setup.run(statement);
      await setup.run('SET enable_external_access = false');
      await setup.run('SET lock_configuration = true');
    } finally {
      setup.closeSync();
    }
    utility = await instance.connect();
    builtAt = new Date(now()).toISOString();
  })();
  // The rejection is reported through `ready` and every call; never as an unhandled rejection.
  ready.catch(() => undefined);

  async function live(): Promise<DuckDBInstance> {
    await ready;
    if (closed || !instance) throw new Error('The data engine is closed');
    return instance;
  }

  async function utilityConnection(): Promise<DuckDBConnection> {
    await live();
    if (!utility) throw new Error('The data engine is closed');
    return utility;
  }

  return {
    ready,
    lastRefreshTime: () => builtAt,
    openConnections: () => open.size,
    async connect(scope = {}) {
      const connection = await (await live()).connect();
      try {
        for (const view of VIEWS) {
          const body = viewBodySql(view, {
            predicates: scope.predicates?.get(view.name) ?? [],
            ...(scope.timezone === undefined ? {} : { timezone: scope.timezone }),
          });
          await connection.run(`CREATE TEMP VIEW ${quoteIdent(view.name)} AS ${body}`);
        }
      } catch (error) {
        connection.closeSync();
        throw error;
      }
      // close() may have begun while the views were being made: it cannot interrupt what it never saw.
      if (closed) {
        connection.closeSync();
        throw new Error('The data engine is closed');
      }
      let isOpen = true;
      let interrupted = false;
      let repeat: ReturnType<typeof setInterval> | undefined;
      const scoped: ScopedConnection = {
        connection,
        interrupt() {
          if (!isOpen || interrupted) return;
          interrupted = true;
          connection.interrupt();
          // A statement that the driver hands to DuckDB's thread just after this call clears
          // the interrupt as it starts: say it again until the connection closes.
          repeat = setInterval(() => connection.interrupt(), INTERRUPT_REPEAT_MS);
          repeat.unref?.();
        },
        get interrupted() {
          return interrupted;
        },
        close() {
          if (!isOpen) return;
          isOpen = false;
          clearInterval(repeat);
          open.delete(scoped);
          connection.closeSync();
          if (open.size === 0) allClosed?.();
        },
      };
      open.add(scoped);
      return scoped;
    },
    async parseSql(sql) {
      const reader = await (
        await utilityConnection()
      ).runAndReadAll('SELECT json_serialize_sql($1::VARCHAR) AS tree', [sql]);
      const text = String(reader.getRows()[0]?.[0]);
      // Integers beyond 2^53 (literals, "no location" markers) would lose digits in JSON.parse:
      // carry them as tagged strings and put them back in printSql.
      return JSON.parse(text.replace(BIG_INTEGER_VALUE, `$1"${BIG_INTEGER_TAG}$2"`)) as unknown;
    },
    async printSql(tree) {
      const json = JSON.stringify(tree).replace(TAGGED_BIG_INTEGER, '$1');
      const reader = await (
        await utilityConnection()
      ).runAndReadAll('SELECT json_deserialize_sql($1::JSON) AS sql', [json]);
      return String(reader.getRows()[0]?.[0]);
    },
    async close() {
      if (closed) return;
      closed = true;
      // At once, before any await: a query's next statement must find its connection interrupted.
      for (const scoped of open) scoped.interrupt();
      await ready.catch(() => undefined);
      if (open.size > 0) {
        const settled = new Promise<void>((resolve) => {
          allClosed = resolve;
        });
        let timer: ReturnType<typeof setTimeout> | undefined;
        // An interrupt lands within milliseconds; a loaded machine may take seconds. Past the
        // grace period what is left is closed anyway, so close() always leaves nothing open.
        await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, 10_000)))]);
        clearTimeout(timer);
        for (const scoped of [...open]) scoped.close();
      }
      utility?.closeSync();
      instance?.closeSync();
      utility = undefined;
      instance = undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Values as the data API sends them
// ---------------------------------------------------------------------------------------------

/**
 * The data API's name for a DuckDB column type (behaviour 3: `String`, `Int64`, `Double`,
 * `Timestamp`, `Boolean`).
 */
export function columnTypeName(type: DuckDBType): string {
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- DuckDB has some 40 type ids: a few are told apart, the rest is text
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return 'Boolean';
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return 'Int64';
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return 'Double';
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.DATE:
      return 'Timestamp';
    default:
      return 'String';
  }
}

const TIMESTAMP_TEXT = /^(-?\d{4,}-\d{2}-\d{2})(?: (\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?([+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Formats a timestamp as the data API does: `2024-01-02T03:04:05.000` (local time of the query's
 * time zone, no offset). Dates get midnight.
 */
function formatTimestamp(text: string): string {
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return text;
  const [, date, time = '00:00:00', fraction = '', offset] = match;
  const base = `${date}T${time}.${fraction.padEnd(3, '0').slice(0, 3)}`;
  if (offset === undefined) return base;
  // A TIMESTAMPTZ (only from hand-written SQL): normalise to UTC with a `Z`.
  const parsed = Date.parse(`${date}T${time}${offset.length === 3 ? `${offset}:00` : offset}`);
  return Number.isNaN(parsed) ? base : new Date(parsed).toISOString();
}

/**
 * SQL turning `column` (of `type`) into the text the data API sends: timestamps as
 * `YYYY-MM-DDTHH:mm:ss.SSS` (local time of the query's time zone, no offset; a `TIMESTAMPTZ` in UTC
 * with `Z`), everything else as DuckDB prints it. `NULL` stays `NULL`.
 */
export function cellTextSql(column: string, type: DuckDBType): string {
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- DuckDB has some 40 type ids: a few are told apart, the rest is text
  switch (type.typeId) {
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.DATE:
      return `strftime(CAST(${column} AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%g')`;
    case DuckDBTypeId.TIMESTAMP_TZ:
      return `strftime(timezone('UTC', ${column}), '%Y-%m-%dT%H:%M:%S.%gZ')`;
    default:
      return `CAST(${column} AS VARCHAR)`;
  }
}

/** A function turning a cell of a column of this type into the string the data API sends (or `null`). */
export function cellFormatter(type: DuckDBType): (value: DuckDBValue) => string | null {
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- DuckDB has some 40 type ids: a few are told apart, the rest is text
  switch (type.typeId) {
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.DATE:
      return (value) => (value === null ? null : formatTimestamp(String(value)));
    default:
      return (value) => (value === null ? null : String(value));
  }
}
