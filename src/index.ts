/**
 * `@service/react`: the React entry (provider, hooks, embeds and the chat UI).
 *
 * It also re-exports the framework-free core, as `@tanstack/react-query` re-exports
 * `query-core`, so an app needs one import path. Server code (and React Server Components) should
 * import `@service/react/core` instead: this entry is a `'use client'` boundary.
 *
 * @module
 */

// React layer: provider and hooks
export { ServiceProvider, useServiceContext, useStore } from './react';
export type {
  ServiceProviderProps,
  ServiceContextValue,
  EmbedSessionRequest,
  GetEmbedSession,
  EmbedDefaults,
  ChatSettings,
  DataSettings,
  ExternalStore,
} from './react';

// Components
export { SqlToolView, ResultTable, ResultChart, DEFAULT_SQL_TOOL_LABELS } from './components/results';
export type { SqlToolViewProps, ResultTableProps, ResultChartProps, SqlToolLabels } from './components/results';

// The framework-free core
export * from './core';
