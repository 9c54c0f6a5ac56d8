import type { ReactNode } from 'react';
import { ErrorCard } from '../results/ErrorCard';
import type { DataViewLabels } from './labels';

/** The error state of a data view whose query failed: the error card, and a button running it again. */
export function QueryError({
  error,
  labels,
  onRetry,
}: {
  /** What failed; its message is shown. */
  error: Error;
  /** The view's labels (`queryError`, `retry`). */
  labels: Pick<DataViewLabels, 'queryError' | 'retry'>;
  /** Runs the query again; without it there is no button (a configuration error needs a fix, not a retry). */
  onRetry?: () => void;
}): ReactNode {
  return (
    <>
      <ErrorCard title={labels.queryError}>{error.message}</ErrorCard>
      {onRetry ? (
        <button type="button" className="service-result-button" onClick={onRetry}>
          {labels.retry}
        </button>
      ) : null}
    </>
  );
}
