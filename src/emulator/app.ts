/**
 * Composes the emulator: one {@link EmulatorContext} per start, every feature's sub-app mounted
 * with `app.route()`, errors turned into responses in one `onError`.
 *
 * To add a feature (sessions and management, chat, embed pages): write `features/<name>.ts`
 * exporting an `EmulatorFeature` (see `context.ts`; `features/data.ts` is the model) and add it to
 * {@link FEATURES}. Shared state goes in `state.ts`; authentication comes from `auth.ts`; errors
 * are thrown with the helpers of `http.ts`.
 *
 * @module
 */
import { Hono } from 'hono';
import { ServiceConfigError } from '../core/errors';
import { parseChatFaults } from './chat/faults';
import { systemClock } from './clock';
import type {
  EmulatorContext,
  EmulatorEnv,
  EmulatorFeature,
  EmulatorOptions,
  ResolvedEmulatorOptions,
} from './context';
import { DEFAULT_QUERY_TIMEOUT_MS } from './data/cubesql';
import { createDataEngine } from './data/engine';
import { chatFeature } from './features/chat';
import { dataFeature } from './features/data';
import { embedPagesFeature } from './features/embed-pages';
import { managementFeature } from './features/management';
import { sessionsFeature } from './features/sessions';
import { corsMiddleware, handleError, jsonResponse } from './http';
import { SWEEP_INTERVAL_MS, createState, sweepExpired } from './state';
import { MAX_QUERY_BYTES, MAX_QUERY_ROWS, WORLD } from './world';

/** The features, mounted in this order. */
export const FEATURES: readonly EmulatorFeature[] = [
  dataFeature,
  sessionsFeature,
  managementFeature,
  chatFeature,
  embedPagesFeature,
];

/** Paths browser apps call with a token from another origin: the data API and the chat API. */
const CORS_PATHS = ['/data/*', '/api/v1/public/*'] as const;

/** Hosts the emulator may listen on: loopback only. */
const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]']);

/** True when `host` is a loopback interface (`localhost`, `127.x.x.x`, `::1`). */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Applies defaults and refuses options that cannot work (a non-loopback host, a bad port). */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedEmulatorOptions {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new ServiceConfigError(
      `startEmulator: host "${host}" is not a loopback address. The emulator's API keys and secrets are published, so it only listens on 127.0.0.1, localhost or ::1.`,
      { code: 'non_loopback_host' },
    );
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ServiceConfigError(`startEmulator: port must be a whole number from 0 to 65535 (got ${String(port)})`);
  }
  const rowsPerLine = options.cubesqlRowsPerLine ?? 1000;
  if (!Number.isInteger(rowsPerLine) || rowsPerLine < 1) {
    throw new ServiceConfigError(
      `startEmulator: cubesqlRowsPerLine must be a whole number of 1 or more (got ${String(rowsPerLine)})`,
    );
  }
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  if (!Number.isFinite(queryTimeoutMs) || queryTimeoutMs <= 0) {
    throw new ServiceConfigError(
      `startEmulator: queryTimeoutMs must be a positive number of milliseconds (got ${String(queryTimeoutMs)})`,
    );
  }
  const maxQueryRows = options.maxQueryRows ?? MAX_QUERY_ROWS;
  const maxQueryBytes = options.maxQueryBytes ?? MAX_QUERY_BYTES;
  for (const [name, value] of [
    ['maxQueryRows', maxQueryRows],
    ['maxQueryBytes', maxQueryBytes],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new ServiceConfigError(`startEmulator: ${name} must be a whole number of 1 or more (got ${String(value)})`);
    }
  }
  if (typeof options.chatFault === 'string') {
    const parsed = parseChatFaults(options.chatFault);
    if (!parsed.ok) throw new ServiceConfigError(`startEmulator: chatFault: ${parsed.problem}`);
  }
  return {
    host,
    port,
    chatPace: options.chatPace ?? 'realistic',
    cubesqlRowsPerLine: rowsPerLine,
    queryTimeoutMs,
    maxQueryRows,
    maxQueryBytes,
    ...(options.chatFault === undefined ? {} : { chatFault: options.chatFault }),
  };
}

/** The emulator as a Hono app, before it listens anywhere. */
export interface EmulatorApp {
  /** The app: `app.fetch(request)` or `app.request(path, init)` in tests. */
  app: Hono<EmulatorEnv>;
  /** World, state, data engine, clock and options of this instance. */
  context: EmulatorContext;
  /** Settles when the data set is built (about 0.3 s); data requests wait for it by themselves. */
  ready: Promise<void>;
  /** Frees the data engine. */
  close(): Promise<void>;
}

/**
 * Builds the emulator app with fresh state; the data set starts building at once. Use it with
 * `app.request()` in tests that need no socket; `startEmulator()` serves it over HTTP.
 */
export function createEmulatorApp(options: EmulatorOptions = {}): EmulatorApp {
  const resolved = resolveOptions(options);
  const clock = options.clock ?? systemClock;
  const context: EmulatorContext = {
    world: WORLD,
    state: createState(WORLD, clock),
    data: createDataEngine({ now: () => clock.now() }),
    clock,
    options: resolved,
  };
  const app = new Hono<EmulatorEnv>();
  let lastSweep = clock.now();
  app.use('*', async (_c, next) => {
    const now = clock.now();
    if (now - lastSweep >= SWEEP_INTERVAL_MS || now < lastSweep) {
      lastSweep = now;
      sweepExpired(context.state, now);
    }
    await next();
  });
  // Before the features: a preflight carries no credential and must not meet their auth.
  for (const path of CORS_PATHS) app.use(path, corsMiddleware());
  for (const feature of FEATURES) app.route(feature.basePath, feature.create(context));
  app.notFound((c) => jsonResponse(404, { error: `Not found: ${c.req.method} ${c.req.path}` }));
  app.onError(handleError);
  return { app, context, ready: context.data.ready, close: () => context.data.close() };
}
