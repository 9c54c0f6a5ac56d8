// @vitest-environment node
/**
 * Every default a component falls back to (`DEFAULT_*` labels, limits, row caps) is exported from
 * `@service/react`, the value the component uses, so a partner can spread it and change one field
 * (`labels={{ ...DEFAULT_MARKDOWN_LABELS, truncated: '…' }}`) without copying our text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as entry from '../../../src';

const ROOTS = ['src/components', 'src/react'];

/** `export const DEFAULT_…` declarations under `root`, as [name, module path]. */
function declaredDefaults(root: string): [string, string][] {
  const found: [string, string][] = [];
  for (const item of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!item.isFile() || !/\.tsx?$/.test(item.name)) continue;
    const path = join(item.parentPath, item.name);
    for (const match of readFileSync(path, 'utf8').matchAll(/^export const (DEFAULT_[A-Z_\d]+)\b/gm))
      found.push([match[1]!, path]);
  }
  return found;
}

describe('the defaults of the components', () => {
  const declared = ROOTS.flatMap(declaredDefaults);

  it('finds the defaults it guards', () => {
    expect(declared.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'DEFAULT_MARKDOWN_LABELS',
        'DEFAULT_MARKDOWN_LIMITS',
        'DEFAULT_MAX_TABLE_ROWS',
        'DEFAULT_SQL_TOOL_LABELS',
        'DEFAULT_AGENT_CHAT_LABELS',
      ]),
    );
  });

  it.each(declared)('%s is exported from @service/react as the value its module uses (%s)', async (name, path) => {
    const module = (await import(/* @vite-ignore */ join(process.cwd(), path))) as Record<string, unknown>;
    expect(Object.hasOwn(entry, name), `${name} is missing from src/index.ts`).toBe(true);
    expect((entry as Record<string, unknown>)[name]).toBe(module[name]);
  });
});
