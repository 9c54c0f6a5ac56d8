// @vitest-environment node
/**
 * One table of error codes (`ServiceErrorCodes` in `src/core/protocol/error-codes.ts`): every
 * `code` the sources write, compare or default to is in it, and every code in it is used
 * somewhere. The sources are read as syntax (a type-checked program would take half a minute
 * here); `ServiceErrorCode` makes the type checker hold the library's own constructors to the
 * table too.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../../helpers/sources';

const FILES = sourceFiles().map((path) => {
  const text = readFileSync(path, 'utf8');
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
});

/** The table: each code of the `ServiceErrorCodes` interface and its sentence (the member's type). */
const TABLE: Record<string, string> = (() => {
  const file = FILES.find((source) => source.fileName.endsWith(join('protocol', 'error-codes.ts')))!;
  const table = file.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'ServiceErrorCodes',
  )!;
  return Object.fromEntries(
    table.members.filter(ts.isPropertySignature).map((member) => {
      const type = member.type!;
      const sentence = ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal) ? type.literal.text : '';
      return [nameOf(member.name)!, sentence];
    }),
  );
})();

/** The string literals an expression can evaluate to (through `??`, `||`, `?:`, parentheses, `as`). */
function outcomes(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
    return outcomes(node.expression);
  if (ts.isConditionalExpression(node)) return [...outcomes(node.whenTrue), ...outcomes(node.whenFalse)];
  if (
    ts.isBinaryExpression(node) &&
    (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
      node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  )
    return [...outcomes(node.left), ...outcomes(node.right)];
  return [];
}

function nameOf(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node) || ts.isStringLiteral(node)) return node.text;
  return ts.isPropertyAccessExpression(node) ? node.name.text : undefined;
}

/** Functions of src/ with a parameter named `code`, and its position: `streamError(message, code)`. */
const CODE_PARAMETERS = new Map<string, number>();
for (const file of FILES) {
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) {
      const index = node.parameters.findIndex((parameter) => nameOf(parameter.name) === 'code');
      const name = nameOf(node.name);
      if (index >= 0 && name) CODE_PARAMETERS.set(name, index);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

/**
 * Every code the sources use, with where: `code: '…'` (object literals, including defaults such as
 * `code ?? '…'`), comparisons `x.code === '…'`, `code ?? '…'`, arguments given to a `code`
 * parameter, the values of tables named `…CODES`, and what is declared a `ServiceErrorCode` (a
 * variable, a function's return, `satisfies ServiceErrorCode`).
 */
function usedCodes(): Map<string, string[]> {
  const used = new Map<string, string[]>();
  for (const file of FILES) {
    const add = (codes: string[], node: ts.Node): void => {
      const where = `${relative(SRC, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      for (const code of codes) used.set(code, [...(used.get(code) ?? []), where]);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAssignment(node) && nameOf(node.name) === 'code') add(outcomes(node.initializer), node);
      if (ts.isBinaryExpression(node)) {
        const operator = node.operatorToken.kind;
        if (
          operator === ts.SyntaxKind.EqualsEqualsEqualsToken ||
          operator === ts.SyntaxKind.ExclamationEqualsEqualsToken
        ) {
          if (nameOf(node.left) === 'code') add(outcomes(node.right), node);
          if (nameOf(node.right) === 'code') add(outcomes(node.left), node);
        }
        if (operator === ts.SyntaxKind.QuestionQuestionToken && nameOf(node.left) === 'code')
          add(outcomes(node.right), node);
      }
      if (ts.isCallExpression(node)) {
        const index = CODE_PARAMETERS.get(nameOf(node.expression) ?? '');
        const argument = index === undefined ? undefined : node.arguments[index];
        if (argument) add(outcomes(argument), node);
      }
      if (ts.isVariableDeclaration(node) && /CODES$/.test(nameOf(node.name) ?? '') && node.initializer) {
        let table: ts.Expression = node.initializer;
        while (ts.isAsExpression(table) || ts.isSatisfiesExpression(table)) table = table.expression;
        if (ts.isObjectLiteralExpression(table))
          for (const property of table.properties)
            if (ts.isPropertyAssignment(property)) add(outcomes(property.initializer), property);
      }
      // Declared as codes: `const fallback: ServiceErrorCode = …`, `function f(): ServiceErrorCode { return … }`.
      if (ts.isVariableDeclaration(node) && node.type?.getText() === 'ServiceErrorCode' && node.initializer)
        add(outcomes(node.initializer), node);
      if (ts.isReturnStatement(node) && node.expression) {
        const owner = ts.findAncestor(node, ts.isFunctionLike);
        if (owner?.type?.getText() === 'ServiceErrorCode') add(outcomes(node.expression), node);
      }
      if (ts.isSatisfiesExpression(node) && node.type.getText() === 'ServiceErrorCode')
        add(outcomes(node.expression), node);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return used;
}

describe('error codes', () => {
  const used = usedCodes();

  it('every code the sources use is in ServiceErrorCodes', () => {
    expect(Object.keys(TABLE).length).toBeGreaterThan(30);
    const missing = [...used].filter(([code]) => !Object.hasOwn(TABLE, code));
    expect(Object.fromEntries(missing)).toEqual({});
  });

  it('every code of ServiceErrorCodes is used by the sources, and has one sentence', () => {
    expect(Object.keys(TABLE).filter((code) => !used.has(code))).toEqual([]);
    for (const [code, sentence] of Object.entries(TABLE)) expect(sentence, code).toMatch(/^[A-Za-z"].+\.$/);
  });

  it('finds codes written in each of the ways the sources write them', () => {
    // Guards the scan itself: one known use of each form.
    expect(used.get('invalid_options')).toEqual(expect.arrayContaining([expect.stringMatching(/^core\/errors\.ts/)]));
    expect(used.get('malformed_line')).toEqual([expect.stringMatching(/^core\/data-client\.ts/)]);
    expect(used.get('upstream_timeout')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^server\/session-handler\.ts/)]),
    );
    expect(used.get('ready_timeout')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^core\/embed-controller\.ts/)]),
    );
    expect(used.get('groups_not_found')).toEqual([expect.stringMatching(/^core\/protocol\/session\.ts/)]);
    expect(used.get('upsert_branch_changed')).toEqual([expect.stringMatching(/^core\/protocol\/workbook\.ts/)]);
  });
});
