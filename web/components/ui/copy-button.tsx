import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { COPY_INDICATOR_MS } from '../../../shared/constants';
import { buttonClasses } from './button';
import { toast } from './toast-store';

/**
 * Copies a value; toast 'Copied to clipboard' and a check mark for 2 seconds. With `withText`
 * an outlined button that also says Copy / Copied (a secret shown once).
 */
export function CopyButton({
  value,
  label,
  withText = false,
}: {
  value: string;
  label: string;
  withText?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className={
        withText ? buttonClasses('outline', 'sm') : buttonClasses('ghost', 'sm', 'h-7 px-2')
      }
      aria-label={copied ? `${label} copied` : `Copy ${label}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          toast({ title: 'Copied to clipboard' });
        } catch {
          toast({
            title: 'Error',
            description: 'Could not copy. Select the text and copy it instead.',
            variant: 'destructive',
          });
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
