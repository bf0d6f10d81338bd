import { cn } from '../../lib/cn';

const METHOD_CLASSES: Record<string, string> = {
  GET: 'bg-accent text-accent-foreground',
  POST: 'bg-primary text-primary-foreground',
  PUT: 'bg-secondary text-secondary-foreground',
  PATCH: 'bg-secondary text-secondary-foreground',
  DELETE: 'bg-danger text-white',
};

/** An HTTP method as a coloured badge (GET, POST, …), as API references show it. */
export function HttpMethod({ method, className }: { method: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-block w-16 shrink-0 rounded-md px-2 py-0.5 text-center font-mono text-xs font-bold',
        METHOD_CLASSES[method] ?? 'bg-muted text-foreground',
        className,
      )}
    >
      {method}
    </span>
  );
}
