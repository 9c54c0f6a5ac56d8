import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamingMarkdown } from '../../../../src/components/markdown';

afterEach(cleanup);

function streaming(text: string): HTMLElement {
  const { container } = render(<StreamingMarkdown text={text} streaming />);
  const root = container.querySelector<HTMLElement>('[data-part="markdown"]')!;
  expect(root.dataset.state).toBe('streaming');
  return root;
}

function complete(text: string): HTMLElement {
  cleanup();
  const { container } = render(<StreamingMarkdown text={text} />);
  return container.querySelector<HTMLElement>('[data-part="markdown"]')!;
}

describe('StreamingMarkdown while streaming: unfinished syntax never shows raw', () => {
  it('closes open bold, italic and strikethrough', () => {
    const root = streaming('Revenue grew **strongly in _Q3 and ~~fell');
    expect(root.querySelector('strong')?.textContent).toBe('strongly in Q3 and fell');
    expect(root.querySelector('strong em')?.textContent).toBe('Q3 and fell');
    expect(root.querySelector('strong em del')?.textContent).toBe('fell');
    expect(root.textContent).not.toMatch(/[*_~]/);
  });

  it('drops an emphasis opener with nothing after it yet', () => {
    for (const text of ['Revenue **', 'Revenue _', 'Revenue ~~', 'Revenue `']) {
      const root = streaming(text);
      expect(root.textContent, text).toBe('Revenue');
      cleanup();
    }
  });

  it('leaves literal asterisks and underscores alone', () => {
    const root = streaming('2 * 3 = 6 and snake_case_name');
    expect(root.textContent).toBe('2 * 3 = 6 and snake_case_name');
    expect(root.querySelector('em')).toBeNull();
  });

  it('closes open inline code', () => {
    const root = streaming('Run `npm inst');
    expect(root.querySelector('code')?.textContent).toBe('npm inst');
    expect(root.textContent).not.toContain('`');
  });

  it('shows an open fence as code, and hides a fence or its end still being typed', () => {
    expect(streaming('```sql\nSELECT 1\n').querySelector('pre code')?.textContent).toBe('SELECT 1\n');
    cleanup();
    const closing = streaming('```sql\nSELECT 1\n``');
    expect(closing.querySelector('pre code')?.textContent).toBe('SELECT 1\n');
    expect(closing.textContent).not.toContain('``');
    cleanup();
    const opening = streaming('Query:\n\n``');
    expect(opening.textContent).toBe('Query:');
  });

  it('shows a link whose destination is still arriving as text, never as a link', () => {
    for (const text of ['See [the docs](https://docs.exa', 'See [the docs](', 'See [the docs]', 'See [the docs']) {
      const root = streaming(text);
      expect(root.querySelector('a'), text).toBeNull();
      expect(root.textContent, text).toBe('See the docs');
      cleanup();
    }
    const done = streaming('See [the docs](https://docs.example.com) now');
    expect(done.querySelector('a')?.getAttribute('href')).toBe('https://docs.example.com');
  });

  it('hides a bare URL until it ends, then links it', () => {
    const root = streaming('Open https://docs.exa');
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toBe('Open');
    cleanup();
    expect(streaming('Open https://docs.example.com and').querySelector('a')?.getAttribute('href')).toBe(
      'https://docs.example.com',
    );
  });

  it('hides an image whose URL is still arriving', () => {
    const root = streaming('Chart: ![revenue by month](https://img.exa');
    expect(root.textContent).toBe('Chart:');
  });

  it('shows a table from its header, before the delimiter row arrives', () => {
    for (const text of [
      '| Region | Revenue |',
      '| Region | Rev',
      '| Region | Revenue |\n',
      '| Region | Revenue |\n| :-- ',
      '| Region | Revenue |\n|---|---|\n| EU | 12',
    ]) {
      const root = streaming(text);
      expect(root.querySelector('table'), text).not.toBeNull();
      expect(root.textContent, text).not.toContain('|');
      expect(root.textContent, text).not.toContain('--');
      cleanup();
    }
    expect(streaming('| Region | Revenue |\n|---|---|\n| EU | 12').querySelectorAll('td')).toHaveLength(2);
  });

  it('waits for a setext underline or thematic break line before using it', () => {
    const root = streaming('Summary\n--');
    expect(root.querySelector('h2')).toBeNull();
    expect(root.textContent).toBe('Summary');
  });

  it('never shows footnote syntax raw, and numbers a reference before its definition arrives', () => {
    const text =
      'Revenue grew[^growth] in Q3.\n\nChurn fell[^churn].\n\n[^growth]: From the orders view.\n[^churn]: Monthly.\n';
    for (let end = 1; end < text.length; end++) {
      const root = streaming(text.slice(0, end));
      expect(root.textContent, JSON.stringify(text.slice(0, end))).not.toMatch(/\[\^|\^(?:g|c|$)|\]:/);
      cleanup();
    }
    const early = streaming('Revenue grew[^growth] in Q3.');
    expect(early.querySelector('sup a[data-footnote-ref]')?.textContent).toBe('1');
    cleanup();
    // A reference that is never defined is text once the stream ends, as in a whole-text render.
    expect(complete('Revenue grew[^growth] in Q3.').textContent).toBe('Revenue grew[^growth] in Q3.');
  });

  it('renders the text as it is once the stream ends', () => {
    expect(complete('Revenue **').textContent).toBe('Revenue **');
    expect(complete('See [the docs](https://docs.exa').textContent).toBe('See [the docs](https://docs.exa');
    expect(complete('Summary\n--').querySelector('h2')?.textContent).toBe('Summary');
  });
});

describe('StreamingMarkdown: settled blocks render once', () => {
  it('re-renders only the open block as deltas arrive', () => {
    let headings = 0;
    let paragraphs = 0;
    const components = {
      h2: (props: React.JSX.IntrinsicElements['h2']) => {
        headings++;
        return <h2 {...props} />;
      },
      p: (props: React.JSX.IntrinsicElements['p']) => {
        paragraphs++;
        return <p {...props} />;
      },
    };
    const text = '## Revenue\n\nFirst paragraph.\n\n' + 'Streaming words arrive one by one. '.repeat(10);
    const { rerender, container } = render(<StreamingMarkdown text="" streaming components={components} />);
    for (let end = 1; end <= text.length; end += 3) {
      rerender(<StreamingMarkdown text={text.slice(0, end)} streaming components={components} />);
    }
    // The heading renders while its own line arrives, then never again once settled.
    const headingRenders = headings;
    const paragraphRenders = paragraphs;
    for (let index = 1; index <= 20; index++) {
      rerender(<StreamingMarkdown text={text + 'more '.repeat(index)} streaming components={components} />);
    }
    expect(headings).toBe(headingRenders);
    // Only the last paragraph (the open block) rendered again, once per delta.
    expect(paragraphs - paragraphRenders).toBe(20);
    expect(container.querySelector('h2')?.textContent).toBe('Revenue');
  });
});
