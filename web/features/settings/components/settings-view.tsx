import { type ReactNode, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { UserSettings } from '../../../../shared/contracts/settings';
import type { Theme } from '../../../../shared/rules/theme';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs } from '../../../components/ui/tabs';
import { toast } from '../../../components/ui/toast-store';
import { useSettings } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { BillingTab } from './billing-tab';
import { GeneralTab } from './general-tab';
import { IdleStopFields } from './idle-stop-fields';
import { NotificationsTab } from './notifications-tab';
import { SecurityTab } from './security-tab';
import { SpendCapsFields } from './spend-caps-fields';

interface SettingsViewProps {
  userId: string;
  /** The theme in force now (the navbar switcher may have changed it since the page opened). */
  theme: Theme;
  apiKeysTab: ReactNode;
  webhooksTab: ReactNode;
  billingTab: ReactNode;
  accountActions: ReactNode;
}

const TABS = ['general', 'notifications', 'security', 'api-keys', 'webhooks', 'billing'] as const;

/** The tab in the address (/settings?tab=security), so a link or a reload opens it. */
function useTabInUrl() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const asked = new URLSearchParams(search).get('tab');
  const tab = TABS.find((t) => t === asked) ?? 'general';
  const setTab = (next: string) =>
    navigate(next === 'general' ? '/settings' : `/settings?tab=${next}`, { replace: true });
  return [tab, setTab] as const;
}

/**
 * Settings: its five tabs, and Webhooks (issue 40) beside API Keys;
 * every save sends the whole settings object.
 */
export function SettingsView({
  userId,
  theme,
  apiKeysTab,
  webhooksTab,
  billingTab,
  accountActions,
}: SettingsViewProps) {
  const settings = useSettings(userId);
  const update = useUpdateSettings(userId);
  const [draft, setDraft] = useState<UserSettings | null>(null);
  const [tab, setTab] = useTabInUrl();

  useEffect(() => {
    if (settings.data) setDraft((current) => current ?? settings.data);
  }, [settings.data]);

  if (!draft) {
    return settings.error ? (
      <p className="mt-8 text-danger-text">Could not load your settings. Please try again.</p>
    ) : (
      <div className="mt-8 grid gap-4" aria-busy="true">
        <Skeleton className="h-10 w-full max-w-xl" />
        <Skeleton className="h-64" />
      </div>
    );
  }

  async function save() {
    if (!draft) return;
    try {
      const saved = await update.mutateAsync({
        ...draft,
        preferences: { ...draft.preferences, theme },
      });
      setDraft(saved);
      toast({ title: 'Settings Updated', description: 'Your settings have been saved.' });
    } catch {
      toast({
        title: 'Update Failed',
        description: 'Failed to update settings. Please try again.',
        variant: 'destructive',
      });
    }
  }

  /** What a tab edits: one part of the draft. */
  const part = <K extends keyof UserSettings>(key: K) => ({
    value: draft[key],
    onChange: (next: UserSettings[K]) => setDraft({ ...draft, [key]: next }),
  });

  const saveButton = (label: string) => (
    <div className="mt-6 flex justify-end border-t border-border pt-4">
      <Button onClick={save} disabled={update.isPending}>
        {update.isPending ? 'Saving...' : label}
      </Button>
    </div>
  );
  const panel = (title: string, body: ReactNode, button?: string) => (
    <Card className="min-w-0 p-6">
      <h2 className="mb-5 text-lg font-semibold">{title}</h2>
      {body}
      {button ? saveButton(button) : null}
    </Card>
  );

  return (
    <Tabs
      className="mt-8"
      label="Settings sections"
      value={tab}
      onValueChange={setTab}
      items={[
        {
          value: 'general',
          label: 'General',
          content: panel('General', <GeneralTab {...part('preferences')} />, 'Save Changes'),
        },
        {
          value: 'notifications',
          label: 'Notifications',
          content: panel(
            'Notifications',
            <NotificationsTab {...part('notifications')} />,
            'Save Preferences',
          ),
        },
        {
          value: 'security',
          label: 'Security',
          content: panel(
            'Security',
            <SecurityTab {...part('security')} accountActions={accountActions} />,
            'Update Security',
          ),
        },
        { value: 'api-keys', label: 'API Keys', content: apiKeysTab },
        { value: 'webhooks', label: 'Webhooks', content: webhooksTab },
        {
          value: 'billing',
          label: 'Billing',
          content: (
            // One column as wide as the page: the credit history's table scrolls inside it.
            <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
              {panel('Low-balance warning', <BillingTab {...part('billing')} />, 'Save Billing')}
              {panel('Spend caps', <SpendCapsFields {...part('billing')} />, 'Save Spend Caps')}
              {panel('Idle stop', <IdleStopFields {...part('billing')} />, 'Save Idle Stop')}
              {panel('Billing', billingTab)}
            </div>
          ),
        },
      ]}
    />
  );
}
