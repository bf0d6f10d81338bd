import { BadgeCheck, MapPin, Star } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { Skeleton } from '../../../components/ui/skeleton';
import { useProviderProfile } from '../api/get-provider-profile';

export function ProviderTab({ userId }: { userId: string }) {
  const provider = useProviderProfile(userId, true);
  if (!provider.data) {
    return (
      <Card className="p-6">
        {provider.error ? (
          <p className="text-danger-text">Could not load your provider profile.</p>
        ) : (
          <Skeleton className="h-16" />
        )}
      </Card>
    );
  }
  const p = provider.data;
  return (
    <Card className="grid gap-4 p-6">
      <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold">
        {p.companyName}
        {p.isVerified ? (
          <Badge tone="success">
            <BadgeCheck className="h-3.5 w-3.5" aria-hidden /> Verified
          </Badge>
        ) : null}
      </h2>
      <p className="flex items-center gap-2 text-muted-foreground">
        <MapPin className="h-4 w-4" aria-hidden /> {p.location}
      </p>
      <p className="flex items-center gap-2">
        <Star className="h-4 w-4 text-warning-text" aria-hidden />
        <span>
          <span className="font-semibold">{Number(p.reputation).toFixed(1)}</span>
          <span className="text-muted-foreground">/5.0 reputation</span>
        </span>
      </p>
    </Card>
  );
}
