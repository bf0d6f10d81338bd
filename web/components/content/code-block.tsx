import { cn } from '../../lib/cn';

/** A block of code or a terminal session; scrolls sideways inside itself, never the page. */
export function CodeBlock({
  code,
  label,
  className,
}: {
  code: string;
  label: string;
  className?: string;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cn(
        'max-w-full overflow-x-auto rounded-lg border border-border bg-muted p-4',
        className,
      )}
    >
      <pre className="font-mono text-sm leading-6 text-foreground">
        <code>{code}</code>
      </pre>
    </section>
  );
}
