// GET /api/data-token: the viewer's data API token, `{ token, expiresAt }`, which the data views
// and the chat's "load all" ask for through `fetchDataToken()`. Signed with the deployment's API
// secret; its claims are the viewer's security context, so the data API applies the same
// row-level security as the embeds and the chat. Refused cross-site, never cached.
import { createDataTokenHandler, type RouteHandler } from '@service/react/server';
import { currentUser } from '@/lib/auth';
import { dataClaims, dataSecret } from '@/lib/data';

let handler: RouteHandler | undefined;

export function GET(request: Request): Promise<Response> {
  // Made at the first request: `next build` imports routes where the secret need not be set.
  handler ??= createDataTokenHandler({
    secret: dataSecret(),
    async resolve(request) {
      const user = await currentUser(request);
      return user && dataClaims(user); // null: 401
    },
  });
  return handler(request);
}
