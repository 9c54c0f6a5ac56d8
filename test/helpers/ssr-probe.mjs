/**
 * Run by test/unit/react/ssr.test.ts in a child process: plain Node, with no DOM and nothing
 * else loaded. While it imports each module it is given, in order, recording getters sit on the
 * browser globals (so even `typeof window` is seen, with the place that asked; they answer
 * `undefined`). Then it puts the globals back as Node has them and calls `render()` of the
 * `render` module: a render sees exactly a server, where an unguarded `window.x` or `document?.x`
 * is a ReferenceError. It prints what happened as JSON after a marker line.
 *
 *   node --enable-source-maps test/helpers/ssr-probe.mjs '<json: { modules: [{ label, specifier, require? }], render?: specifier }>'
 */
import { createRequire } from 'node:module';

/** The marker before the JSON result on stdout. */
const MARKER = '@@ssr-probe@@';
const GLOBALS = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage'];
const PROBE = new URL(import.meta.url).pathname;

const { modules, render } = JSON.parse(process.argv[2]);
const require = createRequire(`${process.cwd()}/`);
let phase = 'start';
const accesses = [];

const original = new Map(GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
for (const name of GLOBALS) {
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() {
      // The first frame outside this file is the code that asked.
      const frames = (new Error().stack ?? '')
        .split('\n')
        .slice(1)
        .map((line) => line.trim());
      const where = frames.find((frame) => !frame.includes(PROBE)) ?? '(unknown)';
      accesses.push({ global: name, phase, where });
      return undefined;
    },
  });
}

const logged = [];
for (const level of ['error', 'warn']) {
  console[level] = (...args) => logged.push({ level, phase, message: args.map(String).join(' ') });
}

const imports = [];
for (const module of modules) {
  phase = `import ${module.label}`;
  try {
    const namespace = module.require ? require(module.specifier) : await import(module.specifier);
    imports.push({ label: module.label, exports: Object.keys(namespace).length });
  } catch (error) {
    imports.push({ label: module.label, error: String(error?.stack ?? error) });
  }
}

for (const [name, descriptor] of original) {
  if (descriptor) Object.defineProperty(globalThis, name, descriptor);
  else delete globalThis[name];
}

let rendered;
if (render) {
  phase = 'render';
  try {
    rendered = (await import(render)).render();
  } catch (error) {
    rendered = { error: String(error?.stack ?? error) };
  }
}

process.stdout.write(`\n${MARKER}${JSON.stringify({ imports, rendered, accesses, logged })}\n`);
