import {
  LANGUAGE_LABELS,
  LANGUAGES,
  REGION_LABELS,
  REGIONS,
  TIMEZONES,
  type UserSettings,
} from '../../../../shared/contracts/settings';
import { CURRENCIES, type Currency } from '../../../../shared/rules/currency';
import { Switch } from '../../../components/ui/switch';
import { type PartProps, SelectField } from './settings-fields';

const CURRENCY_LABELS: Record<Currency, string> = {
  USD: 'USD ($) US Dollar',
  EUR: 'EUR (€) Euro',
  GBP: 'GBP (£) British Pound',
  JPY: 'JPY (¥) Japanese Yen',
  INR: 'INR (₹) Indian Rupee',
};

type Preferences = UserSettings['preferences'];

export function GeneralTab({ value, onChange }: PartProps<Preferences>) {
  const set =
    <K extends keyof Preferences>(key: K) =>
    (v: Preferences[K]) =>
      onChange({ ...value, [key]: v });
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <SelectField
        id="settings-currency"
        label="Currency"
        value={value.currency}
        options={CURRENCIES}
        labels={CURRENCY_LABELS}
        hint="Marketplace prices are shown in this currency. Credits are always bought and held in USD."
        onChange={set('currency')}
      />
      <SelectField
        id="settings-timezone"
        label="Timezone"
        value={value.timezone}
        options={TIMEZONES}
        hint="Dates are shown in this time zone; your billing month starts on the 1st here."
        onChange={set('timezone')}
      />
      <SelectField
        id="settings-region"
        label="Default Region"
        value={value.defaultRegion}
        options={REGIONS}
        labels={REGION_LABELS}
        onChange={set('defaultRegion')}
      />
      <SelectField
        id="settings-language"
        label="Language"
        value={value.language}
        options={LANGUAGES}
        labels={LANGUAGE_LABELS}
        hint="Dates follow this language; the rest of the interface is in English for now."
        onChange={set('language')}
      />
      <div className="sm:col-span-2">
        <Switch
          id="settings-auto-renew"
          label="Auto-renewal"
          hint="Not available yet: rentals end when their booked hours run out, and you can rent again from the marketplace."
          checked={value.autoRenew}
          disabled
          onChange={set('autoRenew')}
        />
      </div>
    </div>
  );
}
