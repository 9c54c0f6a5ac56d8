// @vitest-environment node
/**
 * The guides cannot drift from the code:
 * - a fenced block tagged `file=<path>` is that file, byte for byte (a test file's relative
 *   imports of src/ read as the package names a partner writes);
 * - every name a block imports from `@service/react*` is exported by that entry, and every
 *   API-looking name in backticks (`createSessionHandler`, `EmbeddedDashboard`, `TRANSCRIPTS`)
 *   is exported by some entry;
 * - docs/theming.md lists exactly the `--service-*` variables of src/styles.css, and no guide
 *   names one that does not exist; docs/emulator.md lists exactly the CLI's flags.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ENTRIES: Record<string, string | null> = {
  '@service/react': 'src/index.ts',
  '@service/react/core': 'src/core/index.ts',
  '@service/react/server': 'src/server/index.ts',
  '@service/react/emulator': 'src/emulator/index.ts',
  '@service/react/testing': 'src/testing/index.ts',
  '@service/react/styles.css': null,
};

const GUIDES = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const read = (path: string) => readFileSync(path, 'utf8');

interface Block {
  guide: string;
  lang: string;
  info: string;
  code: string;
}

function blocksOf(guide: string): Block[] {
  const blocks: Block[] = [];
  for (const match of read(guide).matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)) {
    blocks.push({ guide, lang: match[1]!, info: match[2]!.trim(), code: match[3]! });
  }
  return blocks;
}

/** Prose of a guide: everything outside fenced blocks. */
const proseOf = (guide: string) => read(guide).replace(/^```[\s\S]*?^```[ \t]*$/gm, '');

const BLOCKS = GUIDES.flatMap(blocksOf);

/**
 * The names a module exports, read from its syntax (a type-checked program would take half a
 * minute here): `export { a, b as c } from`, declarations, and `export * from` followed.
 */
function exportsOf(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file)) return names;
  seen.add(file);
  const source = ts.createSourceFile(
    file,
    read(file),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const resolveFrom = (specifier: string) => {
    const base = join(dirname(file), specifier);
    const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    if (!found) throw new Error(`${file}: cannot resolve ${specifier}`);
    return found;
  };
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const from =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      if (!statement.exportClause && from) for (const name of exportsOf(resolveFrom(from), seen)) names.add(name);
      else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) names.add(element.name.text);
      }
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
    } else if ('name' in statement && statement.name && ts.isIdentifier(statement.name as ts.Node)) {
      names.add((statement.name as ts.Identifier).text);
    }
  }
  return names;
}

/** The names each entry exports. */
const EXPORTS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(ENTRIES).map(([entry, file]) => [entry, file ? exportsOf(file) : new Set<string>()]),
);
const ALL_EXPORTS = new Set(Object.values(EXPORTS).flatMap((names) => [...names]));

/** A test file's imports of the sources, written as a partner imports the package. */
function asPartnerWrites(code: string): string {
  return code.replace(
    /from '(?:\.\.\/)+src(\/(?:core|server|emulator|testing))?'/g,
    (_, entry: string | undefined) => `from '@service/react${entry ?? ''}'`,
  );
}

