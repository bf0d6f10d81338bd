import type { UserSettings } from '../../../../shared/contracts/settings';
import { Switch } from '../../../components/ui/switch';
import { type PartProps, Section } from './settings-fields';

type Notifications = UserSettings['notifications'];

interface Toggle {
  key: keyof Notifications;
  id: string;
  label: string;
  hint: string;
  /** Not offered yet: shown, switched off. */
  disabled?: boolean;
}

const GROUPS: { title: string; toggles: Toggle[] }[] = [
  {
    title: 'Channels',
    toggles: [
      {
        key: 'email',
        id: 'notify-email',
        label: 'Email notifications',
        hint: 'Alerts below are sent to your e-mail address.',
      },
      {
        key: 'push',
        id: 'notify-push',
        label: 'Push notifications',
        hint: 'Not available yet: RentGPU has no mobile app or browser push.',
        disabled: true,
      },
      {
        key: 'sms',
        id: 'notify-sms',
        label: 'SMS notifications',
        hint: 'Not available yet.',
        disabled: true,
      },
    ],
  },
  {
    title: 'Alerts',
    toggles: [
      {
        key: 'instanceAlerts',
        id: 'notify-instances',
        label: 'Instance alerts',
        hint: 'When an instance becomes ready, ends, or is cancelled and refunded.',
      },
      {
        key: 'paymentAlerts',
        id: 'notify-payments',
        label: 'Payment alerts',
        hint: 'A receipt for every credit purchase.',
      },
      {
        key: 'marketingEmails',
        id: 'notify-marketing',
        label: 'Marketing emails',
        hint: 'News about features and offers. Off unless you turn it on.',
      },
    ],
  },
];

export function NotificationsTab({ value, onChange }: PartProps<Notifications>) {
  return (
    <div className="grid gap-8">
      {GROUPS.map((group) => (
        <Section key={group.title} title={group.title}>
          {group.toggles.map(({ key, ...toggle }) => (
            <Switch
              key={key}
              {...toggle}
              checked={value[key]}
              onChange={(on) => onChange({ ...value, [key]: on })}
            />
          ))}
        </Section>
      ))}
    </div>
  );
}
