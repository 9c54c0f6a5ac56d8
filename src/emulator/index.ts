/**
 * `@service/react/emulator`: the service on a laptop. One Node process on loopback, every
 * endpoint the library talks to, real state in memory (fresh per start) and a real data set in
 * DuckDB. Its fixed world (account `acme`, deployments, keys, users, dashboards, agent, data) is
 * documented in `world.ts` and stable across releases.
 *
 * ```ts
 * const emulator = await startEmulator();
 * // emulator.url, emulator.aiUrl, emulator.dataUrl, emulator.apiKey
 * await emulator.close();
 * ```
 *
 * @module
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createEmulatorApp } from './app';
import type { EmulatorContext, EmulatorOptions } from './context';
import { ADMIN_API_KEY, AGENT_1, DEPLOYMENT_1, WORLD, agentUrl, dataUrl, type World } from './world';

export { createEmulatorApp, isLoopbackHost, type EmulatorApp } from './app';
export type { ChatPace, EmulatorContext, EmulatorEnv, EmulatorFeature, EmulatorOptions } from './context';
export type { ChatFaultOption, ChatFaultRequest } from './context';
export { createManualClock, systemClock, type Clock, type ManualClock } from './clock';
export { signDeploymentToken, type SignDeploymentTokenOptions } from './auth';
export { SLOW_QUERY_HEADER } from './features/data';
export { CHAT_FAULT_HEADER, CHAT_PACE_HEADER } from './features/chat';
export { fetchWithFaultOnce } from './chat/faults';
export {
  UPSERT_CONFLICTS_CONTROL_PATH,
  clearUpsertConflicts,
  injectUpsertConflict,
  setUpsertGapHook,
  type InjectUpsertConflictOptions,
  type UpsertGapHook,
  type UpsertGapInfo,
  BUILD_DURATION_MS,
  SCIM_MAX_COUNT,
} from './features/management';
export {
  ECHO_PARAMETER as EMBED_ECHO_PARAMETER,
  STATE_EVENT_TYPE as EMBED_STATE_EVENT_TYPE,
  SESSION_EXPIRING_LEAD_MS,
  type EmbedPageState,
  type EmbedPageWidgetState,
} from './embed/config';
export { VIEWS, metaResponse, type ViewModel, type MeasureModel, type DimensionModel } from './data/model';
export {
  CUSTOMER_COUNT,
  ORDER_COUNT,
  PRODUCT_COUNT,
  ORDER_STATUSES,
  FIRST_ORDER_DAY,
  LAST_ORDER_DAY,
} from './data/dataset';
export * from './world';

/** A running emulator. */
export interface RunningEmulator {
  /** `{base_url}`: `http://<host>:<port>`, no trailing slash. */
  url: string;
  /** `{ai_url}` of agent `1`: `{url}/api/v1/public/acme/agents/1`. */
  aiUrl: string;
  /** `{data_url}` of deployment 1: `{url}/data/1`. */
  dataUrl: string;
  /** The unscoped admin key ({@link ADMIN_API_KEY}). */
  apiKey: string;
  /** The fixed world. */
  world: World;
  /** World, state, data engine and clock of this instance, for tests that inspect or steer it. */
  context: EmulatorContext;
  /** Stops listening, drops open connections and frees the data set. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Starts the emulator on loopback and resolves once it listens and its data set is built (well
 * under 2 seconds). Each call is an independent emulator with fresh state.
 * @throws ServiceConfigError for a non-loopback `host` or a bad `port`.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = createEmulatorApp(options);
  const { host, port } = emulator.context.options;
  let server: ReturnType<typeof serve> | undefined;
  try {
    const address = await new Promise<AddressInfo>((resolve, reject) => {
      server = serve({ fetch: emulator.app.fetch, hostname: host, port }, resolve);
      server.once('error', reject);
    });
    await emulator.ready;
    const url = `http://${urlHost(host === '::1' || host === '[::1]' ? '::1' : host)}:${address.port}`;
    const running = server;
    let closing: Promise<void> | undefined;
    return {
      url,
      aiUrl: agentUrl(url, AGENT_1.id),
      dataUrl: dataUrl(url, DEPLOYMENT_1.id),
      apiKey: ADMIN_API_KEY,
      world: WORLD,
      context: emulator.context,
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve, reject) => {
            if (!running) return resolve();
            // Keep-alive and streaming sockets would hold close() open forever.
            if ('closeAllConnections' in running) running.closeAllConnections();
            running.close((error) => (error ? reject(error) : resolve()));
          });
          await emulator.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    if (server && 'closeAllConnections' in server) server.closeAllConnections();
    server?.close();
    await emulator.close();
    throw error;
  }
}
