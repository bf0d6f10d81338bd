import { type ReactNode, useState } from 'react';
import { serverMessage } from '../../lib/api-client';
import { Button } from './button';
import { Dialog, type ItemDialogProps } from './dialog';
import { type ToastMessage, toast } from './toast-store';

/** `item`: what the action is asked for. */
interface ConfirmDialogProps<T extends { id: unknown }> extends ItemDialogProps<T> {
  title: string;
  description: ReactNode;
  /** The danger button's text, and its text while the action runs. */
  confirmLabel: string;
  pendingLabel: string;
  /**
   * The mutation behind the action, run with the item's id: its pending state, and `reset`
   * for `keepsRefusal`.
   */
  action: { isPending: boolean; reset: () => void; mutateAsync: (id: T['id']) => Promise<unknown> };
  success: (item: T) => Omit<ToastMessage, 'id' | 'variant'>;
  failureTitle: string;
  /** The failure toast's text when the server gives no message. */
  fallback: string;
  /**
   * The server's reason for a refusal stays in the dialog (role alert, in place of the
   * children) until it closes, which also resets the mutation.
   */
  keepsRefusal?: boolean;
  children: ReactNode;
}

/**
 * Asks before a destructive action: Cancel, or the danger button, which runs it, toasts the
 * outcome and closes on success.
 */
export function ConfirmDialog<T extends { id: unknown }>({
  item,
  onClose,
  title,
  description,
  confirmLabel,
  pendingLabel,
  action,
  success,
  failureTitle,
  fallback,
  keepsRefusal = false,
  children,
}: ConfirmDialogProps<T>) {
  const [refusal, setRefusal] = useState<string | null>(null);

  function close() {
    if (keepsRefusal) {
      setRefusal(null);
      action.reset();
    }
    onClose();
  }

  async function confirm() {
    if (item === null) return;
    if (keepsRefusal) setRefusal(null);
    try {
      await action.mutateAsync(item.id);
      toast(success(item));
      close();
    } catch (failure) {
      const message = serverMessage(failure, fallback);
      if (keepsRefusal) setRefusal(message);
      toast({ title: failureTitle, description: message, variant: 'destructive' });
    }
  }

  return (
    <Dialog
      open={item !== null}
      onOpenChange={(open) => {
        if (!open) close();
      }}
      title={title}
      description={description}
      onCancel={close}
      footer={
        <Button variant="danger" onClick={confirm} disabled={action.isPending}>
          {action.isPending ? pendingLabel : confirmLabel}
        </Button>
      }
    >
      {refusal ? (
        <p
          role="alert"
          className="rounded-md border border-danger/40 bg-danger/10 p-3 text-sm text-danger-text"
        >
          {refusal}
        </p>
      ) : (
        children
      )}
    </Dialog>
  );
}
