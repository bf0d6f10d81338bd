import type { UserSettings } from '../../../../shared/contracts/settings';
import { Switch } from '../../../components/ui/switch';
import { Section } from './settings-fields';

type Notifications = UserSettings['notifications'];

export function NotificationsTab({
  value,
  onChange,
}: {
  value: Notifications;
  onChange: (next: Notifications) => void;
}) {
  const set = (key: keyof Notifications) => (v: boolean) => onChange({ ...value, [key]: v });
  return (
    <div className="grid gap-8">
      <Section title="Channels">
        <Switch
          id="notify-email"
          label="Email notifications"
          hint="Alerts below are sent to your e-mail address."
          checked={value.email}
          onChange={set('email')}
        />
        <Switch
          id="notify-push"
          label="Push notifications"
          hint="Not available yet: RentGPU has no mobile app or browser push."
          checked={value.push}
          disabled
          onChange={set('push')}
        />
        <Switch
          id="notify-sms"
          label="SMS notifications"
          hint="Not available yet."
          checked={value.sms}
          disabled
          onChange={set('sms')}
        />
      </Section>
      <Section title="Alerts">
        <Switch
          id="notify-instances"
          label="Instance alerts"
          hint="When an instance becomes ready, ends, or is cancelled and refunded."
          checked={value.instanceAlerts}
          onChange={set('instanceAlerts')}
        />
        <Switch
          id="notify-payments"
          label="Payment alerts"
          hint="A receipt for every credit purchase."
          checked={value.paymentAlerts}
          onChange={set('paymentAlerts')}
        />
        <Switch
          id="notify-marketing"
          label="Marketing emails"
          hint="News about features and offers. Off unless you turn it on."
          checked={value.marketingEmails}
          onChange={set('marketingEmails')}
        />
      </Section>
    </div>
  );
}
