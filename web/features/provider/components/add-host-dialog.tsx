import { type FormEvent, useState } from 'react';
import { type CreateHostResponse, HOST_NAME_MAX } from '../../../../shared/contracts/hosts';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverFieldErrors, serverMessage } from '../../../lib/api-client';
import { useCreateHost } from '../api/create-host';

const FORM_ID = 'add-host-form';
const FALLBACK = 'Failed to add the host. Please try again.';

/** Names a new host; the answer's one-time token is handed to the enrolment dialog. */
export function AddHostDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (created: CreateHostResponse) => void;
}) {
  const [name, setName] = useState('');
  const [publicHost, setPublicHost] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [addressError, setAddressError] = useState<string | null>(null);
  const createHost = useCreateHost();

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) {
      setName('');
      setPublicHost('');
      setError(null);
      setAddressError(null);
      createHost.reset();
    }
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError('Host name is required');
      return;
    }
    setError(null);
    setAddressError(null);
    try {
      const created = await createHost.mutateAsync({
        name: name.trim(),
        ...(publicHost.trim() ? { publicHost: publicHost.trim() } : {}),
      });
      toast({
        title: 'Host Added',
        description: `Run the install command on ${created.host.name} to connect it.`,
      });
      close(false);
      onCreated(created);
    } catch (failure) {
      const message = serverMessage(failure, FALLBACK);
      const fields = serverFieldErrors(failure);
      if (fields.publicHost) setAddressError(fields.publicHost);
      else setError(fields.name ?? message);
      toast({ title: 'Failed to Add Host', description: message, variant: 'destructive' });
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Add Host"
      description="A host is a machine that runs your GPUs' rentals. You get a one-time command to install the agent on it."
      onCancel={() => close(false)}
      footer={
        <Button type="submit" form={FORM_ID} variant="provider" disabled={createHost.isPending}>
          {createHost.isPending ? 'Adding...' : 'Add Host'}
        </Button>
      }
    >
      <form id={FORM_ID} noValidate onSubmit={onSubmit} className="grid gap-4">
        <Field
          id="add-host-name"
          label="Host name"
          hint="For you to tell your machines apart, e.g. rack-1 or gpu-box-oslo"
          error={error}
        >
          <Input
            id="add-host-name"
            autoComplete="off"
            maxLength={HOST_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.target.value)}
            {...(error ? { 'aria-invalid': true, 'aria-describedby': 'add-host-name-error' } : {})}
          />
        </Field>
        <Field
          id="add-host-public-host"
          label="Public address (optional)"
          hint="The host name or IP address renters connect to. Leave empty to use the address the agent connects from."
          error={addressError}
        >
          <Input
            id="add-host-public-host"
            autoComplete="off"
            inputMode="url"
            placeholder="gpu-1.example.com"
            value={publicHost}
            onChange={(e) => setPublicHost(e.target.value)}
            {...(addressError
              ? { 'aria-invalid': true, 'aria-describedby': 'add-host-public-host-error' }
              : {})}
          />
        </Field>
      </form>
    </Dialog>
  );
}
