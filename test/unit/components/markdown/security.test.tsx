import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamingMarkdown, allowedImageUrl, safeUrl } from '../../../../src/components/markdown';

afterEach(cleanup);

function markdown(text: string, allowedImageOrigins?: readonly string[]): HTMLElement {
  const { container } = render(<StreamingMarkdown text={text} allowedImageOrigins={allowedImageOrigins} />);
  return container.querySelector<HTMLElement>('[data-part="markdown"]')!;
}

const HOSTILE_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;&#x61;vascript:alert(1)',
  'java&#09;script:alert(1)',
  '<java\tscript:alert(1)>',
  '<\x01javascript:alert(1)>',
  '<javascript\n:alert(1)>',
  'javascript&colon;alert(1)',
  'jav&#x0A;ascript:alert(1)',
  '\\javascript:alert(1)',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'DATA:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  '//evil.example/path',
  '/relative/path',
  '#fragment',
];

describe('StreamingMarkdown security', () => {
  it.each(HOSTILE_URLS)('drops the link URL %s', (url) => {
    const root = markdown(`[click](${url}) and [ref]\n\n[ref]: ${url}\n`);
    for (const link of root.querySelectorAll('a')) {
      const href = link.getAttribute('href');
      expect(href === null || /^(?:https?|mailto):/i.test(href), String(href)).toBe(true);
    }
    expect(root.innerHTML).not.toMatch(/javascript:|vbscript:|data:/i);
  });

  it.each(HOSTILE_URLS)('loads no image from %s', (url) => {
    const root = markdown(`![alt text](${url})`, ['https://img.example']);
    expect(root.querySelector('img')).toBeNull();
  });

  it('keeps http, https and mailto links, opening in a new tab without opener or referrer', () => {
    const root = markdown(
      '[a](http://a.example) [b](HTTPS://b.example/x?y=1) [c](mailto:c@example.com) <https://d.example>',
    );
    const links = [...root.querySelectorAll('a')];
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'http://a.example',
      'HTTPS://b.example/x?y=1',
      'mailto:c@example.com',
      'https://d.example',
    ]);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    }
  });

  it('keeps footnote links on the page, and a footnote cannot carry an unsafe URL or a link that looks like one', () => {
    const root = markdown(
      'Note[^1] and [fake](#user-content-fn-1) and [^j].\n\n[^1]: See [docs](javascript:alert(1)).\n[^j]: <https://ok.example>\n',
    );
    const references = [...root.querySelectorAll('a[data-footnote-ref]')];
    expect(references.map((link) => link.getAttribute('href'))).toEqual(['#user-content-fn-1', '#user-content-fn-j']);
    for (const link of [...references, ...root.querySelectorAll('a[data-footnote-backref]')]) {
      expect(link.getAttribute('href')).toMatch(/^#user-content-fn/);
      expect(link.hasAttribute('target')).toBe(false);
    }
    // A link written in markdown to the same fragment is an ordinary link: its URL is dropped.
    const fake = [...root.querySelectorAll('a')].find((link) => link.textContent === 'fake');
    expect(fake?.hasAttribute('href')).toBe(false);
    expect(root.innerHTML).not.toMatch(/javascript:/i);
    expect(root.querySelector('section[data-footnotes] a[href="https://ok.example"]')).not.toBeNull();
  });

  it('never renders raw HTML', () => {
    const root = markdown(
      '<script>window.__pwned = 1</script>\n\n<img src=x onerror="window.__pwned=1">\n\n<iframe src="https://evil.example"></iframe>\n\n' +
        'inline <b onclick="x()">bold</b> <a href="javascript:alert(1)">a</a>\n\n<div onmouseover="x()">div</div>\n',
    );
    expect(root.querySelectorAll('script, iframe, img, b, div, [onclick], [onerror], [onmouseover]')).toHaveLength(0);
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).not.toContain('__pwned');
  });

  it('shows an image only from an allowed origin, else its alt text', () => {
    const text =
      '![Revenue chart](https://img.example/chart.png "Revenue") ![Tracker](https://evil.example/pixel.gif) ![](https://evil.example/x.png)';
    const none = markdown(text);
    expect(none.querySelector('img')).toBeNull();
    expect([...none.querySelectorAll('[data-part="markdown-image"]')].map((part) => part.textContent)).toEqual([
      'Revenue chart',
      'Tracker',
      'Image',
    ]);
    cleanup();
    const allowed = markdown(text, ['https://img.example/']);
    expect([...allowed.querySelectorAll('img')].map((image) => image.getAttribute('src'))).toEqual([
      'https://img.example/chart.png',
    ]);
    expect(allowed.querySelector('img')?.getAttribute('alt')).toBe('Revenue chart');
  });

  it('hands sanitized props to custom element renderers', () => {
    const seen: (string | undefined)[] = [];
    const components = {
      a: (props: React.JSX.IntrinsicElements['a']) => {
        seen.push(props.href);
        return <a {...props} />;
      },
      img: (props: React.JSX.IntrinsicElements['img']) => {
        seen.push(typeof props.src === 'string' ? props.src : undefined);
        return <span>{props.alt}</span>;
      },
    };
    render(
      <StreamingMarkdown text="[x](javascript:alert(1)) ![y](https://evil.example/p.gif)" components={components} />,
    );
    expect(seen).toEqual([undefined, undefined]);
  });

  it('safeUrl and allowedImageUrl', () => {
    expect(safeUrl('https://a.example/x')).toBe('https://a.example/x');
    expect(safeUrl(' https://a.example')).toBeUndefined();
    expect(safeUrl('https:')).toBeUndefined();
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(allowedImageUrl('https://img.example/a.png', ['https://img.example'])).toBe('https://img.example/a.png');
    expect(allowedImageUrl('https://img.example.evil/a.png', ['https://img.example'])).toBeUndefined();
    expect(allowedImageUrl('http://img.example/a.png', ['https://img.example'])).toBeUndefined();
    expect(allowedImageUrl('mailto:a@img.example', ['https://img.example'])).toBeUndefined();
    expect(allowedImageUrl('https://img.example/a.png', [])).toBeUndefined();
  });
});
