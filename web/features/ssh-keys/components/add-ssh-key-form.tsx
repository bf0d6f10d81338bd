import { type FormEvent, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import { parseSshPublicKey } from '../../../../shared/rules/ssh-key';
import { Button } from '../../../components/ui/button';
import { Field, Textarea } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { serverFieldErrors } from '../../../lib/api-client';
import { useAddSshKey } from '../api/add-ssh-key';

/**
 * Adding an SSH public key: Settings → SSH Keys, and in place on every launch screen when
 * the account has none (no-ssh-key-notice.tsx). `idPrefix` keeps the field ids apart.
 */
export function AddSshKeyForm({ idPrefix, onAdded }: { idPrefix: string; onAdded?: () => void }) {
  const add = useAddSshKey();
  const [name, setName] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    // Inside a launch dialog's form the submit must not reach the launch.
    event.stopPropagation();
    const parsed = parseSshPublicKey(publicKey);
    const local: Record<string, string> = {};
    if (!name.trim()) local.name = 'Give the key a name';
    if (!parsed.ok) local.publicKey = parsed.error;
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      await add.mutateAsync({ name: name.trim(), publicKey });
      setName('');
      setPublicKey('');
      toast({ title: 'SSH Key Added', description: 'New instances will accept this key.' });
      onAdded?.();
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toastFailure('Could Not Add Key', error, 'Failed to add the SSH key. Please try again.');
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      className="grid gap-3"
      noValidate
      aria-label="Add an SSH key"
      data-testid={`${idPrefix}-form`}
    >
      <h3 className="font-medium">Add an SSH key</h3>
      <Field id={`${idPrefix}-name`} label="Name" error={errors.name ?? null}>
        <Input
          id={`${idPrefix}-name`}
          value={name}
          maxLength={TEXT_LIMITS.keyName}
          placeholder="e.g. Laptop"
          onChange={(e) => setName(e.target.value)}
        />
      </Field>
      <Field
        id={`${idPrefix}-public`}
        label="Public key"
        hint="Paste the contents of ~/.ssh/id_ed25519.pub (ed25519, RSA 2048+ or ECDSA)."
        error={errors.publicKey ?? null}
      >
        <Textarea
          id={`${idPrefix}-public`}
          rows={3}
          className="font-mono text-xs"
          placeholder="ssh-ed25519 AAAA… you@host"
          maxLength={TEXT_LIMITS.sshPublicKey}
          value={publicKey}
          onChange={(e) => setPublicKey(e.target.value)}
        />
      </Field>
      <div>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add SSH Key'}
        </Button>
      </div>
    </form>
  );
}