describe('guides', () => {
  it('are there, and the README links each of them', () => {
    const readme = read('README.md');
    const guides = GUIDES.filter((guide) => guide.startsWith('docs/'));
    expect(guides.length).toBeGreaterThanOrEqual(8);
    for (const guide of guides) expect(readme, guide).toContain(`](${guide})`);
  });

  it('a block tagged file=<path> is that file', () => {
    const tagged = BLOCKS.filter((block) => /(^|\s)file=/.test(block.info));
    expect(tagged.length).toBeGreaterThanOrEqual(10);
    for (const block of tagged) {
      const path = /file=(\S+)/.exec(block.info)![1]!;
      expect(existsSync(path), `${block.guide}: ${path} does not exist`).toBe(true);
      const file = read(path);
      expect(block.code, `${block.guide}: the block of ${path} differs from the file`).toBe(
        path.startsWith('test/') ? asPartnerWrites(file) : file,
      );
    }
  });

  it('every name imported from the package in a guide is exported by that entry', () => {
    const problems: string[] = [];
    for (const block of BLOCKS.filter((b) => /^(ts|tsx|js|jsx|mjs)$/.test(b.lang))) {
      for (const match of block.code.matchAll(
        /import\s+(?:type\s+)?(?:\{([^}]*)\}\s+from\s+)?'(@service\/react[^']*)'/g,
      )) {
        const [, names = '', entry = ''] = match;
        if (!(entry in ENTRIES)) {
          problems.push(`${block.guide}: no entry ${entry}`);
          continue;
        }
        for (const raw of names.split(',')) {
          const name = raw
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!;
          if (name && !EXPORTS[entry]!.has(name)) problems.push(`${block.guide}: ${entry} does not export ${name}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every API name in backticks in the prose is exported by some entry', () => {
    // Names of the platform, of React and of other packages that the guides mention.
    const OTHERS = new Set([
      'AbortSignal',
      'ReadableStream',
      'TextEncoder',
      'EvalError',
      'QueryClient',
      'QueryClientProvider',
      'HydrationBoundary',
      'useQuery',
      'useSuspenseQuery',
      'isPending',
      'StrictMode',
      'IncomingMessage',
      'ServerResponse',
      'SignJWT',
      'ReactNode',
      'HTMLIFrameElement',
      'MessageEvent',
      'useSyncExternalStore',
      'useState',
      'useRef',
      'createRoot',
      'withThemeByClassName',
      'defineConfig',
      'toHaveLength',
      'toBeInTheDocument',
      'userEvent',
      // Environment variables.
      'EMULATOR_PORT',
      'STORYBOOK_PORT',
      'NEXT_PUBLIC_',
      'SERVICE_URL',
      'SERVICE_API_KEY',
      'SERVICE_AI_URL',
      'SERVICE_DATA_URL',
      'SERVICE_DATA_API_SECRET',
      'NODE_ENV',
    ]);
    const looksLikeApi = (name: string) =>
      /^(create|use|fetch|start|with|refuse|validate|build|read|select|is|sign|inject|clear|chunk|replay|to)[A-Z]\w*$/.test(
        name,
      ) ||
      /^[A-Z][a-z0-9]+[A-Z]\w*$/.test(name) ||
      /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(name) ||
      name === 'TRANSCRIPTS';
    const problems: string[] = [];
    for (const guide of GUIDES.filter((g) => g.startsWith('docs/'))) {
      for (const match of proseOf(guide).matchAll(/`([A-Za-z_]\w*)(?:\([^`]*\))?`/g)) {
        const name = match[1]!;
        if (looksLikeApi(name) && !ALL_EXPORTS.has(name) && !OTHERS.has(name))
          problems.push(`${guide}: \`${name}\` is exported by no entry`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('docs/theming.md lists every --service-* variable of src/styles.css, and guides name no other', () => {
    const declared = new Set([...read('src/styles.css').matchAll(/(--service-[\w-]+)\s*:/g)].map((match) => match[1]!));
    const theming = read('docs/theming.md');
    for (const variable of declared)
      expect(theming, `${variable} is not in docs/theming.md`).toContain(`\`${variable}\``);
    for (const guide of GUIDES) {
      for (const [variable] of read(guide).matchAll(/--service-[\w-]*[\w]/g)) {
        expect(declared.has(variable), `${guide} names ${variable}, which src/styles.css does not declare`).toBe(true);
      }
    }
  });

  it('docs/emulator.md lists exactly the flags of the service-emulator CLI', () => {
    const usage = /const USAGE = `([\s\S]*?)`/.exec(read('src/emulator/cli.ts'))![1]!;
    const flags = new Set([...usage.matchAll(/(?:^|\s)(--[a-z][\w-]*)/g)].map((match) => match[1]!));
    const documented = new Set([...read('docs/emulator.md').matchAll(/`(--[a-z][\w-]*)/g)].map((match) => match[1]!));
    expect([...documented].sort()).toEqual([...flags].sort());
  });
});
