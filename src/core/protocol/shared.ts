/**
 * Small pieces every protocol family uses.
 *
 * @module
 */

/** Result of a validation: the value, or the problems in words a person can act on. */
export type ValidationResult<T> =
  | {
      /** Valid. */
      ok: true;
      /** The checked value. */
      value: T;
    }
  | {
      /** Not valid. */
      ok: false;
      /** What is wrong, one entry per problem, each starting with its field path. */
      problems: string[];
    };

/** A plain JSON object (not `null`, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @internal One problem of a validation: its field path (`payload.format`), then what is wrong
 * with it, in development only. Callers write the detail as
 * `process.env.NODE_ENV !== 'production' && ...`
 * at the call site, as React does with its warnings. The package is built twice (rollup.config.mjs)
 * with `process.env.NODE_ENV` written in as text: the `development` export condition (Vite and webpack
 * in development) keeps the details, the default files (production builds, Node, edge
 * runtimes, pages without a bundler) fold the condition to `false` and ship field paths, error
 * classes and codes only. No published file reads `process`, so it runs where there is none.
 */
export function problem(path: string, detail: string | false): string {
  return detail ? `${path}: ${detail}` : path;
}
