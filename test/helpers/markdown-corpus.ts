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

/** Writes sentences and paragraphs of an analytics answer from one random sequence. */
function writer(next: () => number) {
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
  return { pick, sentence, paragraph };
}

/**
 * An answer of about `bytes` characters shaped like an analytics agent's: headings, paragraphs
 * with emphasis, code and links, lists, tables and SQL fences. Same seed, same text.
 */
export function generateAnswer(bytes: number, seed = 1): string {
  const next = random(seed);
  const { pick, sentence, paragraph } = writer(next);
  let section = 1;
  // Block kinds come in a fixed cycle (about 2 KB), so any stretch of the answer has the same
  // mix: a benchmark comparing early and late deltas then compares like with like.
  return blocksOf(bytes, (index) => {
    const kind = CYCLE[index % CYCLE.length]!;
    if (kind === 'heading') return `## ${section++}. ${sentence().slice(0, -1)}`;
    if (kind === 'paragraph') return paragraph();
    if (kind === 'list') return Array.from({ length: 3 + Math.floor(next() * 4) }, () => `- ${sentence()}`).join('\n');
    if (kind === 'table') {
      const rows = Array.from(
        { length: 3 + Math.floor(next() * 5) },
        () =>
          `| ${pick(['EU', 'APAC', 'LATAM', 'North America'])} | ${Math.floor(next() * 10000)} | ${(next() * 20 - 5).toFixed(1)}% |`,
      );
      return ['| Region | Orders | Growth |', '| :--- | ---: | ---: |', ...rows].join('\n');
    }
    return [
      '```sql',
      'SELECT region, SUM(revenue) AS revenue',
      `FROM orders WHERE month >= '2024-0${1 + Math.floor(next() * 9)}-01'`,
      'GROUP BY region',
      'ORDER BY revenue DESC;',
      '```',
    ].join('\n');
  });
}

/** The kinds of block of a mixed answer, in the order they come round. */
const CYCLE = ['heading', 'paragraph', 'list', 'paragraph', 'table', 'paragraph', 'code'] as const;

/** Blocks from `block(0)`, `block(1)`, ... separated by blank lines, until about `bytes` characters. */
function blocksOf(bytes: number, block: (index: number) => string): string {
  const blocks: string[] = [];
  for (let size = 0; size < bytes;) {
    const next = block(blocks.length);
    blocks.push(next);
    size += next.length + 2;
  }
  return blocks.join('\n\n') + '\n';
}

/**
 * Shapes of answer an analytics agent writes, each hard for a streaming renderer in its own way:
 * - `prose`: paragraphs with emphasis, code spans and links, one after another;
 * - `table`: one long table, its rows arriving one by one;
 * - `sql`: one long fenced SQL block (CTEs, joins, comments, blank lines between statements);
 * - `lists`: one long numbered list, each item with nested bullets, some nested again;
 * - `mixed`: the usual analytics answer, in a fixed cycle of headings, paragraphs, a list, a
 *   25-row table and a 30-line SQL block.
 */
export type AnswerShape = 'prose' | 'table' | 'sql' | 'lists' | 'mixed';

/** Every {@link AnswerShape}. */
export const ANSWER_SHAPES: readonly AnswerShape[] = ['prose', 'table', 'sql', 'lists', 'mixed'];

const REGIONS = ['EU', 'APAC', 'LATAM', 'North America', 'Middle East'];
const CHANNELS = ['web', 'mobile', 'partner', 'retail'];

