// @vitest-environment node
/**
 * The guides cannot drift from the code:
 * - a fenced block tagged `file=<path>` is that file, byte for byte (a test file's relative
 *   imports of src/ read as the package names a partner writes);
 * - every name a block imports from `@service/react*` is exported by that entry, and every
 *   API-looking name in backticks (`createSessionHandler`, `EmbeddedDashboard`, `TRANSCRIPTS`)
 *   is exported by some entry;
 * - docs/theming.md lists exactly the `--service-*` variables of src/styles.css, and no guide
 *   names one that does not exist; docs/emulator.md lists exactly the CLI's flags;
 * - each example app is its guide: every source file of the example is a block of the guide, the
 *   guide creates the app before it installs into it, and its `npm install` commands are exactly
 *   what the example's package.json adds to the template the guide starts from, which covers
 *   every package the example imports.
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

/** The example app of each guide, and what the command that creates the app puts in package.json. */
const EXAMPLES = [
  {
    guide: 'docs/quick-start.md',
    dir: 'examples/quick-start',
    create: 'npm create vite@latest',
    // create-vite's react-ts template.
    template: [
      'react',
      'react-dom',
      '@types/node',
      '@types/react',
      '@types/react-dom',
      '@vitejs/plugin-react',
      'oxlint',
      'typescript',
      'vite',
    ],
    // Files the template wrote and the guide leaves as they are (tsconfig.node.json: one line added, shown as such).
    unchanged: ['package.json', 'index.html', 'tsconfig.json', 'tsconfig.app.json', 'tsconfig.node.json'],
    // Imported, but provided by another package: none.
    provided: [] as string[],
  },
  {
    guide: 'docs/nextjs-app-router.md',
    dir: 'examples/nextjs-app-router',
    create: 'npx create-next-app@latest',
    template: [
      'next',
      'react',
      'react-dom',
      '@types/node',
      '@types/react',
      '@types/react-dom',
      'eslint',
      'eslint-config-next',
      'typescript',
    ],
    unchanged: ['package.json', 'tsconfig.json', 'next.config.ts'],
    // Next.js resolves `server-only` itself; `@/` is the app's own folder.
    provided: ['server-only'],
  },
];

/** The files of an example app, relative to it: what a partner's app holds besides generated ones. */
function filesOf(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (['node_modules', '.next', 'dist', 'next-env.d.ts'].includes(entry.name)) return [];
    return entry.isDirectory() ? filesOf(dir, path) : [path];
  });
}

/** The package a bare import specifier names (`@scope/name/sub` → `@scope/name`), or undefined. */
function packageOf(specifier: string): string | undefined {
  if (/^(\.|\/|node:|@\/)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Packages of the `npm install` commands of a guide's shell blocks, split into runtime and `-D`. */
function installsOf(guide: string): { dependencies: string[]; devDependencies: string[]; order: string[] } {
  const dependencies: string[] = [];
  const devDependencies: string[] = [];
  const order: string[] = [];
  for (const block of blocksOf(guide).filter((b) => b.lang === 'sh')) {
    for (const line of block.code.split(/\n|&&/).map((text) => text.replace(/#.*/, '').trim())) {
      if (line) order.push(line);
      const install = /^npm install (.+)$/.exec(line);
      if (!install) continue;
      const words = install[1]!.split(/\s+/);
      const dev = words.includes('-D') || words.includes('--save-dev');
      for (const word of words.filter((w) => !w.startsWith('-'))) (dev ? devDependencies : dependencies).push(word);
    }
  }
  return { dependencies, devDependencies, order };
}

describe('example apps and their guides', () => {
  for (const example of EXAMPLES) {
    describe(example.dir, () => {
      const files = filesOf(example.dir);
      const shown = new Set(
        blocksOf(example.guide)
          .map((block) => /file=(\S+)/.exec(block.info)?.[1])
          .filter((path): path is string => path !== undefined),
      );

      it(`every file of the example is a block of ${example.guide}`, () => {
        const missing = files.filter(
          (file) => !example.unchanged.includes(file) && !shown.has(`${example.dir}/${file}`),
        );
        expect(missing).toEqual([]);
      });

      it('the guide creates the app first, then installs what its package.json adds to the template', () => {
        const { dependencies, devDependencies, order } = installsOf(example.guide);
        const created = order.findIndex((line) => line.startsWith(example.create));
        const installed = order.findIndex((line) => line.startsWith('npm install'));
        expect(created, `${example.guide} runs ${example.create}`).toBeGreaterThanOrEqual(0);
        expect(created).toBeLessThan(installed);
        const manifest = JSON.parse(read(join(example.dir, 'package.json'))) as {
          dependencies: Record<string, string>;
          devDependencies: Record<string, string>;
        };
        const added = (names: Record<string, string>) =>
          Object.keys(names)
            .filter((name) => !example.template.includes(name))
            .sort();
        expect(added(manifest.dependencies)).toEqual([...dependencies].sort());
        expect(added(manifest.devDependencies)).toEqual([...devDependencies].sort());
      });

      it('package.json lists every package the example imports', () => {
        const manifest = JSON.parse(read(join(example.dir, 'package.json'))) as {
          dependencies: Record<string, string>;
          devDependencies: Record<string, string>;
        };
        const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]);
        const imported = new Set<string>();
        for (const file of files.filter((name) => /\.(ts|tsx|js|mjs)$/.test(name))) {
          for (const match of read(join(example.dir, file)).matchAll(/(?:from|import)\s+'([^']+)'/g)) {
            const name = packageOf(match[1]!);
            if (name) imported.add(name);
          }
        }
        expect([...imported].filter((name) => !declared.has(name) && !example.provided.includes(name))).toEqual([]);
      });
    });
  }

  it('the quick start keeps react() in the Vite config and sets the start script it runs', () => {
    expect(read('examples/quick-start/vite.config.ts')).toMatch(/plugins: \[react\(\)/);
    const scripts = (JSON.parse(read('examples/quick-start/package.json')) as { scripts: Record<string, string> })
      .scripts;
    for (const [, name, value] of read('docs/quick-start.md').matchAll(/npm pkg set scripts\.(\w+)="([^"]+)"/g))
      expect(scripts[name!]).toBe(value);
    expect(read('docs/quick-start.md')).toContain('npm pkg set scripts.start=');
  });
});
