/**
 * STAND-IN, replaced at merge by the real component: `StreamingMarkdown` is built by another
 * engineer. This minimal version shows the text as plain text (no markdown, so nothing unsafe)
 * until then. Do not polish or extend it.
 *
 * @module
 */
import { createElement, type ReactNode } from 'react';

/** Props of {@link StreamingMarkdown} (stand-in). */
export interface StreamingMarkdownProps {
  text: string;
  streaming?: boolean;
  className?: string;
}

/** Stand-in: the text as plain, wrapped text. */
export function StreamingMarkdown({ text, className }: StreamingMarkdownProps): ReactNode {
  return createElement('div', { className, style: { whiteSpace: 'pre-wrap' } }, text);
}
