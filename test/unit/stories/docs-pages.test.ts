/**
 * Every component `@service/react` exports has a Storybook docs page (`tags: ['autodocs']` on a
 * stories file whose `component` it is), and its callbacks are actions there, not controls. The
 * pages themselves are rendered by Storybook; this keeps a new component from shipping without one.
 */
import type { Meta } from '@storybook/react-vite';
import { describe, expect, it } from 'vitest';
import * as entry from '../../../src';

const files = import.meta.glob<{ default: Meta }>('../../../stories/*.stories.tsx', { eager: true });
const metas = Object.entries(files).map(([path, module]) => ({ path, meta: module.default }));

/** React components among the entry's exports: functions named like components (not classes), and forwardRef/memo objects. */
function isComponent(value: unknown): boolean {
  if (typeof value === 'function') return !/^class\b/.test(Function.prototype.toString.call(value));
  return typeof value === 'object' && value !== null && '$$typeof' in value;
}
const COMPONENTS = Object.entries(entry).filter(([name, value]) => /^[A-Z][a-z]/.test(name) && isComponent(value));

describe('Storybook docs pages', () => {
  it('finds the components and the stories', () => {
    expect(COMPONENTS.map(([name]) => name)).toEqual(
      expect.arrayContaining(['ServiceProvider', 'EmbeddedDashboard', 'AgentChat', 'StreamingMarkdown', 'ResultTable']),
    );
    expect(metas.length).toBeGreaterThan(10);
  });

  it.each(COMPONENTS)('%s has a docs page', (name, component) => {
    const pages = metas.filter(({ meta }) => meta.component === component && meta.tags?.includes('autodocs'));
    expect(
      pages.map(({ path }) => path),
      `no stories file with tags: ['autodocs'] documents ${name}`,
    ).toHaveLength(1);
  });

  it.each(metas.filter(({ meta }) => meta.component).map(({ path, meta }) => [path, meta] as const))(
    '%s: callbacks given in args are actions',
    (_path, meta) => {
      for (const [name, value] of Object.entries(meta.args ?? {})) {
        if (/^on[A-Z]/.test(name) || name === 'retry')
          expect(typeof value === 'function' && 'mock' in value, `${name} should be fn()`).toBe(true);
      }
    },
  );
});
