import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, waitFor } from 'storybook/test';
import {
  DEFAULT_MARKDOWN_LABELS,
  DEFAULT_MARKDOWN_LIMITS,
  StreamingMarkdown,
  type StreamingMarkdownProps,
} from '../src/components/markdown';
import { deltasOf } from '../test/helpers/markdown-corpus';

/** An analytics agent's answer, as recorded from a chat: what the streaming story replays. */
const ANSWER = `## Revenue by region, last quarter

Revenue grew **12.4%** quarter over quarter, led by _APAC_ ([definition](https://docs.example.com/metrics/revenue)).

| Region | Revenue | Growth |
| :--- | ---: | ---: |
| APAC | 1,284,000 | 18.2% |
| EU | 1,102,500 | 9.7% |
| North America | 2,310,900 | 8.1% |

The query behind the table:

\`\`\`sql
SELECT region, SUM(revenue) AS revenue
FROM orders
WHERE order_date >= DATE '2024-07-01'
GROUP BY region
ORDER BY revenue DESC;
\`\`\`

### What stands out

1. APAC's growth comes from **new customers** (64% of its increase).
2. EU is steady; the \`orders\` view shows no seasonal dip this year.
3. North America is still the largest region by far.

> Figures are in USD and exclude refunds.

- [x] Revenue by region
- [ ] Margin by region (needs the \`costs\` view)
`;

const UNFINISHED = `Revenue grew **strongly in _Q3 and the \`orders\` view shows [the trend](https://docs.exa`;

const HOSTILE = [
  '<script>window.__storyPwned = true</script>',
  '<img src="https://tracker.example/pixel.gif" onerror="window.__storyPwned = true">',
  '<iframe src="https://evil.example"></iframe>',
  '[A javascript: link](JaVaScRiPt:alert(1)), [an entity-encoded one](&#106;avascript:alert(1)) and [a data: URL](data:text/html,hi).',
  '![A tracking pixel](https://tracker.example/pixel.gif)',
  '> '.repeat(200) + 'a quote nested 200 deep',
].join('\n\n');

/** Replays `text` in deltas, as a chat would, and ends the stream when it is all there. */
function Replay({ text, interval = 30, ...props }: Omit<StreamingMarkdownProps, 'streaming'> & { interval?: number }) {
  const [shown, setShown] = useState(0);
  const [deltas] = useState(() => deltasOf(text, Math.max(2, Math.ceil(text.length / 6)), 2));
  useEffect(() => {
    if (shown >= deltas.length) return;
    const timer = setTimeout(() => setShown((count) => count + 1), interval);
    return () => clearTimeout(timer);
  }, [shown, deltas.length, interval]);
  return <StreamingMarkdown {...props} text={deltas.slice(0, shown).join('')} streaming={shown < deltas.length} />;
}

// Controls: edit `text` and flip `streaming` to see unfinished syntax healed and then rendered
// whole; `limits` and `labels` start at their defaults (`DEFAULT_MARKDOWN_LIMITS`,
// `DEFAULT_MARKDOWN_LABELS`).
const meta = {
  title: 'Chat/StreamingMarkdown',
  component: StreamingMarkdown,
  tags: ['autodocs'],
  args: {
    text: ANSWER,
    streaming: false,
    allowedImageOrigins: [],
    limits: { ...DEFAULT_MARKDOWN_LIMITS },
    labels: { ...DEFAULT_MARKDOWN_LABELS },
  },
  argTypes: {
    text: { control: { type: 'text' } },
    components: { control: false },
  },
} satisfies Meta<typeof StreamingMarkdown>;

export default meta;

type Story = StoryObj<typeof meta>;

/** A finished answer: headings, emphasis, a link, a table, SQL, an ordered list, a task list. */
export const Complete: Story = {
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-part="markdown"]')!;
    await expect(root.dataset.state).toBe('complete');
    await expect(root.querySelectorAll('table th')).toHaveLength(3);
    await expect(root.querySelector('pre code')?.className).toBe('language-sql');
    const link = root.querySelector('a')!;
    await expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    await expect(link.getAttribute('target')).toBe('_blank');
  },
};

/** The same answer streamed in a few characters at a time, ending equal to the complete render. */
export const Streaming: Story = {
  render: ({ streaming: _streaming, ...args }) => <Replay {...args} interval={15} />,
  play: async ({ canvasElement }) => {
    const root = () => canvasElement.querySelector<HTMLElement>('[data-part="markdown"]')!;
    await waitFor(() => expect(root().dataset.state).toBe('streaming'));
    await waitFor(() => expect(root().dataset.state).toBe('complete'), { timeout: 20_000 });
    await expect(root().querySelectorAll('table td')).toHaveLength(9);
    await expect(root().querySelectorAll('li')).toHaveLength(5);
    await expect(root().textContent).not.toContain('**');
  },
};

/** Mid-stream: open bold, italic and code are shown closed; the cut link is text, not a link. */
export const UnfinishedSyntax: Story = {
  args: { text: UNFINISHED, streaming: true },
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-part="markdown"]')!;
    await expect(root.dataset.state).toBe('streaming');
    await expect(root.querySelector('a')).toBeNull();
    await expect(root.querySelector('strong em')).not.toBeNull();
    await expect(root.textContent).not.toMatch(/[*_`[\]()]/);
  },
};

/** Raw HTML, script URLs, a tracking pixel and a nesting bomb: all inert, shown as text. */
export const HostileInput: Story = {
  args: { text: HOSTILE },
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-part="markdown"]')!;
    await expect(root.querySelectorAll('script, iframe, img')).toHaveLength(0);
    for (const link of root.querySelectorAll('a')) await expect(link.hasAttribute('href')).toBe(false);
    await expect(root.querySelector('[data-part="markdown-image"]')?.textContent).toBe('A tracking pixel');
    await expect(root.querySelector('[data-part="markdown-plain"]')?.getAttribute('data-reason')).toBe('depth');
    await expect((window as { __storyPwned?: boolean }).__storyPwned).toBeUndefined();
  },
};

/**
 * `limits.maxDepth` of 3: the quote nested five deep is shown as plain text, the text around it as
 * markdown. Depth is counted from each line's leading containers without parsing (quote markers,
 * list markers, two columns of indentation: `CONTAINER_PREFIX` in `src/components/markdown/limits.ts`),
 * since the parser is what a nesting bomb would stall.
 */
export const DepthLimit: Story = {
  args: {
    text: 'Before the quote, **bold**.\n\n> > > > > five quotes deep\n\nAfter the quote, _emphasis_.',
    limits: { ...DEFAULT_MARKDOWN_LIMITS, maxDepth: 3 },
  },
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('[data-part="markdown"]')!;
    await expect(root.querySelector('[data-part="markdown-plain"]')?.getAttribute('data-reason')).toBe('depth');
    await expect(root.querySelector('[data-part="markdown-plain"]')?.textContent).toContain('five quotes deep');
    await expect(root.querySelectorAll('blockquote')).toHaveLength(0);
    await expect(root.querySelector('strong')?.textContent).toBe('bold');
    await expect(root.querySelector('em')?.textContent).toBe('emphasis');
  },
};
