import { type FormEvent, useEffect, useRef, useState } from 'react';
import { LOGIN_RELOAD_DELAY_MS } from '../../../../shared/constants';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import {
  filterOtpInput,
  isPlausibleEmail,
  isValidOtp,
  LOGIN_TEXT,
  loginMessageTone,
} from '../../../../shared/rules/login-input';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { serverFieldErrors, serverMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { reloadPage } from '../../../lib/navigation';
import { useSendOtp } from '../api/send-otp';
import { useVerifyOtp, useVerifyTwoFactor } from '../api/verify-otp';

/**
 * A failed fetch (no answer at all) reads as a network error. A refused field reads as the
 * form's own message for that field (LOGIN_TEXT), never the server's "email: …" summary; any
 * other answer reads its message.
 */
function messageFor(error: unknown, fallback: string): string {
  if (error instanceof TypeError) return LOGIN_TEXT.networkError;
  const fields = serverFieldErrors(error);
  if (fields.email) return LOGIN_TEXT.invalidEmail;
  if (fields.otp) return LOGIN_TEXT.invalidOtp;
  return serverMessage(error, fallback);
}

/** Back to the e-mail step, and the code's submit (off while it is checked and after it passed). */
function VerifyButtons({
  onBack,
  action,
}: {
  onBack: () => void;
  action: { isPending: boolean; isSuccess: boolean };
}) {
  return (
    <div className="grid grid-cols-[auto_1fr] gap-2">
      <Button variant="outline" onClick={onBack}>
        Back
      </Button>
      <Button type="submit" disabled={action.isPending || action.isSuccess}>
        {action.isPending ? 'Verifying...' : 'Verify & Sign In'}
      </Button>
    </div>
  );
}

export function LoginForm({ autoFocus = false }: { autoFocus?: boolean }) {
  const [step, setStep] = useState<'email' | 'code' | 'second'>('email');
  /** Set when the account has two-factor on: the e-mail code passed, the app code is next. */
  const [challenge, setChallenge] = useState('');
  const [appCode, setAppCode] = useState('');
  const [email, setEmail] = useState('');
  const [otp, setOtp] = useState('');
  const [message, setMessage] = useState('');
  const sendOtp = useSendOtp();
  const verifyOtp = useVerifyOtp();
  const verifyTwoFactor = useVerifyTwoFactor();
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (autoFocus) emailRef.current?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (step !== 'email') codeRef.current?.focus();
  }, [step]);

  async function onSend(event: FormEvent) {
    event.preventDefault();
    if (!isPlausibleEmail(email)) {
      setMessage(LOGIN_TEXT.invalidEmail);
      return;
    }
    setMessage('');
    try {
      const result = await sendOtp.mutateAsync({ email: email.trim() });
      setMessage(result.message);
      setStep('code');
    } catch (error) {
      setMessage(messageFor(error, LOGIN_TEXT.sendFailed));
    }
  }

  async function onVerify(event: FormEvent) {
    event.preventDefault();
    if (!isValidOtp(otp)) {
      setMessage(LOGIN_TEXT.invalidOtp);
      return;
    }
    try {
      const result = await verifyOtp.mutateAsync({ email: email.trim(), otp });
      if ('twoFactorRequired' in result) {
        setChallenge(result.challenge);
        setMessage('');
        setStep('second');
        return;
      }
      signedIn();
    } catch (error) {
      setMessage(messageFor(error, LOGIN_TEXT.verifyFailed));
    }
  }

  function signedIn() {
    setMessage(LOGIN_TEXT.success);
    setTimeout(reloadPage, LOGIN_RELOAD_DELAY_MS);
  }

  async function onSecondFactor(event: FormEvent) {
    event.preventDefault();
    if (!appCode.trim()) {
      setMessage(LOGIN_TEXT.appCodeRequired);
      return;
    }
    try {
      await verifyTwoFactor.mutateAsync({ challenge, code: appCode.trim() });
      signedIn();
    } catch (error) {
      setMessage(serverMessage(error, LOGIN_TEXT.verifyFailed));
    }
  }

  function onBack() {
    setStep('email');
    setOtp('');
    setAppCode('');
    setMessage('');
  }

  const tone = message ? loginMessageTone(message) : null;

  return (
    <div className="grid gap-4">
      {step === 'email' ? (
        <form onSubmit={onSend} className="grid gap-3" noValidate>
          <label htmlFor="login-email" className="text-sm font-medium">
            Email address
          </label>
          <Input
            ref={emailRef}
            id="login-email"
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={TEXT_LIMITS.email}
            placeholder="you@company.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" disabled={sendOtp.isPending}>
            {sendOtp.isPending ? 'Sending code...' : 'Send Login Code'}
          </Button>
        </form>
      ) : step === 'second' ? (
        <form onSubmit={onSecondFactor} className="grid gap-3" noValidate>
          <label htmlFor="login-2fa" className="text-sm font-medium">
            Code from your authenticator app
          </label>
          <Input
            ref={codeRef}
            id="login-2fa"
            autoComplete="one-time-code"
            aria-describedby="login-2fa-hint"
            maxLength={32}
            placeholder="123456"
            className="text-center font-mono text-lg"
            value={appCode}
            onChange={(e) => setAppCode(e.target.value)}
          />
          <p id="login-2fa-hint" className="text-xs text-muted-foreground">
            Two-factor sign-in is on for this account. Lost your phone? Enter one of your recovery
            codes instead.
          </p>
          <VerifyButtons onBack={onBack} action={verifyTwoFactor} />
        </form>
      ) : (
        <form onSubmit={onVerify} className="grid gap-3" noValidate>
          <label htmlFor="login-otp" className="text-sm font-medium">
            6-digit code sent to {email.trim()}
          </label>
          <Input
            ref={codeRef}
            id="login-otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="123456"
            className="text-center font-mono text-lg tracking-[0.5em]"
            value={otp}
            onChange={(e) => setOtp(filterOtpInput(e.target.value))}
          />
          <VerifyButtons onBack={onBack} action={verifyOtp} />
        </form>
      )}
      {message ? (
        <p
          role={tone === 'error' ? 'alert' : 'status'}
          className={cn(
            'text-sm font-medium',
            tone === 'success' ? 'text-success-text' : 'text-danger-text',
          )}
        >
          {message}
        </p>
      ) : null}
    </div>
  );
}
