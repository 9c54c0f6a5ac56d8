import { cleanup, render } from '@testing-library/react';
import fc from 'fast-check';
import { toHast } from 'mdast-util-to-hast';
import type { ReactNode } from 'react';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamingMarkdown, type StreamingMarkdownProps } from '../../../../src/components/markdown';
import { parseMarkdown } from '../../../../src/components/markdown/parse';
import { renderHast } from '../../../../src/components/markdown/render';
import { ANSWER_SHAPES, TRICKY_MARKDOWN, generateAnswer, generateShape } from '../../../helpers/markdown-corpus';

afterEach(cleanup);

/** Runs per property; raise it (`MARKDOWN_PROPERTY_RUNS=2000`) to search harder. */
const RUNS = Number(process.env.MARKDOWN_PROPERTY_RUNS ?? 200);

const OPTIONS = {
  components: undefined,
  allowedImageOrigins: ['https://img.example'],
  imageLabel: 'Image',
  taskLabel: 'Done',
};

/** The whole text parsed and rendered in one go: what the streamed result must equal. */
function Whole({ text }: { text: string }): ReactNode {
  return <div>{renderHast(toHast(parseMarkdown(text)), OPTIONS)}</div>;
}

function wholeHtml(text: string): string {
  const { container } = render(<Whole text={text} />);
  const html = canonical((container.firstChild as HTMLElement).innerHTML);
  cleanup();
  return html;
}

/** The HTML with each element's attributes in name order (their order means nothing). */
function canonical(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll('*')) {
    const attributes = [...element.attributes].map((attribute) => [attribute.name, attribute.value] as const);
    for (const [name] of attributes) element.removeAttribute(name);
    for (const [name, value] of attributes.sort(([a], [b]) => a.localeCompare(b))) element.setAttribute(name, value);
  }
  return template.innerHTML;
}

/** Streams `text` cut at `cuts` into StreamingMarkdown, then ends the stream; returns its HTML. */
function streamedHtml(text: string, cuts: readonly number[], props: Partial<StreamingMarkdownProps> = {}): string {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const base = { allowedImageOrigins: OPTIONS.allowedImageOrigins, ...props };
  const { container, rerender } = render(<StreamingMarkdown text="" streaming {...base} />);
  for (const point of points) rerender(<StreamingMarkdown text={text.slice(0, point)} streaming {...base} />);
  rerender(<StreamingMarkdown text={text} streaming {...base} />);
  rerender(<StreamingMarkdown text={text} streaming={false} {...base} />);
  const root = container.querySelector('[data-part="markdown"]')!;
  expect(root.getAttribute('data-state')).toBe('complete');
  const html = canonical(root.innerHTML);
  cleanup();
  return html;
}

const documents = fc.oneof(
  fc.constantFrom(...TRICKY_MARKDOWN),
  // Several tricky documents in one: definitions then act across blocks far apart.
  fc.array(fc.constantFrom(...TRICKY_MARKDOWN), { minLength: 2, maxLength: 4 }).map((parts) => parts.join('\n')),
);

