/** vega-functions ships no types; the tests use only its table of expression functions. */
declare module 'vega-functions' {
  /** Vega's expression functions by name, as a chart's expression context holds them. */
  export const functionContext: Record<string, unknown>;
}
