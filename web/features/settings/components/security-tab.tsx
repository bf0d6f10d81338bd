import type { ReactNode } from 'react';
import {
  KEY_ROTATION_LABELS,
  KEY_ROTATIONS,
  SESSION_TIMEOUT_LABELS,
  SESSION_TIMEOUTS,
  type UserSettings,
} from '../../../../shared/contracts/settings';
import { ChangePassword } from '../../../components/content/change-password';
import { type PartProps, Section, SelectField } from './settings-fields';
import { TwoFactorSection } from './two-factor-section';

type Security = UserSettings['security'];

export function SecurityTab({
  value,
  onChange,
  accountActions,
}: PartProps<Security> & { accountActions: ReactNode }) {
  return (
    <div className="grid gap-8">
      <Section title="Two-factor authentication">
        <TwoFactorSection
          enabled={value.twoFactorEnabled}
          onChanged={(twoFactorEnabled) => onChange({ ...value, twoFactorEnabled })}
        />
      </Section>
      <Section title="Sessions and keys">
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            id="settings-session-timeout"
            label="Session timeout"
            value={value.sessionTimeout}
            options={SESSION_TIMEOUTS}
            labels={SESSION_TIMEOUT_LABELS}
            hint="How long a sign-in lasts. A change applies to this session now and shortens your other sessions."
            onChange={(sessionTimeout) => onChange({ ...value, sessionTimeout })}
          />
          <SelectField
            id="settings-key-rotation"
            label="API key rotation"
            value={value.apiKeyRotation}
            options={KEY_ROTATIONS}
            labels={KEY_ROTATION_LABELS}
            hint="API keys stop working this long after they were created, so old keys do not linger."
            onChange={(apiKeyRotation) => onChange({ ...value, apiKeyRotation })}
          />
        </div>
      </Section>
      <Section title="Password">
        <ChangePassword
          className="grid gap-2"
          why="RentGPU has no passwords: you sign in with a one-time code sent to your e-mail."
        />
      </Section>
      <Section title="Your data">
        <div className="grid gap-3">{accountActions}</div>
      </Section>
    </div>
  );
}
