import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { COPY_INDICATOR_MS } from '../../../shared/constants';
import { buttonClasses } from './button';
import { type ToastMessage, toast } from './toast-store';

type Toast = Omit<ToastMessage, 'id'>;

/** The toasts of a copy; with `what`, they name the value copied (the API keys' copies). */
function copyToasts(what: string | undefined): { copied: Toast; failed: Toast } {
  return what
    ? {
        copied: { title: 'Copied', description: `${what} copied to clipboard.` },
        failed: {
          title: 'Copy Failed',
          description: 'Select the text and copy it instead.',
          variant: 'destructive',
        },
      }
    : {
        copied: { title: 'Copied to clipboard' },
        failed: {
          title: 'Error',
          description: 'Could not copy. Select the text and copy it instead.',
          variant: 'destructive',
        },
      };
}

/**
 * Copies a value; a toast, and a check mark for 2 seconds. Its name is 'Copy <label>', and
 * '<label> copied' for those 2 seconds unless `what` is given: then the toasts say
 * '<what> copied to clipboard.' and the name stays. With `withText` an outlined button that
 * also says Copy / Copied (a secret shown once).
 */
export function CopyButton({
  value,
  label,
  withText = false,
  what,
}: {
  value: string;
  label: string;
  withText?: boolean;
  what?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const toasts = copyToasts(what);
  return (
    <button
      type="button"
      className={
        withText ? buttonClasses('outline', 'sm') : buttonClasses('ghost', 'sm', 'h-7 px-2')
      }
      aria-label={copied && !what ? `${label} copied` : `Copy ${label}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          toast(toasts.copied);
        } catch {
          toast(toasts.failed);
        }
      }}
    >
      {copied ? (
        <Check className="h-4 w-4 text-success-text" aria-hidden />
      ) : (
        <Copy className="h-4 w-4" aria-hidden />
      )}
      {withText ? (copied ? 'Copied' : 'Copy') : null}
    </button>
  );
}
