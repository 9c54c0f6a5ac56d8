import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../../src/components/markdown/parse';
import { ANSWER_SHAPES, TRICKY_MARKDOWN, generateShape } from '../../../helpers/markdown-corpus';

/** Runs per property; raise it (`MARKDOWN_PROPERTY_RUNS=2000`) to search harder. */
const RUNS = Number(process.env.MARKDOWN_PROPERTY_RUNS ?? 200);

/** Every GFM extension, every time: what remark-gfm hands the parser. */
const ALL_OF_GFM = {
  extensions: [gfmAutolinkLiteral(), gfmFootnote(), gfmStrikethrough(), gfmTable(), gfmTaskListItem()],
  mdastExtensions: [
    gfmAutolinkLiteralFromMarkdown(),
    gfmFootnoteFromMarkdown(),
    gfmStrikethroughFromMarkdown(),
    gfmTableFromMarkdown(),
    gfmTaskListItemFromMarkdown(),
  ],
};

function expectSameTree(text: string): void {
  expect(parseMarkdown(text), JSON.stringify(text)).toEqual(fromMarkdown(text, ALL_OF_GFM));
}

describe('parseMarkdown: the tree of every GFM extension, with only those the text can use', () => {
  it('for the tricky documents and every shape of answer', () => {
    for (const text of TRICKY_MARKDOWN) expectSameTree(text);
    for (const shape of ANSWER_SHAPES) expectSameTree(generateShape(shape, 6_000, 11));
  });

  it('for the constructs each extension adds, written plainly, by reference and escaped', () => {
    for (const text of [
      'www.example.com, WWW.EXAMPLE.COM and http://x.io or HTTPS://x.io/a?b',
      'someone@example.com, mailto:a@b.co, xmpp:a@b.co/c and someone&#64;example.com',
      'www&#46;example.com, https&#58;//x.io and ww&#119;.x.io',
      '[^1] and ![^1] then [^1]: note',
      '~one~ ~~two~~ ~~~three~~~',
      '| a |\n| - |\n| b |',
      '- [ ] todo\n- [x] done\n- [X] done',
      '- [\n] unchecked: the line ending counts as the space',
      '- [\r\n  ] and a carriage return',
      '> - [\n>   ] in a quote',
      '-\t[\t]\ttabs',
      '\\@ \\| \\~ \\[^1] \\[ ]',
    ])
      expectSameTree(text);
  });

  it('for random text from markdown and GFM punctuation', () => {
    const alphabet = fc.constantFrom(
      ...['a', 'w', 'h', ' ', '\n', '\n\n', '*', '_', '`', '~', '~~', '|', '| - |', '-', '[', ']', '(', ')', ':'],
      ...['@', '.', '&', '#64;', '&#64;', 'www.', 'http', '://', 'https://x.io', 'b@c.de', 'mailto:', 'xmpp:'],
      ...['[^', '[^1]', '\n[^1]: x\n', '- [ ] ', '- [x] ', '\\', '&amp;', '<', '>', '    ', '> ', '1. '],
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 50 }).map((parts) => parts.join('')),
        (text) => expectSameTree(text),
      ),
      { numRuns: RUNS * 5 },
    );
  }, 120_000);
});
