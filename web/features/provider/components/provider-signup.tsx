import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useMyApplication } from '../api/get-my-application';
import { useMyProvider } from '../api/get-my-provider';
import { ProviderApplicationForm } from './provider-application-form';

function Notice({ title, text }: { title: string; text: string }) {
  return (
    <Card className="mt-6 grid gap-3 p-6 sm:p-8" role="region" aria-labelledby="signup-notice">
      <h2 id="signup-notice" className="text-xl font-semibold">
        {title}
      </h2>
      <p className="text-muted-foreground">{text}</p>
      <Link href="/provider" className={buttonClasses('provider', 'md', 'w-fit')}>
        Go to the Provider Dashboard
      </Link>
    </Card>
  );
}

/** The application form, unless the user is a provider already or has one waiting for review. */
export function ProviderSignup({ userId }: { userId: string }) {
  const provider = useMyProvider(userId);
  const application = useMyApplication();
  if (provider.isLoading || application.isLoading) {
    return <Skeleton className="mt-6 h-96 w-full" />;
  }
  if (provider.data) {
    return (
      <Notice
        title="You are already a provider"
        text={`Your provider profile ${provider.data.companyName} is active; manage your GPUs on the Provider Dashboard.`}
      />
    );
  }
  if (application.data?.status === 'pending') {
    return (
      <Notice
        title="Your application is under review"
        text="You already applied to become a provider. Applications are reviewed within 2-3 business days."
      />
    );
  }
  return <ProviderApplicationForm />;
}
