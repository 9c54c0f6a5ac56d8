// POST /api/embed-session: one single-use embed session per iframe load. The browser only says
// which surface it opens; this route decides who the viewer is and what they may see.
import { createSessionHandler, refuseSession } from '@service/react/server';
import { currentUser } from '@/lib/auth';
import { atFirstRequest, service } from '@/lib/service';

export const POST = atFirstRequest(() =>
  createSessionHandler({
    client: service(),
    deploymentId: 1,
    async resolve(request, { body }) {
      const user = await currentUser(request);
      if (!user) return null; // 401
      if (body.publicId === 'internal-finance') return refuseSession(403, 'This dashboard is not shared with you');
      return {
        externalId: user.id,
        email: user.email,
        userProfile: { displayName: user.name },
        userAttributes: [{ name: 'region', value: user.region }],
      };
    },
  }),
);
