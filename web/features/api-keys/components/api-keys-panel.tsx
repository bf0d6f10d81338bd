import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import type { ApiKeyView } from '../../../../shared/contracts/api-keys';
import { formatDate } from '../../../../shared/rules/time';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyButton } from '../../../components/ui/copy-button';
import type { ItemDialogProps } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { useApiKeys } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';
import { GenerateKeyDialog } from './generate-key-dialog';
import { KeyCapsDialog } from './key-caps-dialog';

interface DateFormat {
  timeZone: string;
  language: string;
}

/** API keys from the server: generate (shown once), list, revoke (stops working at once). */
export function ApiKeysPanel({ dates }: { dates: DateFormat }) {
  const keys = useApiKeys();
  const [generating, setGenerating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const [capping, setCapping] = useState<ApiKeyView | null>(null);
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">API Keys</h2>
          <p className="text-sm text-muted-foreground">
            For the public API and the command-line tool, sent as a bearer token.
          </p>
        </div>
        <Button onClick={() => setGenerating(true)}>
          <Plus className="h-4 w-4" aria-hidden /> Generate New Key
        </Button>
      </div>
      {keys.isLoading ? (
        <Skeleton className="mt-4 h-16" />
      ) : keys.error ? (
        <p className="mt-4 text-sm text-danger-text">Could not load your API keys.</p>
      ) : keys.data?.length === 0 ? (
        <p className="mt-4 text-sm text-muted-foreground">No API keys yet.</p>
      ) : (
        <ul className="mt-4 grid gap-3" aria-label="API keys">
          {keys.data?.map((key) => {
            const expired = key.expiresAt !== null && new Date(key.expiresAt) <= new Date();
            return (
              <li
                key={key.id}
                className="grid gap-2 rounded-lg border border-border p-4"
                aria-label={`API key ${key.name}`}
              >
                <div className="flex flex-wrap items-center gap-2">
                  <KeyRound className="h-4 w-4 text-muted-foreground" aria-hidden />
                  <span className="font-medium">{key.name}</span>
                  {key.permissions.map((p) => (
                    <Badge key={p} tone={p === 'admin' ? 'warning' : 'info'}>
                      {p}
                    </Badge>
                  ))}
                  {expired ? <Badge tone="danger">Expired</Badge> : null}
                  <span className="ml-auto flex gap-2">
                    <CopyButton
                      value={key.prefix}
                      label={`prefix of ${key.name}`}
                      what="Key prefix"
                      withText
                    />
                    <Button
                      variant="outline"
                      size="sm"
                      aria-label={`Spend caps of ${key.name}`}
                      onClick={() => setCapping(key)}
                    >
                      Spend caps
                    </Button>
                    <Button variant="danger" size="sm" onClick={() => setRevoking(key)}>
                      Revoke
                    </Button>
                  </span>
                </div>
                <code className="font-mono text-sm text-muted-foreground">{key.prefix}…</code>
                <p className="text-xs text-muted-foreground">
                  Created {formatDate(key.createdAt, dates)} · Last used{' '}
                  {key.lastUsedAt
                    ? formatDate(key.lastUsedAt, { ...dates, withTime: true })
                    : 'Never'}
                  {key.expiresAt
                    ? ` · ${expired ? 'Expired' : 'Expires'} ${formatDate(key.expiresAt, dates)}`
                    : ''}
                  {' · '}Standard tier
                  {key.dailySpendCap ? ` · Daily cap $${key.dailySpendCap}` : ''}
                  {key.monthlySpendCap ? ` · Monthly cap $${key.monthlySpendCap}` : ''}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <GenerateKeyDialog open={generating} onOpenChange={setGenerating} />
      <RevokeDialog item={revoking} onClose={() => setRevoking(null)} />
      <KeyCapsDialog item={capping} onClose={() => setCapping(null)} />
    </Card>
  );
}

function RevokeDialog({ item: apiKey, onClose }: ItemDialogProps<ApiKeyView>) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmDialog
      item={apiKey}
      onClose={onClose}
      title="Revoke this API key?"
      description={`"${apiKey?.name ?? ''}" stops working at once. Anything using it will be refused.`}
      confirmLabel="Revoke Key"
      pendingLabel="Revoking..."
      action={revoke}
      success={(key) => ({
        title: 'API Key Revoked',
        description: `"${key.name}" no longer works.`,
      })}
      failureTitle="Revoke Failed"
      fallback="Failed to revoke the API key. Please try again."
    >
      <span className="sr-only">Confirm revoking the key</span>
    </ConfirmDialog>
  );
}
