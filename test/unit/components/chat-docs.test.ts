/**
 * The docs pages of the chat's components: each page opens with when to use the component (the
 * JSDoc of its stories' meta, which Storybook shows first), so a partner picks the right part
 * before reading its props.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as chat from '../../../src/components/chat';

/** Exported chat components with a docs page of their own (their `stories/<Name>.stories.tsx`). */
const PAGES = [
  'AgentChat',
  'AgentChatProvider',
  'ChatActivity',
  'ChatAnnouncer',
  'ChatComposer',
  'ChatComposerInput',
  'ChatComposerRoot',
  'ChatComposerSend',
  'ChatComposerStop',
  'ChatEmptyState',
  'ChatMessageActions',
  'ChatMessageItem',
  'ChatMessageList',
  'ChatSuggestions',
  'ChatThinking',
  'ChatToolCallView',
] as const;

/** The JSDoc right above `const meta` (line comments in between are allowed), as Storybook reads it. */
function metaDescription(source: string): string | undefined {
  const match = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(?:\/\/[^\n]*\n\s*)*const meta\b/.exec(source);
  return match?.[1]
    ?.split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .join(' ')
    .trim();
}

describe('the chat docs pages', () => {
  it.each(PAGES)('%s: the page opens with when to use it', (name) => {
    expect(name in chat).toBe(true);
    const source = readFileSync(`stories/${name}.stories.tsx`, 'utf8');
    expect(metaDescription(source)).toMatch(new RegExp(`^Use \`${name}\` (when|for|in|inside)\\b`));
  });
});
