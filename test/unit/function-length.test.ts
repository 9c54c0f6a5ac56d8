// @vitest-environment node
/**
 * No function of `src/` is longer than a reader can outline: at most {@link MAX_LINES} lines of its
 * own. A function's own lines are its lines without those of the named functions inside it
 * (declarations, methods, functions bound to a name, and route handlers, which their method and
 * path name: `app.get('/api/v1/folders', ...)`): a factory made of named functions is as easy to
 * outline as a module. Anonymous callbacks count toward the function that holds them.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../helpers/sources';

const MAX_LINES = 120;

/** Functions allowed to stay longer, with their length today; each may only shrink. None today. */
const ALLOWED: Record<string, number> = {};

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.AccessorDeclaration
  | ts.ConstructorDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node) ||
    ts.isConstructorDeclaration(node)
  );
}

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'on']);

/** The route `handler` answers when it is one: `GET /api/v1/folders` of `app.get('/api/v1/folders', ..., handler)`. */
function routeOf(handler: ts.Node): string | undefined {
  const call = handler.parent;
  if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) return undefined;
  const method = call.expression.name.text;
  const [path] = call.arguments;
  if (!ROUTE_METHODS.has(method) || call.arguments.length < 2 || !path || path === handler) return undefined;
  const named = ts.isStringLiteral(path) || ts.isNoSubstitutionTemplateLiteral(path) || ts.isTemplateExpression(path);
  return named || ts.isIdentifier(path) ? `${method.toUpperCase()} ${path.getText()}` : undefined;
}

/** The name a reader outlines a function by, or `undefined` for an anonymous callback. */
function nameOf(node: FunctionNode): string | undefined {
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return node.name?.getText();
  const { parent } = node;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText();
  return node.name?.getText() ?? routeOf(node);
}

/** Every named function of `file` (with its owner's name, `managementFeature.create`) and its own lines. */
function functionLengths(file: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const line = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const span = (node: ts.Node) => line(node.getEnd()) - line(node.getStart()) + 1;
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node, owner: string): void => {
    const name = isFunction(node) ? nameOf(node) : undefined;
    if (isFunction(node) && node.body && name !== undefined) {
      let nested = 0;
      const subtract = (inner: ts.Node): void => {
        if (isFunction(inner) && inner.body && nameOf(inner) !== undefined) nested += span(inner);
        else ts.forEachChild(inner, subtract);
      };
      ts.forEachChild(node.body, subtract);
      const qualified = owner ? `${owner}.${name}` : name;
      found.push({ name: qualified, lines: span(node) - nested });
      ts.forEachChild(node, (child) => visit(child, qualified));
      return;
    }
    const container =
      ts.isVariableDeclaration(node) || ts.isClassDeclaration(node) ? (node.name?.getText() ?? owner) : owner;
    ts.forEachChild(node, (child) => visit(child, container));
  };
  visit(source, '');
  return found;
}

const LENGTHS = sourceFiles().flatMap((file) =>
  functionLengths(file).map(({ name, lines }) => ({ key: `${relative(SRC, file)} ${name}`, lines })),
);

describe('function length', () => {
  it(`no function of src/ has more than ${MAX_LINES} lines of its own`, () => {
    const over = LENGTHS.filter(({ key, lines }) => lines > (ALLOWED[key] ?? MAX_LINES)).map(
      ({ key, lines }) => `${key}: ${lines} lines`,
    );
    expect(over).toEqual([]);
  });

  it('every allowance is still needed', () => {
    for (const [key, lines] of Object.entries(ALLOWED)) {
      const found = LENGTHS.find((entry) => entry.key === key);
      expect(found, key).toBeDefined();
      expect(found!.lines, `${key} is within ${MAX_LINES} lines now: remove its allowance`).toBeGreaterThan(MAX_LINES);
      expect(found!.lines, `${key} shrank: lower its allowance to ${found!.lines}`).toBe(lines);
    }
  });

  it('measures what a reader sees', () => {
    // Guards the measure itself: the chat client's stream is split into named pieces.
    const keys = LENGTHS.map(({ key }) => key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'core/chat-client.ts createChatClient.stream',
        'core/chat-client.ts createChatClient.readAnswer',
        'core/chat-client.ts createChatClient.waitToResend',
      ]),
    );
    expect(LENGTHS.length).toBeGreaterThan(500);
  });
});
