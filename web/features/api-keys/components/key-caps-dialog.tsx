import { useEffect, useState } from 'react';
import type { ApiKeyView } from '../../../../shared/contracts/api-keys';
import { Button } from '../../../components/ui/button';
import { Dialog, type ItemDialogProps } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useSetApiKeyCaps } from '../api/set-api-key-caps';

/** One cap's field: an amount in dollars, empty for none. */
function CapField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={id} label={label}>
      <Input
        id={id}
        inputMode="decimal"
        placeholder="No cap"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

/** A key's daily and monthly spend caps: what the instances it launches may be charged. */
export function KeyCapsDialog({ item: apiKey, onClose }: ItemDialogProps<ApiKeyView>) {
  const save = useSetApiKeyCaps();
  const [daily, setDaily] = useState('');
  const [monthly, setMonthly] = useState('');
  useEffect(() => {
    setDaily(apiKey?.dailySpendCap ?? '');
    setMonthly(apiKey?.monthlySpendCap ?? '');
  }, [apiKey]);
  const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
  return (
    <Dialog
      open={apiKey !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Spend caps of this API key"
      description={`What the instances "${apiKey?.name ?? ''}" launches may be charged. When a charge would go over a cap, they are stopped (never deleted) and the key's launches are refused. Empty: no cap.`}
      onCancel={onClose}
      footer={
        <Button
          disabled={save.isPending}
          onClick={async () => {
            if (!apiKey) return;
            try {
              await save.mutateAsync({
                id: apiKey.id,
                dailySpendCap: orNull(daily),
                monthlySpendCap: orNull(monthly),
              });
              toast({ title: 'Spend Caps Saved', description: `"${apiKey.name}" is capped.` });
              onClose();
            } catch (error) {
              toastFailure('Save Failed', error, 'Failed to save the caps. Please try again.');
            }
          }}
        >
          {save.isPending ? 'Saving...' : 'Save Caps'}
        </Button>
      }
    >
      <div className="grid gap-4">
        <CapField
          id="key-daily-cap"
          label="Daily spend cap (USD)"
          value={daily}
          onChange={setDaily}
        />
        <CapField
          id="key-monthly-cap"
          label="Monthly spend cap (USD)"
          value={monthly}
          onChange={setMonthly}
        />
      </div>
    </Dialog>
  );
}
