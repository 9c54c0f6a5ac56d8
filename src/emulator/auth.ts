/**
 * Authentication of every endpoint (interface 5, behaviour 1 and 3), in one module:
 *
 * | API | credential | middleware or function |
 * |---|---|---|
 * | management (`/api/v1`, `/build/api/v1`) | `Authorization: Bearer <API_KEY>` | {@link requireApiKey} `{ scheme: 'Bearer' }` |
 * | embed session and embed-tenant admin | `Authorization: Api-Key <API_KEY>` | {@link requireApiKey} `{ scheme: 'Api-Key', admin: true }` |
 * | chat and abort | `Api-Key` or `X-Service-Auth-Token: <JWT>`; `Authorization` wins | {@link readChatCredential}, {@link verifyDeploymentToken} |
 * | data API | the JWT in `Authorization`, raw or with `Bearer ` | {@link requireDataToken} |
 *
 * Statuses: 401 when the credential is missing, malformed, unknown or expired; 403 when it is valid
 * but not for the target (a scoped key on another deployment, a personal key on an admin
 * endpoint). The data API answers 403 for both, with its own texts (behaviour 3). Chat reports
 * failures as a JSON-RPC error in a 200, which the chat feature builds from these functions'
 * results: they return, the middlewares throw.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from 'hono';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { AUTHORIZATION_HEADER_NOT_SET, INVALID_TOKEN } from '../core/protocol/data';
import type { EmulatorContext, EmulatorEnv } from './context';
import type { TokenClaims } from './data/security';
import { httpError, jsonError } from './http';
import { findDeployment, type World, type WorldApiKey } from './world';

/** Who made a request, as the auth middleware established it (`c.get('caller')`). */
export type AuthenticatedCaller =
  { kind: 'apiKey'; apiKey: WorldApiKey } | { kind: 'token'; deploymentId: number; token: string; claims: TokenClaims };

/** Header of the chat deployment token (interface 5). */
export const SERVICE_AUTH_TOKEN_HEADER = 'X-Service-Auth-Token';

/**
 * The credential after `<scheme> ` in an `Authorization` value (scheme matched case-insensitively),
 * or `undefined` when the header is absent, has another scheme or an empty credential.
 */
export function credentialOf(header: string | undefined, scheme: 'Bearer' | 'Api-Key'): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*([A-Za-z-]+)\s+(\S+)\s*$/.exec(header);
  if (!match || match[1]!.toLowerCase() !== scheme.toLowerCase()) return undefined;
  return match[2];
}

/** True when the key authorizes `deploymentId` (interface 5 rule 2: unscoped keys authorize all). */
export function keyAllowsDeployment(apiKey: WorldApiKey, deploymentId: number): boolean {
  return apiKey.deploymentIds === 'all' || apiKey.deploymentIds.includes(deploymentId);
}

/**
 * Throws 403 unless the authenticated key may act on `deploymentId`. For endpoints whose
 * deployment is in the body (generate-session): call it once the body is read.
 */
export function assertDeploymentAllowed(c: Context<EmulatorEnv>, deploymentId: number): void {
  const caller = c.get('caller');
  if (caller.kind === 'apiKey' && !keyAllowsDeployment(caller.apiKey, deploymentId)) {
    throw httpError(403, `API key is not authorized for deployment ${deploymentId}`);
  }
  if (caller.kind === 'token' && caller.deploymentId !== deploymentId) {
    throw httpError(403, `Token is not valid for deployment ${deploymentId}`);
  }
}

/** Options of {@link requireApiKey}. */
export interface RequireApiKeyOptions {
  /** `Bearer` for management, `Api-Key` for the embed endpoints (interface 5). */
  scheme: 'Bearer' | 'Api-Key';
  /** Refuse personal keys with 403. Default `false`. */
  admin?: boolean;
  /**
   * Reads the target deployment from the request (usually the `deploymentId` path parameter);
   * a scoped key outside it gets 403. Omit when the deployment is not in the path.
   */
  deploymentId?: (c: Context<EmulatorEnv>) => number | undefined;
}

/**
 * Middleware: requires an API key with `scheme`; sets `c.get('caller')` to `{ kind: 'apiKey' }`.
 * 401 for a missing, malformed or unknown key; 403 for a personal key when `admin`, and for a
 * scoped key outside the deployment of the path.
 */
export function requireApiKey(context: EmulatorContext, options: RequireApiKeyOptions): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (header === undefined)
      throw httpError(401, `Missing Authorization header: send "Authorization: ${options.scheme} <API_KEY>"`);
    const key = credentialOf(header, options.scheme);
    if (key === undefined)
      throw httpError(401, `Malformed Authorization header: send "Authorization: ${options.scheme} <API_KEY>"`);
    const apiKey = context.state.apiKeys.get(key);
    if (!apiKey) throw httpError(401, 'Invalid API key');
    if (options.admin && apiKey.role !== 'admin') throw httpError(403, 'This endpoint requires an admin API key');
    c.set('caller', { kind: 'apiKey', apiKey });
    const deploymentId = options.deploymentId?.(c);
    if (deploymentId !== undefined) assertDeploymentAllowed(c, deploymentId);
    await next();
  };
}

