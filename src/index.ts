/**
 * `@service/react`: the React entry (provider, hooks, embeds and the chat UI).
 *
 * It also re-exports the framework-free core, as `@tanstack/react-query` re-exports
 * `query-core`, so an app needs one import path. Server code (and React Server Components) should
 * import `@service/react/core` instead: this entry is a `'use client'` boundary.
 *
 * @module
 */
export { StreamingMarkdown } from './components/markdown';
export type { StreamingMarkdownProps } from './components/markdown';
export * from './core';
