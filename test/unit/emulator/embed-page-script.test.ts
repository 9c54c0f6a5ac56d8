// @vitest-environment node
/**
 * The embed page script the emulator serves (`src/emulator/embed/page-script.generated.ts`) is
 * the bundle of the current `src/emulator/embed/page/*.ts`: this test fails when it is stale.
 * Regenerate: `npm run generate` (the test command does it first).
 */
import { describe, expect, it } from 'vitest';
import { PAGE_SCRIPT } from '../../../src/emulator/embed/page-script.generated';
import { buildPageScript } from '../../helpers/embed-page-script';

describe('embed page script', () => {
  it('the served script is the bundle of the current page sources, line for line (stale: npm run generate)', async () => {
    expect(PAGE_SCRIPT).toBe((await buildPageScript()).replace(/\n$/, ''));
  }, 30_000);

  it('6.1: the bundle never posts to "*", and runs no code from strings', () => {
    expect(PAGE_SCRIPT).toContain('postMessage(');
    expect(PAGE_SCRIPT).not.toMatch(/postMessage\([^)]*["'`]\*["'`]/);
    expect(PAGE_SCRIPT).not.toMatch(/\beval\(|new Function\(/);
    expect(PAGE_SCRIPT).not.toMatch(/\.innerHTML\s*=|insertAdjacentHTML|document\.write/);
    // Served raw to browsers, which have no `process`: the core's NODE_ENV checks are defined away.
    expect(PAGE_SCRIPT).not.toMatch(/\bprocess\./);
  });
});
