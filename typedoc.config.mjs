// The API reference (`npm run docs:api`): one page tree for every public entry of package.json
// `exports`, generated from the TSDoc into docs/api/ (git-ignored). Any warning fails the run:
// an export without documentation, a `{@link}` that leads nowhere, a type that a public
// signature uses but no entry exports.
import { readFileSync } from 'node:fs';

/**
 * Members still without a comment of their own: fields of inline types in the embed protocol
 * (`EmbedEventInit`, `EmbedTheme`...), `ValidationResult`, `ServiceAuthError` and the React embed
 * hooks and context, as typedoc reaches them. The list may only shrink: typedoc also fails when a
 * name in it gets documented or disappears, so documenting a field means deleting its line.
 */
const undocumented = JSON.parse(readFileSync(new URL('./scripts/typedoc-undocumented.json', import.meta.url), 'utf8'));

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: '@service/react',
  entryPoints: ['src/index.ts', 'src/core/index.ts', 'src/server/index.ts', 'src/emulator/index.ts', 'src/testing/index.ts'],
  tsconfig: 'tsconfig.json',
  out: 'docs/api',
  // `npm run typecheck` checks the types; here it would only double the time.
  skipErrorChecking: true,
  excludeInternal: true,
  excludePrivate: true,
  disableSources: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true, rewrittenLink: true, unusedMergeModuleWith: true },
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
