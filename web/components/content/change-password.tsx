import type { ReactNode } from 'react';
import { Button } from '../ui/button';

/**
 * Change Password, disabled, with why (read with it): RentGPU has no passwords, a person signs
 * in with a code sent to their e-mail. The profile and the settings each say it their way.
 */
export function ChangePassword({ className, why }: { className: string; why: ReactNode }) {
  return (
    <div className={className}>
      <Button
        variant="outline"
        disabled
        aria-describedby="password-why"
        className="justify-self-start"
      >
        Change Password
      </Button>
      <p id="password-why" className="text-xs text-muted-foreground">
        {why}
      </p>
    </div>
  );
}
