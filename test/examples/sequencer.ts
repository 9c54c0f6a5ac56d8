/**
 * The order of the example tests: the quick start first, while the global setup's `next build`
 * runs, then the Next.js example, which waits for that build.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class ExamplesSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => (file.moduleId.includes('quick-start') ? 0 : 1);
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}
