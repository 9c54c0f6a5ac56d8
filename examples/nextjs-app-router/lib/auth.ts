// Stands in for your own authentication (Auth.js, Clerk, your session store): the routes ask it
// who the viewer is, and never take that from the browser's request body.
import 'server-only';

/** The signed-in user of the partner app, as your authentication knows them. */
export interface User {
  id: string;
  email: string;
  name: string;
  /** Sales region the user may see; the service filters rows by it. */
  region: 'NA' | 'EMEA' | 'APAC' | 'LATAM';
  teams: string[];
}

const DEMO_USER: User = {
  id: 'ann@partner.example',
  email: 'ann@partner.example',
  name: 'Ann',
  region: 'EMEA',
  teams: ['sales'],
};

/**
 * The viewer of `request` (a route's `Request`, or a server component's `{ headers: await headers() }`),
 * or `null` when nobody is signed in. This demo signs everybody in as Ann unless the request
 * carries `demo-user=nobody`; replace it with your own session lookup.
 */
export async function currentUser(request: Pick<Request, 'headers'>): Promise<User | null> {
  const signedOut = request.headers.get('cookie')?.split(/;\s*/).includes('demo-user=nobody');
  return signedOut ? null : DEMO_USER;
}
