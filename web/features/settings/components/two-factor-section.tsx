import { type FormEvent, useState } from 'react';
import type { TwoFactorSetup } from '../../../../shared/contracts/two-factor';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { serverMessage } from '../../../lib/api-client';
import { useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup } from '../api/two-factor';

type Stage =
  | { kind: 'idle' }
  | { kind: 'setup'; setup: TwoFactorSetup }
  | { kind: 'recovery'; codes: string[] }
  | { kind: 'disable' };

/** A code form with an inline error (no native bubbles). */
function CodeForm({
  id,
  label,
  submit,
  pending,
  onSubmit,
  onCancel,
}: {
  id: string;
  label: string;
  submit: string;
  pending: boolean;
  onSubmit: (code: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function send(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setError('Enter the code from your authenticator app');
      return;
    }
    try {
      await onSubmit(code.trim());
    } catch (failure) {
      setError(serverMessage(failure, 'That code did not work. Please try again.'));
    }
  }
  return (
    <form onSubmit={send} noValidate className="grid max-w-sm gap-3">
      <Field id={id} label={label} error={error}>
        <Input
          id={id}
          autoComplete="one-time-code"
          maxLength={32}
          placeholder="123456"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={pending}>
          {submit}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * Settings → Security → two-factor (docs/decisions/023-two-factor-sign-in.md): Enable shows a
 * QR code and key, a code from the app turns it on and shows the recovery codes once; Disable
 * needs a code. A demo account is refused by the server, whose reason shows under the button.
 */
export function TwoFactorSection({
  enabled,
  onChanged,
}: {
  enabled: boolean;
  onChanged: (enabled: boolean) => void;
}) {
  const [stage, setStage] = useState<Stage>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const setup = useTwoFactorSetup();
  const enable = useTwoFactorEnable();
  const disable = useTwoFactorDisable();
  const idle = () => setStage({ kind: 'idle' });

  async function start() {
    setError(null);
    try {
      setStage({ kind: 'setup', setup: await setup.mutateAsync(undefined) });
    } catch (failure) {
      setError(serverMessage(failure, 'Could not start the setup. Please try again.'));
    }
  }

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Badge tone={enabled ? 'success' : 'neutral'}>{enabled ? 'Enabled' : 'Disabled'}</Badge>
        {stage.kind === 'idle' ? (
          <Button
            variant="outline"
            size="sm"
            disabled={setup.isPending}
            aria-describedby="two-factor-why"
            onClick={enabled ? () => setStage({ kind: 'disable' }) : start}
          >
            {enabled ? 'Disable' : 'Enable'}
          </Button>
        ) : null}
      </div>
      <p id="two-factor-why" className="text-xs text-muted-foreground">
        {enabled
          ? 'Every sign-in asks for a code from your authenticator app after the e-mail code.'
          : 'Add a code from an authenticator app to every sign-in, after the e-mail code.'}
      </p>
      {error ? (
        <p role="alert" className="text-sm text-danger-text">
          {error}
        </p>
      ) : null}
      {stage.kind === 'setup' ? (
        <div className="grid gap-4">
          <p className="text-sm">
            Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy…),
            or type the key into it. Then enter the code it shows.
          </p>
          <img
            src={`data:image/svg+xml;utf8,${encodeURIComponent(stage.setup.qrSvg)}`}
            alt="QR code for your authenticator app"
            width={176}
            height={176}
            className="rounded-md bg-white p-2"
          />
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span>Key:</span>
            <code className="break-all font-mono" data-testid="two-factor-secret">
              {stage.setup.secret}
            </code>
            <CopyButton value={stage.setup.secret} label="Copy key" />
          </div>
          <CodeForm
            id="two-factor-enable-code"
            label="Code from your app"
            submit="Turn On"
            pending={enable.isPending}
            onCancel={idle}
            onSubmit={async (code) => {
              const { recoveryCodes } = await enable.mutateAsync(code);
              setStage({ kind: 'recovery', codes: recoveryCodes });
              onChanged(true);
            }}
          />
        </div>
      ) : null}
      {stage.kind === 'recovery' ? (
        <div className="grid gap-3">
          <p className="text-sm font-medium">
            Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in
            once if you lose your phone. They are shown only now.
          </p>
          <ul className="grid grid-cols-2 gap-1 font-mono text-sm" aria-label="Recovery codes">
            {stage.codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
          <div className="flex gap-2">
            <CopyButton value={stage.codes.join('\n')} label="Copy recovery codes" />
            <Button size="sm" onClick={idle}>
              Done
            </Button>
          </div>
        </div>
      ) : null}
      {stage.kind === 'disable' ? (
        <CodeForm
          id="two-factor-disable-code"
          label="Code from your app, or a recovery code"
          submit="Turn Off"
          pending={disable.isPending}
          onCancel={idle}
          onSubmit={async (code) => {
            await disable.mutateAsync(code);
            idle();
            onChanged(false);
          }}
        />
      ) : null}
    </div>
  );
}
