/**
 * Small helpers over streamed answers that several test files wrote for themselves, kept free of
 * the emulator so that tests without one do not load it.
 */

/** Every value of an async iterable, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const values: T[] = [];
  for await (const value of iterable) values.push(value);
  return values;
}

/** The `chatId` that the `__cutoff__` line among `lines` names; throws when there is none. */
export function chatIdOf(lines: readonly unknown[]): string {
  const cutoff = lines.find((line) => (line as { id?: unknown } | null)?.id === '__cutoff__');
  const chatId = (cutoff as { state?: { chatId?: unknown } } | undefined)?.state?.chatId;
  if (typeof chatId !== 'string') throw new Error(`no __cutoff__ line with a chatId among ${lines.length} lines`);
  return chatId;
}
