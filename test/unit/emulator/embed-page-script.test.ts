// @vitest-environment node
/**
 * The embed page script the emulator serves (`src/emulator/embed/page-script.generated.ts`) is
 * the bundle of the current `src/emulator/embed/page/*.ts`: this test fails when it is stale.
 * Regenerate: `npx vitest run --project unit test/unit/emulator/embed-page-script.test.ts -u`.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_SCRIPT } from '../../../src/emulator/embed/page-script.generated';
import { GENERATED_MODULE, buildPageScript, generatePageScriptModule } from '../../helpers/embed-page-script';

describe('embed page script', () => {
  it('the generated module is the bundle of the current page sources (stale: rerun with -u)', async () => {
    await expect(await generatePageScriptModule()).toMatchFileSnapshot(`../../../${GENERATED_MODULE}`);
  }, 30_000);

  it('the served script is that bundle, line for line', async () => {
    expect(PAGE_SCRIPT).toBe((await buildPageScript()).replace(/\n$/, ''));
  }, 30_000);

  it('6.1: the bundle never posts to "*", and runs no code from strings', () => {
    expect(PAGE_SCRIPT).toContain('postMessage(');
    expect(PAGE_SCRIPT).not.toMatch(/postMessage\([^)]*["'`]\*["'`]/);
    expect(PAGE_SCRIPT).not.toMatch(/\beval\(|new Function\(/);
    expect(PAGE_SCRIPT).not.toMatch(/\.innerHTML\s*=|insertAdjacentHTML|document\.write/);
  });
});
