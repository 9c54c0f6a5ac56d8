import { cleanup, render } from '@testing-library/react';
import type { Element, ElementContent } from 'hast';
import type { JSX } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamingMarkdown, type MarkdownComponents } from '../../../../src/components/markdown';
import { deltasOf, generateShape } from '../../../helpers/markdown-corpus';

afterEach(cleanup);

/** Streams `text` delta by delta into one StreamingMarkdown; returns its root and a way to go on. */
function stream(text: string, count: number, components?: MarkdownComponents) {
  const { container, rerender } = render(<StreamingMarkdown text="" streaming components={components} />);
  let shown = '';
  for (const delta of deltasOf(text, count, 4)) {
    shown += delta;
    rerender(<StreamingMarkdown text={shown} streaming components={components} />);
  }
  return {
    root: container.querySelector<HTMLElement>('[data-part="markdown"]')!,
    show: (more: string, streaming = true) =>
      rerender(<StreamingMarkdown text={(shown += more)} streaming={streaming} components={components} />),
  };
}

/** The text of a hast node, as far as `limit` characters. */
function textOf(node: ElementContent | Element, limit = 40): string {
  if (node.type === 'text') return node.value.slice(0, limit);
  if (node.type !== 'element') return '';
  let text = '';
  for (const child of node.children) if (text.length < limit) text += textOf(child, limit - text.length);
  return text;
}

/** Counts the renders of each row (or item), by its text. */
function counting<Tag extends 'tr' | 'li'>(tag: Tag) {
  const renders = new Map<string, number>();
  const Counted = ({ node, ...props }: JSX.IntrinsicElements['tr'] & { node?: Element }) => {
    const text = node ? textOf(node).trim() : '';
    renders.set(text, (renders.get(text) ?? 0) + 1);
    const Tag = tag as 'tr';
    return <Tag {...props} />;
  };
  return { renders, components: { [tag]: Counted } as MarkdownComponents };
}

describe('StreamingMarkdown: a growing table, list or code block renders only what is new', { timeout: 60_000 }, () => {
  it('renders a table row while it arrives, never once it is complete', () => {
    const { renders, components } = counting('tr');
    const header = '| Month | Orders | Revenue |\n| :--- | ---: | ---: |\n';
    const rows = Array.from({ length: 120 }, (_, index) => `| 2024-${index} | ${index * 7} | $${index * 1_000} |\n`);
    const { root, show } = stream(`Revenue by month:\n\n${header}${rows.slice(0, 60).join('')}`, 600, components);
    renders.clear();
    // Sixty rows more, each in two deltas: each renders while it arrives, the rows above never.
    for (const row of rows.slice(60)) {
      show(row.slice(0, 10));
      show(row.slice(10));
    }
    expect(root.querySelectorAll('tbody tr')).toHaveLength(120);
    const rendered = [...renders.keys()].map((text) => Number(/^2024-(\d+)/.exec(text)?.[1]));
    expect(new Set(rendered)).toEqual(new Set(Array.from({ length: 60 }, (_, index) => 60 + index)));
    // `| 2024-6` and then the rest of the row.
    expect([...renders.values()].every((count) => count <= 2)).toBe(true);
  });

  it('leaves a table alone once a blank line ends it, while the heading and text after it arrive', () => {
    const { renders, components } = counting('tr');
    const header = '| Month | Orders | Revenue |\n| :--- | ---: | ---: |\n';
    const rows = Array.from({ length: 25 }, (_, index) => `| 2024-${index} | ${index * 7} | $${index * 1_000} |\n`);
    const { root, show } = stream(`Revenue by month:\n\n${header}${rows.join('')}\n`, 200, components);
    renders.clear();
    // What follows is parsed on its own, not with the table: none of its rows renders again, not
    // while the heading arrives, nor when the heading's line ends and the table settles.
    for (const delta of ['## 1', '. Mon', 'th by **reg', 'ion** and', '\n\nDecrease', ' in orders.']) show(delta);
    show('\n', false);
    expect(root.querySelectorAll('tbody tr')).toHaveLength(25);
    expect(root.querySelector('h2')?.textContent).toBe('1. Month by region and');
    expect(renders.size).toBe(0);
  });

  it('renders a list item while it arrives, and once more when the next one starts', () => {
    const { renders, components } = counting('li');
    const items = Array.from({ length: 80 }, (_, index) => `- finding ${index}\n  - detail of ${index}\n`);
    const { root, show } = stream(`Findings:\n\n${items.slice(0, 40).join('')}`, 300, components);
    renders.clear();
    for (const item of items.slice(40)) {
      show(item.slice(0, 12));
      show(item.slice(12));
    }
    expect(root.querySelectorAll(':scope > ul > li')).toHaveLength(80);
    // Items 0 to 38 (and their nested items) never render again; a later one renders per delta
    // while it arrives and once more when the item after it starts.
    const rendered = [...renders.keys()].map((text) => Number(/(\d+)/.exec(text)?.[1]));
    expect(Math.min(...rendered)).toBe(39);
    expect([...renders.values()].every((count) => count <= 3)).toBe(true);
  });

  it('keeps the text nodes of a code block’s lines already shown, and their text, while lines arrive', () => {
    const lines = Array.from({ length: 200 }, (_, index) => `SELECT ${index} AS value_${index} FROM orders;`);
    const { root, show } = stream(`The query:\n\n\`\`\`sql\n${lines.slice(0, 100).join('\n')}\n`, 400);
    const code = root.querySelector('pre code')!;
    const before = [...code.childNodes];
    expect(before.length).toBeGreaterThan(2);
    const shown = before.slice(0, -1).map((node) => node.textContent);
    const changed: Node[] = [];
    const observer = new MutationObserver((records) => changed.push(...records.map((record) => record.target)));
    observer.observe(code, { characterData: true, childList: true, subtree: true });
    for (const line of lines.slice(100)) show(`${line}\n`);
    show('```\n', false);
    observer.takeRecords().forEach((record) => changed.push(record.target));
    observer.disconnect();
    expect(code.textContent).toBe(`${lines.join('\n')}\n`);
    // The pieces before the last one are the same nodes, with the same text, never written to.
    expect(before.slice(0, -1).every((node, index) => code.childNodes[index] === node)).toBe(true);
    expect(before.slice(0, -1).map((node) => node.textContent)).toEqual(shown);
    expect(changed.filter((node) => before.slice(0, -1).includes(node as ChildNode))).toEqual([]);
  });

  it('leaves the blocks before the open one alone, in an answer of every shape', () => {
    const { components, renders } = counting('tr');
    const text = generateShape('mixed', 8_000, 2);
    const { root, show } = stream(text, 800, components);
    const tables = root.querySelectorAll('table').length;
    renders.clear();
    show('\n\nA closing paragraph, arriving');
    show(' a few words at a time.');
    expect(root.querySelectorAll('table')).toHaveLength(tables);
    expect(renders.size).toBe(0);
  });
});
