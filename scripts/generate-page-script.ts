/**
 * Writes `src/emulator/embed/page-script.generated.ts`, the bundled script of the emulator's
 * embed pages, from `src/emulator/embed/page/*.ts` and the core modules they import. Run by
 * `npm test`, `typecheck`, `lint`, `test:vitest`, `build` and `start` (never on install: a published
 * package has no install scripts); the file is not committed,
 * so it can never be stale. Run it by hand with `npm run generate`.
 */
import { writeFileSync } from 'node:fs';
import { GENERATED_MODULE, generatePageScriptModule } from '../test/helpers/embed-page-script';

// Run from the repository root (npm scripts do); this file runs bundled from node_modules/.cache.
writeFileSync(GENERATED_MODULE, await generatePageScriptModule(process.cwd()));
console.log(`generate: ${GENERATED_MODULE}`);
