/**
 * The public types of the chat: the controller type and the component have different names, and
 * both leave the root entry and the core entry.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { AgentChatController as CoreController, createAgentChat as coreCreate } from '../../../src/core';
import { AgentChat, type AgentChatController, type createAgentChat } from '../../../src';

describe('chat types', () => {
  it('createAgentChat returns AgentChatController, in both entries; AgentChat is the component', () => {
    expectTypeOf<ReturnType<typeof createAgentChat>>().toEqualTypeOf<AgentChatController>();
    expectTypeOf<ReturnType<typeof coreCreate>>().toEqualTypeOf<CoreController>();
    expectTypeOf<AgentChatController>().toEqualTypeOf<CoreController>();
    expectTypeOf(AgentChat).toHaveProperty('displayName');
  });
});
