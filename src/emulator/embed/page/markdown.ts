/**
 * A small Markdown reader for text widgets and chat answers: paragraphs, `-`/`*` and numbered
 * lists, `#` headings (shown as strong paragraphs), `**bold**`, `*italic*` and `` `code` ``.
 * Built as nodes, never as HTML, so nothing in the text can become markup; anything else is
 * shown as the text it is.
 *
 * @module
 */
import { h, type Child } from './dom';

function inline(text: string): Child[] {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`|\*[^*\s][^*]*\*)/).map((part) => {
    if (/^\*\*[^*]+\*\*$/.test(part)) return h('strong', {}, part.slice(2, -2));
    if (/^`[^`]+`$/.test(part)) return h('code', {}, part.slice(1, -1));
    if (/^\*[^*\s][^*]*\*$/.test(part)) return h('em', {}, part.slice(1, -1));
    return part;
  });
}

/** Renders `text` into a `div` of blocks. */
export function renderMarkdown(text: string, className: string): HTMLElement {
  const root = h('div', { attrs: { class: className } });
  for (const block of text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)) {
    const lines = block.split('\n').map((line) => line.trim());
    if (lines.every((line) => /^[-*]\s+/.test(line))) {
      root.append(h('ul', {}, ...lines.map((line) => h('li', {}, ...inline(line.replace(/^[-*]\s+/, ''))))));
    } else if (lines.every((line) => /^\d+[.)]\s+/.test(line))) {
      root.append(h('ol', {}, ...lines.map((line) => h('li', {}, ...inline(line.replace(/^\d+[.)]\s+/, ''))))));
    } else if (lines.length === 1 && /^#{1,6}\s+/.test(lines[0]!)) {
      root.append(h('p', {}, h('strong', {}, ...inline(lines[0]!.replace(/^#{1,6}\s+/, '')))));
    } else {
      root.append(h('p', {}, ...inline(lines.join(' '))));
    }
  }
  return root;
}
