import { AlertTriangle } from 'lucide-react';
import { CopyButton } from '../../../components/ui/copy-button';

/** A signing secret as the server answered it: shown this once, with a copy button. */
export function SecretOnce({ secret }: { secret: string }) {
  return (
    <div className="grid gap-3">
      <p className="flex items-start gap-2 rounded-md bg-warning-text/10 p-3 text-sm text-warning-text">
        <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <span>
          Copy this signing secret now: it is shown only once. We cannot show it again; if you lose
          it, rotate the secret.
        </span>
      </p>
      <div className="flex items-center gap-2">
        <code
          className="min-w-0 flex-1 rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm break-all"
          data-testid="webhook-secret"
        >
          {secret}
        </code>
        <CopyButton value={secret} label="signing secret" withText />
      </div>
      <p className="text-xs text-muted-foreground">
        Keep it where your receiver reads it, such as an environment variable
        (RENTGPU_WEBHOOK_SECRET), and verify every delivery with it.
      </p>
    </div>
  );
}
