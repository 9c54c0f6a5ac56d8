/**
 * Markdown for the StreamingMarkdown tests, benchmark and stories: documents chosen for the
 * constructs that make incremental rendering hard (link reference definitions far from their
 * use, loose lists, setext headings, fences spanning blank lines, tables, lazy lines), and a
 * deterministic generator of long answers shaped like an analytics agent's.
 */

/** Short documents, each tricky for a renderer that settles blocks one at a time. */
export const TRICKY_MARKDOWN: readonly string[] = [
  'See [the docs][docs] and [again][Docs].\n\nMore text.\n\n[docs]: https://example.com/docs "The docs"\n',
  '[first]: https://first.example\n\n[first]: https://second.example\n\nUse [first].\n',
  '> [quoted]: https://quoted.example\n\nA [quoted] reference defined in a quote.\n',
  '- one\n- two\n\n- three (this blank line makes the list loose)\n',
  '1. first\n2. second\n\n   continued paragraph\n3. third\n',
  'Heading one\n===========\n\nHeading two\n-----------\n\nText\n',
  'A paragraph\nthat continues\n---\n',
  '```python\ndef f():\n\n    return 1\n\n\nprint(f())\n```\n\nAfter the fence.\n',
  '~~~\nunclosed tilde fence\n\nstill code\n',
  '    indented code\n\n    still code after a blank line\n\nparagraph\n',
  '| Region | Revenue |\n| :--- | ---: |\n| EU | 1,200 |\n| APAC | 900 |\n\nAfter the table.\n',
  '> quote line\nlazy continuation\n\n> second quote\n',
  'Text with **bold**, _italic_, ~~strike~~, `code` and <https://auto.example/link>.\n',
  'Visit www.example.com or mail someone@example.com today.\n',
  '- [x] done\n- [ ] to do\n',
  '* a\n\n  * nested\n\n    * deeper\n\n* b\n',
  '<div>\n*raw html is skipped*\n</div>\n\nafter html\n',
  '# ATX heading #\n\nParagraph with a hard  \nline break.\n',
  'Para one.\n\n\n\nPara two after several blank lines.\n',
  '***\n\n---\n\n___\n',
  '[broken link](javascript:alert(1)) and ![img](https://img.example/a.png "title")\n',
  'Ends without a newline',
  'A [link](https://example.com/a_(b)) with parentheses.\n',
  '1) one\n1) two\n\n10) ten\n',
  '> - quoted list\n>   continued\n>\n> back in quote\n',
  '- item\n\n      indented code inside item\n\n- item two\n',
  '```\nfence with [ref] inside\n```\n\n[ref]: https://ref.example\n',
  'Term with [ref]\n\n> quote\n\n[ref]: https://late.example\n',
  'Setext after list\n- a\n\nParagraph\n===\n',
  'table then text\n\n| a | b |\n| - | - |\n| 1 | 2 |\nlazy row?\n\nend\n',
  'Revenue grew[^1] and churn fell[^note].\n\nAgain[^1].\n\n[^1]: Source: the orders view.\n[^note]: A footnote with **bold** and [a link](https://x.io).\n',
  '[^late]: Defined before its reference.\n\n    indented code after a definition\n\nUses [^late] and [^missing].\n',
  '- item with a note[^a]\n- item\n\n> quoted[^b]\n\n[^b]: in a quote\n\n[^a]: first line\n\n    second paragraph of the note[^b]\n',
];

/** One deterministic pseudo-random sequence (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'revenue month region growth orders customers trend average the of by in for and compared to last ' +
  'quarter segment product category increase decrease percent total week data query view measure ' +
  'dimension filter rows chart shows steady strong seasonal peak'
).split(' ');

/**
 * An answer of about `bytes` characters shaped like an analytics agent's: headings, paragraphs
 * with emphasis, code and links, lists, tables and SQL fences. Same seed, same text.
 */
export function generateAnswer(bytes: number, seed = 1): string {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const sentence = () => {
    const count = 8 + Math.floor(next() * 14);
    const words: string[] = [];
    for (let index = 0; index < count; index++) {
      const word = pick(WORDS);
      const roll = next();
      words.push(roll < 0.05 ? `**${word}**` : roll < 0.08 ? `\`${word}\`` : roll < 0.1 ? `_${word}_` : word);
    }
    if (next() < 0.15) words.push('([source](https://docs.example.com/metrics))');
    const text = words.join(' ');
    return text[0]!.toUpperCase() + text.slice(1) + '.';
  };
  const paragraph = () => Array.from({ length: 2 + Math.floor(next() * 3) }, sentence).join(' ');
  const blocks: string[] = [];
  let size = 0;
  let section = 1;
  // Block kinds come in a fixed cycle (about 2 KB), so any stretch of the answer has the same
  // mix: a benchmark comparing early and late deltas then compares like with like.
  const CYCLE = ['heading', 'paragraph', 'list', 'paragraph', 'table', 'paragraph', 'code'] as const;
  while (size < bytes) {
    const kind = CYCLE[blocks.length % CYCLE.length]!;
    let block: string;
    if (kind === 'heading') block = `## ${section++}. ${sentence().slice(0, -1)}`;
    else if (kind === 'paragraph') block = paragraph();
    else if (kind === 'list')
      block = Array.from({ length: 3 + Math.floor(next() * 4) }, () => `- ${sentence()}`).join('\n');
    else if (kind === 'table') {
      const rows = Array.from(
        { length: 3 + Math.floor(next() * 5) },
        () =>
          `| ${pick(['EU', 'APAC', 'LATAM', 'North America'])} | ${Math.floor(next() * 10000)} | ${(next() * 20 - 5).toFixed(1)}% |`,
      );
      block = ['| Region | Orders | Growth |', '| :--- | ---: | ---: |', ...rows].join('\n');
    } else {
      block = [
        '```sql',
        'SELECT region, SUM(revenue) AS revenue',
        `FROM orders WHERE month >= '2024-0${1 + Math.floor(next() * 9)}-01'`,
        'GROUP BY region',
        'ORDER BY revenue DESC;',
        '```',
      ].join('\n');
    }
    blocks.push(block);
    size += block.length + 2;
  }
  return blocks.join('\n\n') + '\n';
}

/** Splits `text` into `count` deltas of varying size (a model's tokens are not all alike). */
export function deltasOf(text: string, count: number, seed = 1): string[] {
  const next = random(seed);
  const cuts = new Set<number>();
  while (cuts.size < count - 1) cuts.add(1 + Math.floor(next() * (text.length - 1)));
  const sorted = [...cuts].sort((a, b) => a - b);
  const deltas: string[] = [];
  let previous = 0;
  for (const cut of [...sorted, text.length]) {
    deltas.push(text.slice(previous, cut));
    previous = cut;
  }
  return deltas;
}
