// Next.js provides `next/headers`; this example is type-checked without Next.js.
declare module 'next/headers' {
  /** The headers of the request being rendered. */
  export function headers(): Promise<Headers>;
}
