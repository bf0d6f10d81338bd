import { type FormEvent, useState } from 'react';
import type { EventType } from '../../../../shared/contracts/events';
import type { WebhookEndpointWithSecret } from '../../../../shared/contracts/webhooks';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverFieldErrors, serverMessage } from '../../../lib/api-client';
import { useCreateWebhookEndpoint } from '../api/create-webhook-endpoint';
import { EventTypePicker } from './event-type-picker';
import { SecretOnce } from './secret-once';

interface FieldErrors {
  url?: string;
  types?: string;
  description?: string;
  form?: string;
}

/** The server's 400 answer, per field of the form (`types.3` is the types' own). */
function fieldErrorsOf(error: unknown): FieldErrors {
  const fields = serverFieldErrors(error);
  const out: FieldErrors = {};
  for (const [key, message] of Object.entries(fields)) {
    const field = key.split('.')[0];
    if (field === 'url' || field === 'types' || field === 'description') out[field] ??= message;
    else out.form ??= message;
  }
  if (!out.url && !out.types && !out.description && !out.form) {
    out.form = serverMessage(error, 'Failed to add the endpoint. Please try again.');
  }
  return out;
}

/** Add Endpoint: URL, the events it gets and a description; then its secret, shown once. */
export function AddEndpointDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<EventType[] | null>(null);
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<WebhookEndpointWithSecret | null>(null);

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setUrl('');
      setTypes(null);
      setDescription('');
      setErrors({});
      setCreated(null);
    }
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (types !== null && types.length === 0) {
      setErrors({ types: 'Choose at least one event, or All events' });
      return;
    }
    setErrors({});
    try {
      setCreated(await create.mutateAsync({ url, types: types ?? ['*'], description }));
      toast({ title: 'Endpoint Added', description: 'Copy its signing secret now.' });
    } catch (error) {
      setErrors(fieldErrorsOf(error));
    }
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onOpenChange={close}
        title="Your endpoint's signing secret"
        description={<span className="break-all">{created.url}</span>}
        footer={<Button onClick={() => close(false)}>Done</Button>}
      >
        <SecretOnce secret={created.secret} />
      </Dialog>
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Add Endpoint"
      description="Each event is sent to this URL as a signed POST, retried for up to three days until it answers 2xx."
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <Field
          id="webhook-url"
          label="Endpoint URL"
          error={errors.url}
          hint="https:// in production"
        >
          <Input
            id="webhook-url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            value={url}
            placeholder="https://example.com/rentgpu/webhooks"
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={errors.url ? 'webhook-url-error' : 'webhook-url-hint'}
            onChange={(e) => setUrl(e.target.value)}
          />
        </Field>
        <EventTypePicker value={types} onChange={setTypes} error={errors.types} />
        <Field
          id="webhook-description"
          label="Description (optional)"
          error={errors.description}
          hint="For you: what listens there"
        >
          <Input
            id="webhook-description"
            value={description}
            maxLength={200}
            placeholder="e.g. Slack relay"
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={
              errors.description ? 'webhook-description-error' : 'webhook-description-hint'
            }
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        {errors.form ? (
          <p className="text-sm text-danger-text" role="alert">
            {errors.form}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding...' : 'Add Endpoint'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
