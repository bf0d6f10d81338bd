import { AlertTriangle } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { serverMessage } from '../../../lib/api-client';

/** A failed load, said plainly with the server's reason and a way to try again. */
export function QueryError({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: unknown;
  onRetry: () => void;
}) {
  const reason = serverMessage(error, error instanceof Error ? error.message : 'Unknown error');
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-danger/40 bg-danger/10 p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-start gap-2 text-danger-text">
        <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <span className="break-words">
          Could not load {what}. {reason}
        </span>
      </p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
