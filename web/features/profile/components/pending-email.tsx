import { type FormEvent, useState } from 'react';
import type { UserProfile } from '../../../../shared/contracts/profile';
import { filterOtpInput, isValidOtp } from '../../../../shared/rules/login-input';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useEmailChange } from '../api/email-change';

/**
 * A new e-mail address waiting for its code: the sign-in address stays the old one until the
 * code sent to the new address is entered here.
 */
export function PendingEmail({ profile }: { profile: UserProfile & { pendingEmail: string } }) {
  const confirm = useEmailChange(profile.id, 'confirm');
  const cancel = useEmailChange(profile.id, 'cancel');
  const resend = useEmailChange(profile.id, 'resend');
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'info' } | null>(null);
  const busy = confirm.isPending || cancel.isPending || resend.isPending;

  async function onConfirm(event: FormEvent) {
    event.preventDefault();
    if (!isValidOtp(code)) {
      setMessage({ text: 'Please enter a valid 6-digit code', tone: 'error' });
      return;
    }
    setMessage(null);
    try {
      await confirm.mutateAsync(code);
      toast({
        title: 'Email Updated',
        description: 'Your e-mail address has been changed. Other devices were signed out.',
      });
    } catch (error) {
      setCode('');
      setMessage({ text: explain(error), tone: 'error' });
      // A 409 ends the request and this box closes, so the reason goes in a toast too.
      if (error instanceof Error && error.message.startsWith('409:'))
        toast({ title: 'Email Not Changed', description: explain(error), variant: 'destructive' });
    }
  }

  async function onResend() {
    setMessage(null);
    try {
      await resend.mutateAsync(profile.pendingEmail);
      setCode('');
      setMessage({ text: `We sent a new code to ${profile.pendingEmail}.`, tone: 'info' });
    } catch (error) {
      setMessage({
        text: serverMessage(error, 'Could not send a new code. Please try again.'),
        tone: 'error',
      });
    }
  }

  async function onCancel() {
    setMessage(null);
    try {
      await cancel.mutateAsync('');
    } catch (error) {
      setMessage({
        text: serverMessage(error, 'Could not cancel. Please try again.'),
        tone: 'error',
      });
    }
  }

  return (
    <form
      onSubmit={onConfirm}
      noValidate
      aria-label="Pending e-mail change"
      className="mt-4 grid gap-3 rounded-md border border-border bg-muted/40 p-4 text-sm"
    >
      <p>
        Pending confirmation: <strong className="break-all">{profile.pendingEmail}</strong> — enter
        the code we sent. Until then you sign in with {profile.email}.
      </p>
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <label htmlFor="pending-email-code" className="font-medium">
            Confirmation code
          </label>
          <Input
            id="pending-email-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            className="w-40 text-center font-mono tracking-[0.3em]"
            value={code}
            onChange={(e) => setCode(filterOtpInput(e.target.value))}
          />
        </div>
        <Button type="submit" disabled={busy}>
          {confirm.isPending ? 'Confirming...' : 'Confirm'}
        </Button>
        <Button variant="outline" onClick={onResend} disabled={busy}>
          Send a new code
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel change
        </Button>
      </div>
      {message ? (
        <p
          role={message.tone === 'error' ? 'alert' : 'status'}
          className={message.tone === 'error' ? 'text-danger-text' : 'text-muted-foreground'}
        >
          {message.text}
        </p>
      ) : null}
    </form>
  );
}

/** The server's message, with the tries left after a wrong code. */
function explain(error: unknown): string {
  const text = serverMessage(error, 'Could not confirm the code. Please try again.');
  const left = /"attemptsLeft":(\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  if (text === 'Invalid OTP' && left)
    return `That code is not right. ${left} ${left === '1' ? 'try' : 'tries'} left.`;
  return text;
}
