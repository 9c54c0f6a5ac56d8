/**
 * Size budgets checked by `npm test` (`npm run size`): min + gzip bundles of `dist/`, as partners'
 * bundlers would build them, peers left out where the name says so.
 *
 * A JS file (not JSON) for the emulator's entry: it runs in Node, so its budget is its own code,
 * bundled for Node with every package left external.
 *
 * @type {import('size-limit').SizeLimitConfig}
 */
export default [
  { name: '@service/react/core, everything', path: 'dist/core/index.js', import: '*', limit: '15.5 kB', gzip: true },
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
    ignore: ['react', 'react-dom', '@tanstack/react-query'],
    limit: '7.05 kB',
    gzip: true,
  },
  {
    name: '@service/react, { SqlToolView } without vega (loaded on demand), React and TanStack Query',
    path: 'dist/index.js',
    import: '{ SqlToolView }',
    limit: '12.5 kB',
    gzip: true,
    ignore: ['react', 'react-dom', '@tanstack/react-query', 'vega-embed', 'vega-lite', 'vega-interpreter'],
  },
  {
    name: '@service/react, StreamingMarkdown alone (without React)',
    path: 'dist/index.js',
    import: '{ StreamingMarkdown }',
    ignore: ['react', 'react-dom'],
    limit: '36 kB',
    gzip: true,
  },
  {
    name: '@service/react, AgentChat (without React, React DOM, TanStack Query and vega)',
    path: 'dist/index.js',
    import: '{ AgentChat }',
    ignore: [
      'react',
      'react/jsx-runtime',
      'react-dom',
      '@tanstack/react-query',
      'vega-embed',
      'vega-lite',
      'vega-interpreter',
    ],
    limit: '60 kB',
    gzip: true,
  },
  {
    name: '@service/react, everything (without React, React DOM, TanStack Query and vega)',
    path: 'dist/index.js',
    import: '*',
    ignore: ['react', 'react-dom', '@tanstack/react-query', 'vega-embed', 'vega-lite', 'vega-interpreter'],
    limit: '66.75 kB',
    gzip: true,
  },
  { name: '@service/react/server, everything', path: 'dist/server/index.js', import: '*', limit: '19 kB', gzip: true },
  {
    name: '@service/react/testing, everything (recorded transcripts included; without React)',
    path: 'dist/testing/index.js',
    import: '*',
    ignore: ['react', 'react-dom', '@tanstack/react-query', 'vega-embed', 'vega-lite', 'vega-interpreter'],
    limit: '13 kB',
    gzip: true,
  },
  { name: '@service/react/styles.css', path: 'dist/styles.css', limit: '3.5 kB', gzip: true },
  {
    name: '@service/react/emulator, its own code (Node; its dependencies not bundled)',
    path: 'dist/emulator/index.js',
    import: '*',
    limit: '90 kB',
    gzip: true,
    modifyEsbuildConfig: (config) => ({ ...config, platform: 'node', packages: 'external' }),
  },
];
