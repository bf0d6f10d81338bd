import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { COPY_INDICATOR_MS } from '../../../../shared/constants';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast-store';

/** Copies a value with the spec's 'Copied' toast. */
export function CopySecret({ value, label, what }: { value: string; label: string; what: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      variant="outline"
      size="sm"
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          toast({ title: 'Copied', description: `${what} copied to clipboard.` });
        } catch {
          toast({
            title: 'Copy Failed',
            description: 'Select the text and copy it instead.',
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
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}
