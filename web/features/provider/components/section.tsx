import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

/** One titled card of the provider dashboard, labelled by its heading. */
export function Section({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className="grid gap-4 p-4 sm:p-6" aria-labelledby={id} role="region">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-xl font-semibold">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </Card>
  );
}
