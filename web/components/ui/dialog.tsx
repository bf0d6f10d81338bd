import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

/** A dialog about one item (a host, a key, an endpoint): open while the item is not null. */
export interface ItemDialogProps<T> {
  item: T | null;
  onClose: () => void;
}

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** A Cancel button (outlined) first in the footer, doing this. */
  onCancel?: () => void;
  className?: string;
}

/** A modal dialog with a title, optional description and footer (Radix: focus trap, Escape). */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  onCancel,
  className,
}: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <DialogPrimitive.Content
          className={cn(
            'fixed top-1/2 left-1/2 z-50 grid max-h-[90vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl',
            className,
          )}
        >
          <div className="grid gap-1 pr-8">
            <DialogPrimitive.Title className="text-lg font-semibold">{title}</DialogPrimitive.Title>
            {description ? (
              <DialogPrimitive.Description className="text-sm text-muted-foreground">
                {description}
              </DialogPrimitive.Description>
            ) : (
              <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
            )}
          </div>
          {children}
          {footer || onCancel ? (
            <div className="flex flex-wrap justify-end gap-2">
              {onCancel ? (
                <Button variant="outline" onClick={onCancel}>
                  Cancel
                </Button>
              ) : null}
              {footer}
            </div>
          ) : null}
          <DialogPrimitive.Close
            className="absolute top-4 right-4 rounded p-1 opacity-70 hover:opacity-100"
            aria-label="Close"
          >
            <X className="h-4 w-4" aria-hidden />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
