/**
 * Tool names and message ids that are members of `Object.prototype` (`constructor`, `__proto__`,
 * `toString`...), as a hostile agent may stream them to `AgentChat`: each tool call renders the
 * generic tool view, with and without `components.tools`, and a replacement view still replaces
 * its own tool.
 */
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentChat, type AgentChatComponents } from '../../../src/components/chat';
import { createReplayFetch } from '../../../src/testing';
import { hostileToolTranscript, hostileToolViewProblems } from '../../helpers/hostile-corpus';

const CHAT_ID = '00000000-0000-4000-8000-000000000bad';
const WEATHER: AgentChatComponents['tools'] = { weatherTool: () => <p>custom weather view</p> };

/** The thread opened in `AgentChat` (read on mount), once the chat is ready. */
async function open(transcript: string, components?: AgentChatComponents): Promise<HTMLElement> {
  const replay = createReplayFetch({ transcript, chunking: 'awkward' });
  const { container } = render(
    <AgentChat url="/recorded" fetch={replay.fetch} chatId={CHAT_ID} {...(components ? { components } : {})} />,
  );
  await waitFor(() => expect(container.querySelector('[data-part="chat"]')?.getAttribute('data-state')).toBe('ready'));
  return container;
}

describe('hostile tool names in AgentChat (jsdom)', () => {
  const cases: [string, AgentChatComponents | undefined][] = [
    ['without components', undefined],
    ['with components.tools', { tools: WEATHER }],
    ['with an empty components.tools', { tools: {} }],
  ];
  for (const [title, components] of cases) {
    it(`every name renders the generic tool view, complete and running, ${title}`, async () => {
      const container = await open(hostileToolTranscript(CHAT_ID), components);
      expect(hostileToolViewProblems(container)).toEqual([]);
      expect(container.querySelector('[data-part="final-answer"]')?.textContent).toContain('Done.');
    });
  }

  it('a replacement view still replaces its own tool next to the hostile names', async () => {
    const transcript = hostileToolTranscript(CHAT_ID).replaceAll('"name":"valueOf"', '"name":"weatherTool"');
    const container = await open(transcript, { tools: WEATHER });
    const weather = [...container.querySelectorAll('[data-tool="weatherTool"]')].map((part) => part.textContent);
    expect(weather).toEqual(['custom weather view', 'custom weather view']);
    expect(container.querySelectorAll('[data-tool="constructor"]')).toHaveLength(2);
  });
});
