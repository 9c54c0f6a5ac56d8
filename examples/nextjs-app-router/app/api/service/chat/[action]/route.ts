// POST /api/service/chat/stream-chat-state and /api/service/chat/abort: the chat proxy. It adds
// the API key and the viewer's sessionSettings, and streams the agent's answer back.
import { createChatProxyHandler } from '@service/react/server';
import { currentUser } from '@/lib/auth';
import { atFirstRequest, env } from '@/lib/service';

export const POST = atFirstRequest(() =>
  createChatProxyHandler({
    aiUrl: env('SERVICE_AI_URL'), // {ai_url}: https://<ai host>/api/v1/public/{accountName}/agents/{agentId}
    apiKey: env('SERVICE_API_KEY'),
    async resolveSessionSettings(request) {
      const user = await currentUser(request);
      if (!user) return null; // 401
      return { externalId: user.id, email: user.email, userAttributes: [{ name: 'region', value: user.region }] };
    },
  }),
);
