/**
 * Size budgets checked by `npm test` (`npm run size`): min + gzip bundles of `dist/`, as partners'
 * bundlers would build them, peers left out where the name says so.
 *
 * A JS file (not JSON) for the emulator's entry: it runs in Node, so its budget is its own code,
 * bundled for Node with every package left external.
 */

/**
 * Peers and optional peers (the partner's app has them), and what is loaded with import() only
 * when needed: the highlighter, and re2js (about 46 kB) for a chart whose spec runs a regular expression.
 */
export const PEERS = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  '@tanstack/react-query',
  'vega-embed',
  'vega-lite',
  'vega-interpreter',
  'sql-highlight',
  're2js',
];
/** The chart runtime, as the chunks that load it with import() name it. */
const CHART_RUNTIME = ['../_lazy/vega-*', './vega-*'];
/** Every chunk loaded with import() (the chart runtime, the chat's SQL view), as the entry and the chunks name them. */
const LAZY = ['../_lazy/*', './_lazy/*'];

/** @type {import('size-limit').SizeLimitConfig} */
export default [
  { name: '@service/react/core, everything', path: 'dist/core/index.js', import: '*', limit: '19.25 kB', gzip: true },
  {
    name: '@service/react/core, createEmbedChannel alone',
    path: 'dist/core/index.js',
    import: '{ createEmbedChannel }',
    limit: '3 kB',
    gzip: true,
  },
  {
    name: '@service/react, ServiceProvider and EmbeddedDashboard (without React and TanStack Query)',
    path: 'dist/index.js',
    import: '{ ServiceProvider, EmbeddedDashboard }',
    // The lazy chunks too: esbuild (no code splitting here) would inline every import() target.
    ignore: ['react', 'react-dom', '@tanstack/react-query', 'sql-highlight', ...LAZY],
    limit: '7.8 kB',
    gzip: true,
  },
  {
    name: '@service/react, { SqlToolView } without vega and sql-highlight (loaded on demand), React and TanStack Query',
    path: 'dist/index.js',
    import: '{ SqlToolView }',
    limit: '13.7 kB',
    gzip: true,
    ignore: [...PEERS, ...CHART_RUNTIME],
  },
  {
    name: 'the chart runtime (dist/_lazy: spec sanitizer, runtime guards, theme; loaded with import() when a chart mounts; without vega)',
    path: 'dist/_lazy/vega-*.js',
    // What it imports from the chunks and from the SQL view is loaded already: the chart loads it.
    ignore: ['vega-embed', 'vega-lite', 'vega-interpreter', 're2js', '../_chunks/*', './sql-view-*'],
    limit: '9 kB',
    gzip: true,
  },
  {
    name: "the chat's SQL step view (dist/_lazy: SqlToolView, ResultTable, ResultChart; loaded with import() when AgentChat mounts; without React, TanStack Query, vega and sql-highlight)",
    path: 'dist/_lazy/sql-view-*.js',
    ignore: [...PEERS, '../_chunks/*', './vega-*'],
    limit: '7 kB',
    gzip: true,
  },
  {
    name: 'sql-highlight, the highlighter of the SQL view (loaded with import() when a SQL block opens)',
    path: 'node_modules/sql-highlight/lib/index.js',
    import: '{ getSegments }',
    limit: '2 kB',
    gzip: true,
  },
  {
    name: '@service/react, StreamingMarkdown alone (without React)',
    path: 'dist/index.js',
    import: '{ StreamingMarkdown }',
    ignore: ['react', 'react-dom', 'sql-highlight', ...LAZY],
    limit: '40 kB',
    gzip: true,
  },
  {
    name: '@service/react, AgentChat (without React, React DOM, TanStack Query, vega and the SQL highlighter)',
    path: 'dist/index.js',
    import: '{ AgentChat }',
    // The SQL view too: the chat loads it with import().
    ignore: [...PEERS, ...LAZY],
    limit: '60.2 kB',
    gzip: true,
  },
  ...['MetricCard', 'QueryChart', 'QueryTable'].map((component) => ({
    name: `@service/react, { ${component} } alone (without React, TanStack Query, vega and sql-highlight, loaded on demand)`,
    path: 'dist/index.js',
    import: `{ ${component} }`,
    // The SQL view chunk counts: these import it; the chart runtime it loads does not.
    ignore: [...PEERS, ...CHART_RUNTIME],
    limit: { MetricCard: '10 kB', QueryChart: '12 kB', QueryTable: '11 kB' }[component],
    gzip: true,
  })),
  {
    name: '@service/react, everything (without React, React DOM, TanStack Query, vega and sql-highlight)',
    path: 'dist/index.js',
    import: '*',
    ignore: [...PEERS, ...CHART_RUNTIME],
    // 84.75 -> 84.8: the chat's SQL view's core modules in a chunk of their own cost 18 B of
    // imports here, and save an app of AgentChat 2.4 kB up front (scripts/check-app-size.mjs).
    limit: '84.8 kB',
    gzip: true,
  },
  {
    name: '@service/react/server, everything',
    path: 'dist/server/index.js',
    import: '*',
    limit: '25.9 kB',
    gzip: true,
  },
  {
    // A partner who only mints sessions carries the embedding group, not the rest of the management API.
    name: '@service/react/server, createSessionHandler alone',
    path: 'dist/server/index.js',
    import: '{ createSessionHandler }',
    limit: '12.5 kB',
    gzip: true,
  },
  {
    name: '@service/react/testing, everything (recorded transcripts included; without React)',
    path: 'dist/testing/index.js',
    import: '*',
    ignore: ['react', 'react-dom', '@tanstack/react-query', 'vega-embed', 'vega-lite', 'vega-interpreter'],
    limit: '13 kB',
    gzip: true,
  },
  { name: '@service/react/styles.css', path: 'dist/styles.css', limit: '5.05 kB', gzip: true },
  {
    name: '@service/react/emulator, its own code (Node; its dependencies not bundled)',
    path: 'dist/emulator/index.js',
    import: '*',
    limit: '105.25 kB',
    gzip: true,
    modifyEsbuildConfig: (config) => ({ ...config, platform: 'node', packages: 'external' }),
  },
];
