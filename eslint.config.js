// Lint rules: typescript-eslint's recommended set (syntactic; `tsc -p .` does the type checking)
// plus two type-aware rules on the TypeScript sources (floating promises, exhaustive switches),
// React's hook rules where React lives, the security rules the library promises (no eval, no
// `new Function`, no `postMessage(..., '*')`), and the import direction of the layers in
// docs/architecture.md.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Relative imports that climb out of a layer folder into the layer `name` (a regex group). */
const layer = (name) => `^(?:\\.\\./)+${name}(?:/|$)`;

const REACT_PACKAGES = '^(?:react|react-dom|@tanstack/react-query|react-markdown|remark-gfm)(?:/.*)?$';
const SERVER_PACKAGES = '^(?:hono|@hono/.*|@duckdb/.*|jose)(?:/.*)?$';
const NODE_BUILTINS = '^node:';

/** A `no-restricted-imports` rule from [regex, why] pairs. */
function restrict(...pairs) {
  return ['error', { patterns: pairs.map(([regex, message]) => ({ regex, message })) }];
}

const noReact = [REACT_PACKAGES, 'Layers (docs/architecture.md): only src/react and src/components use React.'];
const noServerPackages = [
  SERVER_PACKAGES,
  'Layers (docs/architecture.md): server-only packages belong to src/server and src/emulator.',
];
const noNode = [NODE_BUILTINS, 'This layer runs in browsers and workers too: no Node builtins.'];
const noUp = (name, why) => [layer(name), `Layers (docs/architecture.md): ${why}`];

/** Globals of the Node scripts and configs (JavaScript files get no type checker to know them). */
const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'URL', 'Buffer', 'setTimeout', 'clearTimeout', 'fetch', 'AbortController'].map((name) => [
    name,
    'readonly',
  ]),
);

export default tseslint.config(
  {
    ignores: [
      '**/dist/',
      'storybook-static/',
      'coverage/',
      'node_modules/',
      '.vitest-attachments/',
      'docs/api/',
      '**/.next/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression:matches([callee.name='postMessage'], [callee.property.name='postMessage']) > Literal.arguments[value='*']",
          message: "postMessage to '*' sends to any origin: pass the exact target origin.",
        },
        {
          selector: "Property[key.name='targetOrigin'][value.value='*']",
          message: "targetOrigin '*' sends to any origin: pass the exact target origin.",
        },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    // Type-aware rules, through the TypeScript project service (the tsconfig nearest each file).
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}', 'stories/**/*.{ts,tsx}'],
    // The examples' tests belong to the examples' own projects (examples/*/tsconfig.json).
    ignores: ['test/unit/examples/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its rejection: await it, return it, or mark a deliberate
      // fire-and-forget with `void` (and say why when it is not obvious).
      '@typescript-eslint/no-floating-promises': 'error',
      // A switch over a union handles every member, so a new member is a lint error where it matters.
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
    },
  },
  {
    files: ['src/react/**', 'src/components/**', 'stories/**', '.storybook/**', 'test/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },

  // Layers: each may import only the layers above it (docs/architecture.md, "Layers and entries").
  {
    files: ['src/core/protocol/**'],
    rules: {
      'no-restricted-imports': restrict(
        ['^\\.\\./', 'The protocol layer imports nothing from the rest of the library.'],
        noReact,
        noServerPackages,
        noNode,
      ),
    },
  },
  {
    files: ['src/core/**'],
    ignores: ['src/core/protocol/**'],
    rules: {
      'no-restricted-imports': restrict(
        noUp('(?:react|components|server|emulator|testing)', 'core imports only protocol and errors.'),
        noReact,
        noServerPackages,
        noNode,
      ),
    },
  },
  {
    files: ['src/react/**'],
    rules: {
      'no-restricted-imports': restrict(
        noUp('(?:components|server|emulator|testing)', 'react imports only core.'),
        noServerPackages,
        noNode,
      ),
    },
  },
  {
    files: ['src/components/**'],
    rules: {
      'no-restricted-imports': restrict(
        noUp('(?:server|emulator|testing)', 'components import only react and core.'),
        noServerPackages,
        noNode,
      ),
    },
  },
  {
    files: ['src/index.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          '^\\./(?:server|emulator|testing)(?:/|$)',
          'Layers (docs/architecture.md): the React entry never reaches server code.',
        ],
        noServerPackages,
        noNode,
      ),
    },
  },
  {
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': restrict(
        noUp('(?:react|components|emulator|testing)', 'server imports only core.'),
        noReact,
        noServerPackages,
        [NODE_BUILTINS, 'Server helpers are Fetch-standard: they run on edge runtimes too, so no Node builtins.'],
      ),
    },
  },
  {
    files: ['src/emulator/**'],
    rules: {
      'no-restricted-imports': restrict(
        noUp('(?:react|components|testing)', 'the emulator imports only core and server.'),
        noReact,
      ),
    },
  },
  {
    // The embed pages' script runs in the viewer's browser, bundled from these files.
    files: ['src/emulator/embed/page/**'],
    rules: {
      'no-restricted-imports': restrict(
        noUp('(?:react|components|testing|server)', 'the embed page script imports only core.'),
        noReact,
        noServerPackages,
        noNode,
      ),
    },
  },
  {
    files: ['src/testing/**'],
    rules: {
      'no-restricted-imports': restrict(
        noUp('(?:react|components|server|emulator)', 'the testing kit imports only core.'),
        noReact,
        noServerPackages,
      ),
    },
  },
);
