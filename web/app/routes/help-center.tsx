import { Page } from '../../components/ui/page';
import { HelpCenter } from '../../features/help/components/help-center';
import { PopularArticles, SupportOptions } from '../../features/help/components/help-support';

export default function HelpCenterPage() {
  return (
    <Page
      title="Help Center"
      description="Answers about renting GPUs, credits and billing, connecting to your instances and managing your account."
    >
      <div className="mt-8 grid gap-12">
        <HelpCenter />
        <SupportOptions />
        <PopularArticles />
      </div>
    </Page>
  );
}
