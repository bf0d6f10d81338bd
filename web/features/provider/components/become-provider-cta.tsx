import { Server } from 'lucide-react';
import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

/** Shown to a signed-in user without a provider profile. */
export function BecomeProviderCta() {
  return (
    <Card className="mt-8 flex flex-col items-start gap-4 p-6 sm:p-8">
      <span className="rounded-full bg-provider/15 p-3 text-success-text">
        <Server className="h-6 w-6" aria-hidden />
      </span>
      <div className="grid gap-2">
        <h2 className="text-xl font-semibold">You are not a provider yet</h2>
        <p className="max-w-2xl text-muted-foreground">
          This dashboard is for GPU providers. Apply for a provider profile to list your GPUs in the
          marketplace, see who is renting them and follow the revenue they earn.
        </p>
      </div>
      <Link href="/provider-signup" className={buttonClasses('provider', 'md')}>
        Apply to become a provider
      </Link>
    </Card>
  );
}
