/**
 * Small pieces every protocol family uses.
 *
 * @module
 */

/** Result of a validation: the value, or the problems in words a person can act on. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** A plain JSON object (not `null`, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
