// GET /api/data-token: a short-lived data API token for the viewer, which the chat uses to load
// all rows of a result. The library has no helper for it: the token is a JWT your server signs
// with the deployment's API secret (here with `jose`), its claims being the viewer's security
// context, so the data API applies the same row-level security as the embeds and the chat.
import { SignJWT } from 'jose';
import { currentUser } from '@/lib/auth';
import { env } from '@/lib/service';

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser(request);
  if (!user) return Response.json({ error: 'Sign in first', code: 'unauthorized' }, { status: 401 });
  const token = await new SignJWT({ externalId: user.id, userAttributes: { region: user.region } })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(env('SERVICE_DATA_API_SECRET')));
  return Response.json({ token }, { headers: { 'cache-control': 'no-store' } });
}
