/**
 * Row-level security of the data API: who the caller is (the claims of the data API JWT) becomes a
 * set of attributes, and the world's rules ({@link ROW_LEVEL_SECURITY}) turn them into SQL
 * predicates that every query of a view must satisfy. The predicates are baked into the
 * per-request views (`engine.ts`), so `/v1/load`, `/v1/cubesql` and the chat agent's SQL all see
 * the same rows.
 *
 * @module
 */
import type { RowLevelSecurityRule } from '../world';
import { findView, sqlString } from './model';

/** Claims of a verified data API JWT. */
export type TokenClaims = Readonly<Record<string, unknown>>;

/** Claims that describe the token itself, not the caller; never used as attributes. */
const REGISTERED_CLAIMS = new Set([
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  'scope',
  'securityContext',
  'userAttributes',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The caller's attributes from the token's claims: top-level claims, then the `securityContext`
 * object, then `userAttributes` (an object, or the session API's `[{name, value}]` list); later
 * sources win. A `null` value means "not set".
 */
export function attributesFromClaims(claims: TokenClaims): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(claims)) {
    if (!REGISTERED_CLAIMS.has(name)) attributes[name] = value;
  }
  const context = claims['securityContext'];
  if (isRecord(context)) Object.assign(attributes, context);
  const userAttributes = claims['userAttributes'];
  if (isRecord(userAttributes)) Object.assign(attributes, userAttributes);
  else if (Array.isArray(userAttributes)) {
    for (const entry of userAttributes as unknown[]) {
      if (isRecord(entry) && typeof entry['name'] === 'string') attributes[entry['name']] = entry['value'];
    }
  }
  return attributes;
}

function literal(value: unknown): string | undefined {
  if (typeof value === 'string') return sqlString(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return undefined;
}

/**
 * SQL predicates per view name for these attributes. An attribute value the rule cannot use (an
 * object, a list of objects) restricts to no rows at all: a malformed security context must never
 * widen what a caller sees.
 */
export function rowLevelPredicates(
  rules: readonly RowLevelSecurityRule[],
  attributes: Readonly<Record<string, unknown>>,
): Map<string, string[]> {
  const predicates = new Map<string, string[]>();
  for (const rule of rules) {
    const value = attributes[rule.attribute];
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    const literals = values.map(literal);
    const usable = literals.every((item): item is string => item !== undefined);
    for (const [viewName, dimensionName] of Object.entries(rule.appliesTo)) {
      const dimension = findView(viewName)?.dimensions.find((candidate) => candidate.name === dimensionName);
      if (!dimension) continue;
      const predicate = !usable || literals.length === 0 ? 'FALSE' : `${dimension.sql} IN (${literals.join(', ')})`;
      const list = predicates.get(viewName) ?? [];
      list.push(predicate);
      predicates.set(viewName, list);
    }
  }
  return predicates;
}
