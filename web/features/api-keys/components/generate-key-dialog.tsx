import { AlertTriangle } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  API_KEY_PERMISSIONS,
  type ApiKeyPermission,
  type CreatedApiKey,
} from '../../../../shared/contracts/api-keys';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { useCreateApiKey } from '../api/create-api-key';

const PERMISSION_HINTS: Record<ApiKeyPermission, string> = {
  read: 'List GPUs, read instances and account usage',
  write: 'Create, stop and delete instances',
  admin: 'Manage the account, including credits',
};

/** Generate New Key: name and permissions, then the full key, shown this once. */
export function GenerateKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<ApiKeyPermission[]>(['read']);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setName('');
      setPermissions(['read']);
      setCreated(null);
    }
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      setCreated(await create.mutateAsync({ name: name.trim() || 'API key', permissions }));
      toast({
        title: 'API Key Generated',
        description: 'Copy it now: it will not be shown again.',
      });
    } catch {
      toast({
        title: 'Generation Failed',
        description: 'Failed to generate API key. Please try again.',
        variant: 'destructive',
      });
    }
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onOpenChange={close}
        title="Your new API key"
        footer={<Button onClick={() => close(false)}>Done</Button>}
      >
        <p className="flex items-start gap-2 rounded-md bg-warning-text/10 p-3 text-sm text-warning-text">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          Copy this key now. We store only a fingerprint of it, so it cannot be shown again.
        </p>
        <div className="flex items-center gap-2">
          <code
            className="min-w-0 flex-1 rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm break-all"
            data-testid="new-api-key"
          >
            {created.key}
          </code>
          <CopyButton value={created.key} label="API key" what="API key" withText />
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Generate New Key"
      description="Keys authenticate the public API as a bearer token. Standard tier: 1,000 requests per hour."
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <Field id="api-key-name" label="Key name">
          <Input
            id="api-key-name"
            value={name}
            maxLength={TEXT_LIMITS.keyName}
            placeholder="e.g. Training pipeline"
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Permissions</legend>
          {API_KEY_PERMISSIONS.map((permission) => (
            <label key={permission} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4"
                checked={permissions.includes(permission)}
                onChange={(e) =>
                  setPermissions((list) =>
                    e.target.checked ? [...list, permission] : list.filter((p) => p !== permission),
                  )
                }
              />
              <span>
                <span className="font-medium capitalize">{permission}</span>
                <span className="block text-xs text-muted-foreground">
                  {PERMISSION_HINTS[permission]}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending || permissions.length === 0}>
            {create.isPending ? 'Generating...' : 'Generate Key'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
