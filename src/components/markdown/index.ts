/**
 * `StreamingMarkdown`: safe GFM markdown for streamed agent answers.
 *
 * @module
 */
export {
  StreamingMarkdown,
  DEFAULT_MARKDOWN_LABELS,
  type StreamingMarkdownProps,
  type StreamingMarkdownLabels,
} from './streaming-markdown';
export { DEFAULT_MARKDOWN_LIMITS, type MarkdownLimits } from './limits';
export type { MarkdownComponents, MarkdownElementProps } from './render';
export { safeUrl, allowedImageUrl } from './url';
