/**
 * Installs the packed package into the examples (scripts/install-examples.mjs) once per run, and
 * starts the Next.js example's `next build` (next-build.ts) at once, so that it runs while the
 * quick start's test, which goes first (`sequencer.ts`), waits on its browser.
 */
import type { TestProject } from 'vitest/node';
import { installExamplesPackage } from '../../scripts/install-examples.mjs';
import { startNextBuild } from './next-build';

export default function setup(_project: TestProject): () => void {
  const { sha256 } = installExamplesPackage();
  return startNextBuild(sha256);
}
