import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MARKDOWN_LIMITS, StreamingMarkdown } from '../../../../src/components/markdown';

afterEach(cleanup);

function markdown(text: string, props: Partial<Parameters<typeof StreamingMarkdown>[0]> = {}): HTMLElement {
  const { container } = render(<StreamingMarkdown text={text} {...props} />);
  return container.querySelector<HTMLElement>('[data-part="markdown"]')!;
}

const plainParts = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('[data-part="markdown-plain"]')];

describe('StreamingMarkdown limits: a markdown bomb renders as plain text, the rest as markdown', () => {
  it('has explicit defaults', () => {
    expect(DEFAULT_MARKDOWN_LIMITS).toEqual({
      maxLength: 1_048_576,
      maxBlockLength: 32_768,
      maxDepth: 32,
      maxMarkers: 2_000,
    });
  });

  it('10,000 nested quotes', () => {
    const bomb = '> '.repeat(10_000) + 'deep';
    const root = markdown(`# Before\n\n${bomb}\n\nAfter **bold**\n`);
    expect(root.querySelector('h1')?.textContent).toBe('Before');
    expect(root.querySelector('strong')?.textContent).toBe('bold');
    expect(root.querySelectorAll('blockquote')).toHaveLength(0);
    const [plain, ...others] = plainParts(root);
    expect(others).toHaveLength(0);
    expect(plain!.dataset.reason).toBe('depth');
    expect(plain!.textContent).toContain('deep');
  });

  it('nesting just within the limit still renders as markdown', () => {
    const root = markdown('> '.repeat(DEFAULT_MARKDOWN_LIMITS.maxDepth) + 'deep');
    expect(root.querySelectorAll('blockquote')).toHaveLength(DEFAULT_MARKDOWN_LIMITS.maxDepth);
    expect(plainParts(root)).toHaveLength(0);
  });

  it('a list nested 1,000 deep', () => {
    let bomb = '';
    for (let depth = 0; depth < 1_000; depth++) bomb += '  '.repeat(depth) + '- item\n';
    const root = markdown(`Intro\n\n${bomb}\nOutro\n`);
    expect(root.querySelector('p')?.textContent).toBe('Intro');
    expect(root.querySelectorAll('li').length).toBeLessThan(40);
    expect(plainParts(root).some((part) => part.dataset.reason === 'depth')).toBe(true);
    expect(root.lastElementChild?.textContent).toBe('Outro');
  });

  it('a 1 MB line renders as plain text in pieces, every character kept', () => {
    const line = 'word '.repeat(200_000);
    const root = markdown(`# Title\n\n${line}`);
    expect(root.querySelector('h1')?.textContent).toBe('Title');
    const parts = plainParts(root);
    expect(parts.length).toBe(Math.ceil(line.length / DEFAULT_MARKDOWN_LIMITS.maxBlockLength));
    expect(parts.every((part) => part.dataset.reason === 'length')).toBe(true);
    expect(parts.map((part) => part.textContent).join('')).toBe(line);
  });

  it('thousands of emphasis markers in one paragraph', () => {
    const bomb = ('*a'.repeat(50) + '\n').repeat(1_000).trimEnd();
    const root = markdown(`Before\n\n${bomb}\n\nAfter *fine*`);
    expect(root.querySelector('p')?.textContent).toBe('Before');
    expect(root.querySelector('em')?.textContent).toBe('fine');
    expect(root.querySelectorAll('em')).toHaveLength(1);
    const parts = plainParts(root);
    expect(parts.every((part) => part.dataset.reason === 'markers')).toBe(true);
    expect(parts.map((part) => part.textContent).join('')).toBe(bomb + '\n');
  });

  it('markers in fenced code do not count', () => {
    const code = '```python\n' + 'value = a_b * c_d  # *_*\n'.repeat(400) + '```\n';
    const root = markdown(code);
    expect(root.querySelector('pre code')?.textContent?.length).toBe(code.length - '```python\n```\n'.length);
    expect(plainParts(root)).toHaveLength(0);
  });

  it('inline nesting past the limit', () => {
    const root = markdown('*'.repeat(900) + 'x' + '*'.repeat(900));
    expect(plainParts(root).map((part) => part.dataset.reason)).toEqual(['depth']);
  });

  it('text past maxLength is cut off with a notice', () => {
    const root = markdown('a'.repeat(120) + '\n\n**b**', {
      limits: { maxLength: 100 },
      labels: { truncated: 'Cut here.' },
    });
    expect(root.textContent).toBe('a'.repeat(100) + 'Cut here.');
    expect(root.querySelector('[data-part="markdown-truncated"]')?.textContent).toBe('Cut here.');
  });

  it('a stream that grows past the limits keeps rendering, and ends as a whole-text render does', () => {
    const text = 'Intro\n\n' + '> '.repeat(500) + 'x\n\n' + 'word '.repeat(20_000) + '\n\n**Outro**';
    const { container, rerender } = render(<StreamingMarkdown text="" streaming />);
    for (let end = 0; end <= text.length; end += 997)
      rerender(<StreamingMarkdown text={text.slice(0, end)} streaming />);
    rerender(<StreamingMarkdown text={text} />);
    const root = container.querySelector<HTMLElement>('[data-part="markdown"]')!;
    expect(root.querySelector('p')?.textContent).toBe('Intro');
    expect(plainParts(root).map((part) => part.dataset.reason)).toEqual([
      'depth',
      'length',
      'length',
      'length',
      'length',
    ]);
    expect(root.querySelector('strong')?.textContent).toBe('Outro');
    const streamed = root.innerHTML;
    cleanup();
    expect(markdown(text).innerHTML).toBe(streamed);
  }, 60_000);
});
