// Next.js provides the `server-only` package; this example is type-checked without Next.js.
declare module 'server-only';
