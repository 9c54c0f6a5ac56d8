// Server only: every value here comes from server-side environment variables, and the API key
// must never reach a browser. `import 'server-only'` makes Next.js fail the build if a client
// component ever imports this file.
import 'server-only';
import { createServiceClient, type RouteHandler, type ServiceClient } from '@service/react/server';

/** Reads a required server-side environment variable, failing loudly at the first request. */
export function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} in .env.local (see .env.example)`);
  return value;
}

let client: ServiceClient | undefined;

/** The management and embed client, with the API key, made at its first use. */
export function service(): ServiceClient {
  client ??= createServiceClient({
    baseUrl: env('SERVICE_URL'), // https://acme.example.com, or the emulator's http://127.0.0.1:4010
    apiKey: env('SERVICE_API_KEY'),
  });
  return client;
}

/**
 * A route handler made at its first request, not when its module is imported: `next build`
 * imports every route to read its settings, on a machine that need not hold your secrets.
 */
export function atFirstRequest(make: () => RouteHandler): RouteHandler {
  let handler: RouteHandler | undefined;
  return (request) => {
    handler ??= make();
    return handler(request);
  };
}