/**
 * Verifies a deployment JWT (HS256 with the deployment's secret; `exp` and `nbf` checked against
 * the emulator's clock, unless `anyTime`). Returns its claims, or `undefined` when it is not valid
 * for the deployment or was exchanged for an embed session that has been revoked since.
 * @param anyTime Check the signature only, not the lifetime: how an embed page that renews its
 *   session (`set-session`) says who it was, even after its token lapsed.
 */
export async function verifyDeploymentToken(
  context: EmulatorContext,
  deploymentId: number,
  token: string,
  anyTime = false,
): Promise<TokenClaims | undefined> {
  const deployment = findDeployment(context.world, deploymentId);
  if (!deployment) return undefined;
  // A token an embed page got for a session that was revoked since: revoke is the partner's
  // logout, so everything the token reaches (data API, chat) ends with it.
  const exchanged = context.state.embedTokens.get(token);
  if (exchanged && context.state.embedSessions.get(exchanged.sessionId)?.revokedAt !== undefined) return undefined;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(deployment.jwtSecret), {
      algorithms: ['HS256'],
      currentDate: new Date(anyTime ? (decodeJwt(token).iat ?? 0) * 1000 : context.clock.now()),
    });
    return payload;
  } catch {
    return undefined;
  }
}

/** Options of {@link signDeploymentToken}. */
export interface SignDeploymentTokenOptions {
  /** Deployment whose secret signs the token. Default 1. */
  deploymentId?: number;
  /**
   * Claims: for the data API, the security context (any claims, plus optional `securityContext`
   * and `userAttributes`, see `data/security.ts`); for chat, `externalId` or `sub`, `scope:
   * ['chat']`, optional `email`.
   */
  claims?: Record<string, unknown>;
  /** Lifetime in seconds. Default one hour. */
  expiresInSeconds?: number;
  /** Issue time, Unix milliseconds. Default now. */
  now?: number;
}

/**
 * Signs a deployment JWT the way a partner's server does (HS256 with the deployment secret of the
 * world). For tests, stories and the emulator's own embed pages and chat agent.
 */
export async function signDeploymentToken(world: World, options: SignDeploymentTokenOptions = {}): Promise<string> {
  const deploymentId = options.deploymentId ?? 1;
  const deployment = findDeployment(world, deploymentId);
  if (!deployment) throw new RangeError(`signDeploymentToken: the emulator has no deployment ${deploymentId}`);
  const issuedAt = Math.floor((options.now ?? Date.now()) / 1000);
  return new SignJWT({ ...options.claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + (options.expiresInSeconds ?? 3600))
    .sign(new TextEncoder().encode(deployment.jwtSecret));
}

/**
 * Middleware of the data API: the JWT in `Authorization`, raw or after `Bearer `, verified for the
 * deployment `deploymentId(c)` names. 403 `{"error":"Authorization header isn't set"}` without the
 * header, 403 `{"error":"Invalid token"}` for anything not valid (behaviour 3). Sets
 * `c.get('caller')` to `{ kind: 'token' }`.
 */
export function requireDataToken(
  context: EmulatorContext,
  deploymentId: (c: Context<EmulatorEnv>) => number,
): MiddlewareHandler<EmulatorEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization')?.trim();
    if (header === undefined || header === '') throw jsonError(403, { error: AUTHORIZATION_HEADER_NOT_SET });
    const token = credentialOf(header, 'Bearer') ?? header;
    const id = deploymentId(c);
    const claims = await verifyDeploymentToken(context, id, token);
    if (!claims) throw jsonError(403, { error: INVALID_TOKEN });
    c.set('caller', { kind: 'token', deploymentId: id, token, claims });
    await next();
  };
}

/** The chat credential of a request, before verification. */
export type ChatCredential =
  | { kind: 'apiKey'; key: string }
  | { kind: 'token'; token: string }
  | { kind: 'malformed'; reason: string }
  | { kind: 'missing' };

/**
 * Reads the chat credential (interface 5): `Authorization: Api-Key <key>` or
 * `X-Service-Auth-Token: <JWT>`. When both are sent, `Authorization` wins and the token is ignored
 * (rule 6), even when `Authorization` is malformed.
 */
export function readChatCredential(c: Context): ChatCredential {
  const header = c.req.header('authorization');
  if (header !== undefined) {
    const key = credentialOf(header, 'Api-Key');
    return key === undefined
      ? { kind: 'malformed', reason: 'Authorization must be "Api-Key <API_KEY>"' }
      : { kind: 'apiKey', key };
  }
  const token = c.req.header(SERVICE_AUTH_TOKEN_HEADER)?.trim();
  if (token) return { kind: 'token', token };
  return { kind: 'missing' };
}
