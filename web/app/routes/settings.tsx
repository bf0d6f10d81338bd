import { Page } from '../../components/ui/page';

export default function SettingsPage() {
  return (
    <Page
      title="Settings"
      description="Preferences, notifications, security, API keys and billing."
    />
  );
}
