/**
 * The chat's default view of a `serviceSqlApi` step (`SqlToolView` with its table and chart), loaded
 * with `import()`: most of a chat's bundle otherwise, and nothing a reader sees before the agent
 * runs a query. The build puts it in a chunk of its own (`rollup.config.mjs`), which partners who
 * import `SqlToolView` directly load up front as before. `AgentChat` starts the load when it
 * mounts, and a step starts it too (a `ChatToolCallView` rendered without the chat), so the view
 * is there before a query's result is.
 *
 * A store rather than `React.lazy`: once loaded, every later step renders at once (no suspended
 * first render, no flash of the skeleton), the server and the hydrating client agree on the
 * skeleton, and a failed load is retried by the next chat that mounts instead of kept forever.
 *
 * @module
 */
import { useSyncExternalStore } from 'react';
import { createSubscribable } from '../../core/store';
import type { SqlToolView } from '../results/SqlToolView';

/** Where the load is: `loading` until the chunk arrives (or before it was asked for), then `ready` or `failed`. */
export type SqlViewState =
  | { status: 'loading'; view?: undefined }
  | { status: 'ready'; view: typeof SqlToolView }
  | { status: 'failed'; view?: undefined };

const LOADING: SqlViewState = { status: 'loading' };
const FAILED: SqlViewState = { status: 'failed' };

const listeners = /*#__PURE__*/ createSubscribable();
let state: SqlViewState = LOADING;
let pending: Promise<void> | undefined;

/** Starts loading the view (once per page; again after a failure). Browser only: the server renders the skeleton. */
export function preloadSqlView(): Promise<void> {
  pending ??= import('../results/SqlToolView').then(
    (module) => {
      state = { status: 'ready', view: module.SqlToolView };
      listeners.notify();
    },
    () => {
      pending = undefined;
      state = FAILED;
      listeners.notify();
    },
  );
  return pending;
}

const current = () => state;
const onServer = () => LOADING;

/** The view's load state; re-renders when it changes. The first render of a hydrating page is `loading`, as on the server. */
export function useSqlView(): SqlViewState {
  return useSyncExternalStore(listeners.subscribe, current, onServer);
}
