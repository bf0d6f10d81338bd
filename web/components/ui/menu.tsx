import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';

/**
 * A dropdown menu (Radix: arrow keys, Escape, focus back to the trigger), not modal: its
 * trigger, and the card-like panel it opens under the trigger's end. The items are Radix's.
 */
export function Menu({
  label,
  triggerClassName,
  trigger,
  defaultOpen = false,
  children,
}: {
  /** The trigger's accessible name. */
  label: string;
  triggerClassName: string;
  trigger: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger className={triggerClassName} aria-label={label}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-56 rounded-lg border border-border bg-card p-1 text-card-foreground shadow-lg"
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
