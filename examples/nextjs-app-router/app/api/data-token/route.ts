// GET /api/data-token: the viewer's data API token, `{ token, expiresAt }`, which the data views
// and the chat's "load all" ask for through `fetchDataToken()`. Signed with the deployment's API
// secret; its claims are the viewer's security context, so the data API applies the same
// row-level security as the embeds and the chat. Refused cross-site, never cached.
import { connection } from 'next/server';
import { createDataTokenHandler } from '@service/react/server';
import { currentUser } from '@/lib/auth';
import { dataClaims, dataSecret } from '@/lib/data';
import { atFirstRequest } from '@/lib/service';

const handler = atFirstRequest(() =>
  createDataTokenHandler({
    secret: dataSecret(),
    async resolve(request) {
      const user = await currentUser(request);
      return user && dataClaims(user); // null: 401
    },
  }),
);

export async function GET(request: Request): Promise<Response> {
  // Per request, never prerendered: `next build` would otherwise run a GET route at build time,
  // without the secret (or worse, with it, keeping one token for everybody).
  await connection();
  return handler(request);
}