describe('StreamingMarkdown: the streamed result equals a whole-text render', () => {
  it.each(TRICKY_MARKDOWN.map((text, index) => [index, text] as const))(
    'document %i, one character at a time',
    (_, text) => {
      const every = Array.from({ length: text.length }, (__, index) => index);
      expect(streamedHtml(text, every)).toBe(wholeHtml(text));
    },
  );

  it('for random documents cut at random points', () => {
    fc.assert(
      fc.property(documents, fc.array(fc.nat(), { maxLength: 40 }), (text, cuts) => {
        expect(streamedHtml(text, cuts)).toBe(wholeHtml(text));
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('for random text from markdown punctuation', () => {
    const alphabet = fc.constantFrom(
      ...[
        'a',
        'b',
        ' ',
        '\n',
        '\n\n',
        '*',
        '_',
        '`',
        '```',
        '~',
        '#',
        '>',
        '-',
        '1.',
        '|',
        '[',
        ']',
        '(',
        ')',
        ':',
        '=',
      ],
      ...['    ', '- ', '\n- ', '> ', '\n---\n', '| - |', '[r]', '![i](https://img.example/a.png)', 'https://x.io'],
      '[r]: https://r.io\n',
      ...['[^1]', '[^x]', '\n[^1]: note\n', '\n\n[^x]: other note[^1]\n', '[^'],
    );
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((parts) => parts.join('')),
        fc.array(fc.nat(), { maxLength: 20 }),
        (text, cuts) => {
          expect(streamedHtml(text, cuts)).toBe(wholeHtml(text));
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it.each(ANSWER_SHAPES)(
    'for an answer of shape %s, streamed and given at once',
    (shape) => {
      const text = generateShape(shape, 5_000, 9);
      const cuts = Array.from({ length: 400 }, (_, index) => index * 13 + (index % 7));
      expect(streamedHtml(text, cuts)).toBe(wholeHtml(text));
      const { container } = render(<StreamingMarkdown text={text} allowedImageOrigins={OPTIONS.allowedImageOrigins} />);
      expect(canonical(container.querySelector('[data-part="markdown"]')!.innerHTML)).toBe(wholeHtml(text));
    },
    120_000,
  );

  it('for a long generated answer, streamed and given at once', () => {
    const text = generateAnswer(6_000, 7);
    const cuts = Array.from({ length: 300 }, (_, index) => index * 20 + (index % 7));
    expect(streamedHtml(text, cuts)).toBe(wholeHtml(text));
    // A whole-text render of the component itself goes through the same windows.
    const { container } = render(<StreamingMarkdown text={text} allowedImageOrigins={OPTIONS.allowedImageOrigins} />);
    expect(canonical(container.querySelector('[data-part="markdown"]')!.innerHTML)).toBe(wholeHtml(text));
  }, 120_000);
});

describe('StreamingMarkdown: GFM as remark-gfm parses it', () => {
  // react-markdown with remark-gfm is the reference renderer; raw HTML (which this component
  // leaves out by design) is not in these documents.
  const withoutHtml = TRICKY_MARKDOWN.filter((text) => !text.includes('<div>'));

  it.each(withoutHtml.map((text, index) => [index, text] as const))('document %i', (_, text) => {
    const reference = render(
      <div>
        <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={(url) => url}>
          {text}
        </Markdown>
      </div>,
    );
    const expected = normalize((reference.container.firstChild as HTMLElement).innerHTML);
    cleanup();
    const { container } = render(<Whole text={text} />);
    expect(normalize((container.firstChild as HTMLElement).innerHTML)).toBe(expected);
  });
});

/**
 * Differences that are the point: whitespace text between blocks, the link hardening (target,
 * rel, unsafe URLs dropped), read-only task boxes and images not loaded.
 */
function normalize(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const link of template.content.querySelectorAll('a')) {
    link.removeAttribute('target');
    link.removeAttribute('rel');
    const href = link.getAttribute('href');
    if (href !== null && !/^(?:https?|mailto):/i.test(href)) link.removeAttribute('href');
  }
  for (const box of template.content.querySelectorAll('input')) {
    box.removeAttribute('readonly');
    box.removeAttribute('aria-label');
  }
  for (const image of template.content.querySelectorAll('img')) {
    if (!image.getAttribute('src')?.startsWith('https://img.example/'))
      image.replaceWith(image.getAttribute('alt') ?? '');
  }
  return template.innerHTML.replace(/>\n+</g, '><');
}

describe('StreamingMarkdown: counterexamples the properties found', () => {
  // Indented code followed by an empty list item: whole, the item is the paragraph `-`; parsed
  // apart after the code, it was an empty list. Each cut point of each is tried.
  it.each(['    a\n- \n\n', '    a\n\n- \n', '    a\n\n-\n', '\tcode\n\n* \n\ntext'])('%j', (text) => {
    const whole = wholeHtml(text);
    for (let cut = 0; cut <= text.length; cut += 1) expect(streamedHtml(text, [cut])).toBe(whole);
    expect(
      streamedHtml(
        text,
        [...text].map((_, index) => index),
      ),
    ).toBe(whole);
  });
});
