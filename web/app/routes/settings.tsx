import { AccessDenied } from '../../components/ui/access-denied';
import { Page } from '../../components/ui/page';
import { DeleteAccountButton } from '../../features/account/components/delete-account-button';
import { DownloadDataButton } from '../../features/account/components/download-data-button';
import { ApiKeysPanel } from '../../features/api-keys/components/api-keys-panel';
import { useCurrentUser } from '../../features/auth/api/get-current-user';
import { BillingOverview } from '../../features/payments/components/billing-overview';
import { SettingsView } from '../../features/settings/components/settings-view';
import { SshKeysPanel } from '../../features/ssh-keys/components/ssh-keys-panel';
import { useTheme } from '../../features/theme/theme-provider';
import { WebhooksPanel } from '../../features/webhooks/components/webhooks-panel';

export default function SettingsPage() {
  const { user } = useCurrentUser();
  const { theme } = useTheme();
  if (!user) {
    return (
      <Page title="Settings">
        <AccessDenied message="Please log in to access settings." />
      </Page>
    );
  }
  const dates = { timeZone: user.timezone, language: user.language };
  return (
    <Page
      title="Settings"
      description="Preferences, notifications, security, API keys, webhooks and billing."
    >
      <SettingsView
        userId={user.id}
        theme={theme}
        apiKeysTab={
          <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
            <ApiKeysPanel dates={dates} />
            <SshKeysPanel dates={dates} />
          </div>
        }
        webhooksTab={<WebhooksPanel />}
        billingTab={<BillingOverview timeZone={user.timezone} language={user.language} />}
        accountActions={
          <>
            <div className="grid gap-2">
              <div>
                <DownloadDataButton userId={user.id} />
              </div>
              <p className="text-xs text-muted-foreground">
                Your profile, settings, rentals, payments and keys as one JSON file.
              </p>
            </div>
            <div className="grid gap-2">
              <DeleteAccountButton userId={user.id} />
            </div>
          </>
        }
      />
    </Page>
  );
}
