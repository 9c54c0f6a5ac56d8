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
 * `(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production' && ...`
 * at the call site, as React does with its warnings: bundlers (Vite, webpack, Next, esbuild's
 * browser builds) replace `process.env.NODE_ENV`, both branches become `'production'`, and the
 * minifier folds the condition to `false` and drops the text, so production ships field paths,
 * error classes and codes only. The `typeof` keeps a page or worker with no `process` global (no
 * bundler, an edge runtime) from throwing: there the details are left out, as in production.
 * Written out at each site because a constant shared across modules is not folded by every
 * bundler, and `typeof process !== 'undefined' && ...` is not folded by esbuild.
 */
export function problem(path: string, detail: string | false): string {
  return detail ? `${path}: ${detail}` : path;
}
