// The API reference (`npm run docs:api`): one page tree for every public entry of package.json
// `exports`, generated from the TSDoc into docs/api/ (git-ignored). Any warning fails the run:
// an export without documentation, a `{@link}` that leads nowhere, a type that a public
// signature uses but no entry exports.
import { readFileSync } from 'node:fs';

/**
 * Members allowed to stay without a comment of their own, as typedoc names them: none today, and
 * the list may only shrink (typedoc also fails when a name in it gets documented or disappears).
 * Every member of every exported type is documented; a new one without a comment fails the build.
 */
const undocumented = JSON.parse(readFileSync(new URL('./scripts/typedoc-undocumented.json', import.meta.url), 'utf8'));

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: '@service/react',
  entryPoints: [
    'src/index.ts',
    'src/core/index.ts',
    'src/server/index.ts',
    'src/emulator/index.ts',
    'src/testing/index.ts',
  ],
  tsconfig: 'tsconfig.json',
  out: 'docs/api',
  // `npm run typecheck` checks the types; here it would only double the time.
  skipErrorChecking: true,
  excludeInternal: true,
  excludePrivate: true,
  disableSources: true,
  validation: {
    notExported: true,
    invalidLink: true,
    notDocumented: true,
    rewrittenLink: true,
    unusedMergeModuleWith: true,
  },
  treatWarningsAsErrors: true,
  intentionallyNotDocumented: undocumented,
  // Constants a public union type is derived from (`typeof SURFACES[number]`), and the emulator's
  // internals that its context type names: the types are documented, these stay private.
  intentionallyNotExported: [
    'DASHBOARD_KINDS',
    'DASHBOARD_STATUSES',
    'FILTER_OPERATORS',
    'PayloadField',
    'REPORT_KINDS',
    'SUPPORTED_LOCALES',
    'SURFACES',
    'USER_ATTRIBUTE_DEFINITION_TYPES',
    'WIDGET_TYPES',
    'WORKBOOK_TYPES',
    'Aggregation',
    'AuthenticatedCaller',
    'DataEngine',
    'DimensionType',
    'EmbedSwitches',
    'EmulatorState',
    'ResolvedEmulatorOptions',
  ],
};
