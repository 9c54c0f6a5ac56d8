/**
 * What every feature of the emulator receives, and the shape of a feature.
 *
 * A feature is one file in `features/` exporting an {@link EmulatorFeature}: a function of the
 * {@link EmulatorContext} that returns a Hono sub-app, and the path `app.ts` mounts it on. Adding
 * a feature is that file plus one line in `app.ts`'s list.
 *
 * @module
 */
import type { Hono } from 'hono';
import type { Clock } from './clock';
import type { DataEngine } from './data/engine';
import type { EmulatorState } from './state';
import type { World } from './world';
import type { AuthenticatedCaller } from './auth';

/**
 * How fast the scripted chat agent answers. `realistic`: thinking and content arrive in small
 * deltas over a few seconds, like the live service. `instant`: no pauses, for fast tests.
 */
export type ChatPace = 'realistic' | 'instant';

/** What {@link ChatFaultOption} is told about a chat request before it is answered. */
export interface ChatFaultRequest {
  /** `stream`: `.../chat/stream-chat-state`; `abort`: `.../chat/abort`. */
  endpoint: 'stream' | 'abort';
  /** The parsed JSON body (`undefined` when empty or not JSON). */
  body: unknown;
  /**
   * 1 for the first request carrying this body's `messageId`, 2 for its first resend, and so on;
   * 1 for requests without a `messageId`. Lets a fault hit the first try and spare the resend.
   */
  attempt: number;
}

/**
 * Faults injected into chat requests, for tests: directives in the syntax of the
 * `x-emulator-fault` request header (`cut-after=5`, `suspend-after=4`, `delay=200`, `status=503`,
 * `server-error`, ...; see `chat/faults.ts`). A string applies to every chat request; a function
 * decides per request (return `undefined` for none). A request's own header replaces it.
 */
export type ChatFaultOption = string | ((request: ChatFaultRequest) => string | undefined);

/** Options of `startEmulator()` and `createEmulatorApp()`. */
export interface EmulatorOptions {
  /** TCP port; `0` picks a free one. Default `0`. Ignored by `createEmulatorApp`. */
  port?: number;
  /**
   * Interface to listen on. Loopback only: `127.0.0.1` (default), `localhost` or `::1`; any other
   * host is refused, because the emulator has fixed, published keys and secrets.
   */
  host?: string;
  /** Pace of the chat agent. Default `realistic`. */
  chatPace?: ChatPace;
  /** Faults injected into chat requests, for tests. Default none. */
  chatFault?: ChatFaultOption;
  /**
   * Source of time for expiries and sweeping. Default the system clock. Relative date ranges of
   * the data API do not read it: they resolve against the data's last day (`DATA_REFERENCE_DAY`).
   */
  clock?: Clock;
  /** Rows per `{"data"}` line of `/v1/cubesql`. Default 1,000. */
  cubesqlRowsPerLine?: number;
  /**
   * Longest time a `/v1/cubesql` query may take, in milliseconds, before it is interrupted and
   * answered with a final `{"error":"Query timeout: ..."}` line. Default 30,000 (30 s). Keeps a
   * runaway query (`SELECT count(*) FROM range(300000000000)`) from holding a core.
   */
  queryTimeoutMs?: number;
  /**
   * Most rows one data API query may return (`/v1/cubesql` and each query of `/v1/load`); more is
   * an error, not a truncated result. Default `MAX_QUERY_ROWS` (1,000,000).
   */
  maxQueryRows?: number;
  /**
   * Most bytes of values (their text, UTF-8) one data API query may return; more is an error.
   * Default `MAX_QUERY_BYTES` (64 MiB).
   */
  maxQueryBytes?: number;
}

/** {@link EmulatorOptions} with every default applied. */
export interface ResolvedEmulatorOptions {
  port: number;
  host: string;
  chatPace: ChatPace;
  cubesqlRowsPerLine: number;
  queryTimeoutMs: number;
  maxQueryRows: number;
  maxQueryBytes: number;
  chatFault?: ChatFaultOption;
}

/** Everything a feature may use. One per emulator start. */
export interface EmulatorContext {
  /** The fixed world (read only). */
  readonly world: World;
  /** The mutable state of this start. */
  readonly state: EmulatorState;
  /** DuckDB with the data set; `data.ready` settles when it is built. */
  readonly data: DataEngine;
  /** Time for every expiry. */
  readonly clock: Clock;
  /** The options of this start, defaults applied. */
  readonly options: ResolvedEmulatorOptions;
}

/** Hono environment of every sub-app: what the auth middleware puts on the context. */
export interface EmulatorEnv {
  /** Hono's per-request variables. */
  Variables: {
    /** Set by the auth middleware of `auth.ts` for the route. */
    caller: AuthenticatedCaller;
  };
}

/** A feature: a sub-app mounted by `app.ts` at `basePath`. */
export interface EmulatorFeature {
  /** Short name, for logs and errors. */
  readonly name: string;
  /** Path the sub-app is mounted on with `app.route()`; `/` for features with absolute paths. */
  readonly basePath: string;
  /** Builds the sub-app. Called once per emulator start. */
  create(context: EmulatorContext): Hono<EmulatorEnv>;
}
