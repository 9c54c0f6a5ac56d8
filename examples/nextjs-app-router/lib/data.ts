// Server only: the data API token of a viewer. The route gives it to the browser, the home page
// uses it to prefetch on the server; both sign the same claims with the same secret.
import 'server-only';
import type { DataTokenClaims } from '@service/react/server';
import type { User } from './auth';
import { env } from './service';

/** The deployment's API secret, which signs data API tokens. Never sent anywhere. */
export function dataSecret(): string {
  return env('SERVICE_DATA_API_SECRET');
}

/** A viewer's security context: the data API filters every query by it (here, their region). */
export function dataClaims(user: User): DataTokenClaims {
  return { externalId: user.id, userAttributes: { region: user.region } };
}
