/**
 * SQL highlighting for the SQL view: `sql-highlight` (a small, SQL-only tokenizer kept by the
 * TypeORM maintainers' circle, about 1.5 kB gzip, no dependencies), loaded with `import()` the
 * first time a SQL block is shown, so no bundle carries it up front. It returns segments, not
 * HTML: the view renders each as a `<span>` with a class, so nothing needs `innerHTML` or inline
 * styles (CSP-safe), and styles.css colours the classes through `--service-color-code-*` tokens.
 *
 * @module
 */
import { useEffect, useState } from 'react';

/** A run of SQL text and its kind (`keyword`, `function`, `string`, `number`, `comment`, `identifier`, `special`, `bracket`, `whitespace`). */
export interface SqlSegment {
  name: string;
  content: string;
}

/** SQL longer than this many characters stays plain: highlighting is for reading, not for dumps. */
export const MAX_HIGHLIGHTED_SQL = 20_000;

type Tokenize = (sql: string) => SqlSegment[];

let loading: Promise<Tokenize> | undefined;

/** Loads the tokenizer once per page; a failed load is not kept, so a later block tries again. */
export function loadSqlTokenizer(): Promise<Tokenize> {
  loading ??= import('sql-highlight').then(
    (module) => {
      // A CommonJS package: bundlers put its exports on the namespace, on `default`, or both.
      const exports = module as unknown as { getSegments?: Tokenize; default?: { getSegments?: Tokenize } };
      const tokenize = exports.getSegments ?? exports.default?.getSegments;
      if (!tokenize) throw new Error('sql-highlight has no getSegments');
      return tokenize;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * The segments of `sql` once the tokenizer has loaded, or `undefined` (show it plain) while it
 * loads, when `enabled` is false (the SQL is not complete yet, or not shown), when it is longer than
 * {@link MAX_HIGHLIGHTED_SQL}, or when the tokenizer cannot be loaded.
 */
export function useSqlSegments(sql: string, enabled: boolean): SqlSegment[] | undefined {
  const [highlighted, setHighlighted] = useState<{ sql: string; segments: SqlSegment[] } | undefined>(undefined);
  useEffect(() => {
    if (!enabled || sql.length > MAX_HIGHLIGHTED_SQL) return;
    let cancelled = false;
    loadSqlTokenizer().then(
      (tokenize) => {
        if (!cancelled) setHighlighted({ sql, segments: tokenize(sql) });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [sql, enabled]);
  return enabled && highlighted?.sql === sql ? highlighted.segments : undefined;
}