/** An answer of about `bytes` characters of one {@link AnswerShape}. Same seed, same text. */
export function generateShape(shape: AnswerShape, bytes: number, seed = 1): string {
  const next = random(seed);
  const { pick, sentence, paragraph } = writer(next);
  const number = (max: number) => Math.floor(next() * max).toLocaleString('en-US');
  const row = () => {
    const growth = `${(next() * 30 - 8).toFixed(1)}%`;
    return (
      `| 2024-${String(1 + Math.floor(next() * 12)).padStart(2, '0')} | ${pick(REGIONS)} | ${pick(CHANNELS)} | ` +
      `${number(20_000)} | $${number(2_000_000)} | ${next() < 0.1 ? `**${growth}**` : growth} |`
    );
  };
  const table = (rows: number | undefined, budget: number) => {
    const lines = [
      '| Month | Region | Channel | Orders | Revenue | Growth |',
      '| :--- | :--- | :--- | ---: | ---: | ---: |',
    ];
    for (let size = 0; rows === undefined ? size < budget : lines.length - 2 < rows;) {
      const line = row();
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  };
  let cte = 0;
  const statement = (): string[] => {
    cte += 1;
    const measure = pick(['SUM(o.amount)', 'COUNT(DISTINCT o.customer_id)', 'AVG(o.amount)', 'SUM(o.quantity)']);
    return [
      `-- ${sentence()
        .slice(0, -1)
        .replace(/[`*_]|\s*\(\[.*$/g, '')}`,
      `monthly_${cte} AS (`,
      '  SELECT',
      "    date_trunc('month', o.created_at) AS month,",
      '    c.region,',
      `    ${measure} AS value_${cte},`,
      `    CASE WHEN o.channel = '${pick(CHANNELS)}' THEN 'direct' ELSE 'indirect' END AS route`,
      '  FROM orders AS o',
      '  JOIN customers AS c ON c.id = o.customer_id',
      `  WHERE o.status = 'complete' AND o.created_at >= DATE '2024-${String(1 + Math.floor(next() * 9)).padStart(2, '0')}-01'`,
      `    AND c.region IN ('${pick(REGIONS)}', '${pick(REGIONS)}')`,
      '  GROUP BY 1, 2, 4',
      '),',
    ];
  };
  const sql = (lines: number | undefined, budget: number) => {
    const end = ['SELECT m.month, m.region, m.value_1', 'FROM monthly_1 AS m', 'ORDER BY m.value_1 DESC', 'LIMIT 100;'];
    const body = ['WITH'];
    for (let size = 0; lines === undefined ? size < budget : body.length + end.length < lines;) {
      const part = statement();
      // Blank lines between statements, as people (and models) write them.
      if (next() < 0.3) part.push('');
      body.push(...part);
      size += part.reduce((sum, line) => sum + line.length + 1, 0);
    }
    const code = lines === undefined ? [...body, ...end] : [...body.slice(0, lines - end.length), ...end];
    return ['```sql', ...code, '```'].join('\n');
  };
  const list = (items: number | undefined, budget: number) => {
    const lines: string[] = [];
    let size = 0;
    for (let item = 1; items === undefined ? size < budget : item <= items; item++) {
      const marker = `${item}. `;
      const indent = ' '.repeat(marker.length);
      const part = [`${marker}**${pick(REGIONS)}**: ${sentence()}`];
      const nested = Math.floor(next() * 4);
      for (let sub = 0; sub < nested; sub++) {
        part.push(`${indent}- ${sentence()}`);
        if (next() < 0.3) part.push(`${indent}  - ${pick(['Orders', 'Revenue', 'Growth'])}: \`${number(10_000)}\``);
      }
      lines.push(...part);
      size += part.reduce((sum, line) => sum + line.length + 1, 0);
    }
    return lines.join('\n');
  };

  if (shape === 'prose') return blocksOf(bytes, paragraph);
  // The one-block answers are that block alone, so that any stretch of them is more of it.
  if (shape === 'table') return `${table(undefined, bytes)}\n`;
  if (shape === 'sql') return `${sql(undefined, bytes)}\n`;
  if (shape === 'lists') return `${list(undefined, bytes)}\n`;

  // Mixed: the cycle of `generateAnswer` (about 4 KB here), with a 25-row table and 30 lines of SQL.
  let section = 1;
  return blocksOf(bytes, (index) => {
    const kind = CYCLE[index % CYCLE.length]!;
    if (kind === 'heading') return `## ${section++}. ${sentence().slice(0, -1)}`;
    if (kind === 'paragraph') return paragraph();
    if (kind === 'list') return list(3 + Math.floor(next() * 4), 0);
    if (kind === 'table') return table(25, 0);
    return sql(30, 0);
  });
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
