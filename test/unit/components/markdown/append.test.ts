import fc from 'fast-check';
import type { Nodes as MdastNodes } from 'mdast';
import { describe, expect, it } from 'vitest';
import { parseExtending, type Parsed } from '../../../../src/components/markdown/append';
import { healTail } from '../../../../src/components/markdown/heal';
import { parseMarkdown } from '../../../../src/components/markdown/parse';
import { ANSWER_SHAPES, TRICKY_MARKDOWN, generateAnswer, generateShape } from '../../../helpers/markdown-corpus';

/** Runs per property; raise it (`MARKDOWN_PROPERTY_RUNS=2000`) to search harder. */
const RUNS = Number(process.env.MARKDOWN_PROPERTY_RUNS ?? 200);

/** The tree without positions, which only the parts a shortcut rebuilds could get wrong. */
function bare(node: MdastNodes): unknown {
  const { position: _position, ...rest } = node as MdastNodes & { children?: MdastNodes[] };
  return 'children' in rest ? { ...rest, children: rest.children!.map(bare) } : rest;
}

/**
 * Where each node starts, and where each leaf ends: what the shortcuts read from the previous tree
 * (a parent's end may differ by the spaces at the end of the text, which no shortcut reads).
 */
function offsets(node: MdastNodes, into: string[] = []): string[] {
  const { start, end } = node.position ?? {};
  into.push(
    `${node.type}:${start?.offset}:${start?.line}:${start?.column}${'children' in node ? '' : `-${end?.offset}:${end?.line}:${end?.column}`}`,
  );
  if ('children' in node) for (const child of node.children) offsets(child, into);
  return into;
}

/**
 * Parses the prefixes of `text` at `cuts` one after another, then the whole: healed, as the open
 * block is while streaming, and as they are, as the splitter parses the tail to settle blocks.
 */
function check(text: string, cuts: readonly number[]): void {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  for (const heal of [healTail, (prefix: string) => prefix]) {
    let previous: Parsed | undefined;
    for (const source of [...points.map((point) => heal(text.slice(0, point))), text]) {
      const tree = parseExtending(previous, source);
      const fresh = parseMarkdown(source);
      expect(bare(tree), JSON.stringify(source)).toEqual(bare(fresh));
      expect(offsets(tree), JSON.stringify(source)).toEqual(offsets(fresh));
      previous = { source, tree };
    }
  }
}

const lists = fc
  .array(
    fc.tuple(
      fc.constantFrom('- ', '* ', '1. ', '2) ', '- [ ] ', '  - ', '    ', ''),
      fc.constantFrom(
        'item',
        'more words here',
        '**bold** and `code`',
        '[link](https://x.io)',
        '- - -',
        '---',
        '2. two',
        '[r]: https://r.io',
        '',
      ),
      fc.constantFrom('\n', '\n\n', ' ', ''),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.map((part) => part.join('')).join(''));

const paragraphs = fc
  .array(
    fc.constantFrom(
      ...[
        'word',
        ' ',
        'more words',
        '.',
        ',',
        '**',
        '*',
        '_',
        '~~',
        '`',
        '[',
        '](https://x.io)',
        '\n',
        '\n\n',
        '1.',
        '# ',
        '- ',
      ],
      ...['www', '@', 'a.b', '\\', '&amp', '2 * 3', 'snake_case', '<', '>', '|', ']: https://r.io', '    ', '***'],
      ...['<di', 'v', 'pre'],
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('parseExtending builds the tree a fresh parse builds', () => {
  it('for paragraphs with emphasis, code and links', () => {
    // Every cut, then every other: shortcuts are taken from one prefix to the next.
    const every = (text: string, step: number) =>
      Array.from({ length: Math.ceil(text.length / step) }, (_, index) => index * step);
    fc.assert(
      fc.property(paragraphs, (text) => {
        check(text, every(text, 1));
        check(text, every(text, 2));
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('for lists growing item by item', () => {
    fc.assert(
      fc.property(lists, fc.array(fc.nat(), { maxLength: 30 }), (text, cuts) => check(text, cuts)),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('for fenced code growing line by line', () => {
    const code = fc
      .tuple(
        fc.constantFrom('```sql\n', '~~~\n', ' ```\n', '  ~~~\n', '````\n', '- ```\n'),
        fc.array(
          fc.constantFrom('SELECT 1', '\n', '  indented', '```', '~~~', '``', ' ', '\t', 'x`y', '\n\n', '    '),
          { maxLength: 12 },
        ),
      )
      .map(([fence, parts]) => fence + parts.join(''));
    fc.assert(
      fc.property(code, fc.array(fc.nat(), { maxLength: 20 }), (text, cuts) => check(text, cuts)),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('for tables growing row by row', () => {
    const table = fc
      .tuple(
        fc.constantFrom(
          '| a | b |\n| - | - |\n',
          '| a |\n| :-: |\n| 1 |\n',
          '  | a | b | c |\n  |---|---:|:--|\n',
          'para\n| a | b |\n| - | - |\n',
          '- item\n\n| a |\n| - |\n',
          'a | b\n--|--\n',
        ),
        fc.array(
          fc.constantFrom(
            ...['| 1 | 2 |', '| **b** | `c` |', '|', ' x ', '\n', '\n\n', '# h', '> q', '- i', '1. i', '```', '~~~'],
            ...['\\|', '[r]', '[r]: https://r.io', '[^1]', 'a | b', '    ', '\t', '|---|', '***', '<div>', '='],
          ),
          { maxLength: 24 },
        ),
      )
      .map(([head, parts]) => head + parts.join(''));
    fc.assert(
      fc.property(table, fc.array(fc.nat(), { maxLength: 30 }), (text, cuts) => check(text, cuts)),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('for an HTML block start arriving a letter at a time, in and after a paragraph', () => {
    for (const text of ['text\n<div\n', '<pre\nx\n', 'a\n\n  <table']) {
      check(
        text,
        Array.from({ length: text.length }, (_, index) => index),
      );
    }
  });

  it('for a thematic break whose line ends in spaces after it arrived (a break ends after them)', () => {
    // Found by the list property (seed -1578001450): blank lines after a break kept its old end.
    // One cut at a time: the spaces and the line end must arrive in the same delta.
    for (const text of ['- item\n- --- - \n', '---  \n\nnext', '* * *\t\n', 'para\n\n___ \n'])
      for (let cut = 0; cut <= text.length; cut++) check(text, [cut]);
  });

  it('for the tricky documents, one character at a time', () => {
    for (const text of TRICKY_MARKDOWN)
      check(
        text,
        Array.from({ length: text.length }, (_, index) => index),
      );
  }, 120_000);

  it.each([
    ['a generated answer', generateAnswer(3_000, 5)],
    ...ANSWER_SHAPES.map((shape) => [`an answer of shape ${shape}`, generateShape(shape, 2_000, 5)]),
  ])(
    'for %s in small deltas',
    (_, text) => {
      check(
        text!,
        Array.from({ length: 400 }, (__, index) => index * 5 + (index % 3)),
      );
    },
    120_000,
  );
});
