import type { ReactNode } from 'react';

/** Props of {@link ErrorCard}. */
export interface ErrorCardProps {
  /** What could not be shown, as the card's heading ("The chart cannot be shown"). */
  title: string;
  /** Why, under the heading. */
  children?: ReactNode;
}

/** The card shown in place of one part (chart, table, rows) that cannot be shown; the rest stays. */
export function ErrorCard({ title, children }: ErrorCardProps): ReactNode {
  return (
    <div className="service-result-error" data-part="error" role="alert">
      <p className="service-result-error__title">{title}</p>
      {children ? <p className="service-result-error__detail">{children}</p> : null}
    </div>
  );
}
