import type { LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

/** An action on one host or listing: a small outlined button, its icon from the sm width up. */
export function ItemButton({
  icon: Icon,
  children,
  ...props
}: ComponentProps<typeof Button> & { icon: LucideIcon }) {
  return (
    <Button variant="outline" size="sm" {...props}>
      <Icon className="hidden h-4 w-4 sm:block" aria-hidden />
      {children}
    </Button>
  );
}

/** An empty list of hosts or listings: what is missing, why to add one, and the button to. */
export function EmptyList({
  icon: Icon,
  title,
  children,
  action,
  onAction,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
  action: string;
  onAction: () => void;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border p-8 text-center">
      <Icon className="h-8 w-8 text-muted-foreground" aria-hidden />
      <p className="font-medium">{title}</p>
      <p className="max-w-md text-sm text-muted-foreground">{children}</p>
      <Button variant="provider" onClick={onAction}>
        {action}
      </Button>
    </div>
  );
}
