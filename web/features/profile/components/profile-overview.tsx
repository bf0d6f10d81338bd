import {
  Building2,
  Calendar,
  Globe,
  type LucideIcon,
  Mail,
  MapPin,
  Pencil,
  Phone,
  X,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { UserProfile } from '../../../../shared/contracts/profile';
import { formatDate } from '../../../../shared/rules/time';
import { initials } from '../../../../shared/rules/user-display';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PendingEmail } from './pending-email';
import { ProfileForm } from './profile-form';

export interface DateFormat {
  timeZone: string;
  language: string;
}

export function fullName(profile: Pick<UserProfile, 'firstName' | 'lastName'>): string {
  return [profile.firstName, profile.lastName].filter(Boolean).join(' ').trim() || 'User';
}

/** The profile card: avatar, name, e-mail, Provider badge, and the Edit/Cancel toggle. */
export function ProfileOverview({ profile, dates }: { profile: UserProfile; dates: DateFormat }) {
  const [editing, setEditing] = useState(false);
  const website = profile.website ? (
    <a
      href={profile.website}
      target="_blank"
      rel="noreferrer noopener"
      className="text-primary underline"
    >
      {profile.website}
    </a>
  ) : null;
  const details: [LucideIcon, string, ReactNode][] = [
    [Mail, 'Email', profile.email],
    [Calendar, 'Joined', formatDate(profile.createdAt, dates)],
    [Phone, 'Phone', profile.phone],
    [MapPin, 'Location', profile.location],
    [Building2, 'Company', profile.company],
    [Globe, 'Website', website],
  ];
  return (
    <Card className="p-6">
      <div className="flex flex-wrap items-start gap-4">
        {profile.profileImageUrl ? (
          <img
            src={profile.profileImageUrl}
            alt=""
            className="h-20 w-20 rounded-full object-cover"
          />
        ) : (
          <span
            aria-hidden
            className="flex h-20 w-20 items-center justify-center rounded-full bg-primary text-2xl font-bold text-primary-foreground"
          >
            {initials(profile)}
          </span>
        )}
        {/* At least 12rem beside the avatar: on a phone the Edit button goes below the name. */}
        <div className="min-w-48 flex-1">
          <h2 className="flex flex-wrap items-center gap-2 text-2xl font-bold">
            {fullName(profile)}
            {profile.isProvider ? <Badge tone="success">Provider</Badge> : null}
          </h2>
          <p className="truncate text-muted-foreground">{profile.email}</p>
        </div>
        <Button variant="outline" size="sm" onClick={() => setEditing((e) => !e)}>
          {editing ? (
            <X className="h-4 w-4" aria-hidden />
          ) : (
            <Pencil className="h-4 w-4" aria-hidden />
          )}
          {editing ? 'Cancel' : 'Edit'}
        </Button>
      </div>
      {profile.pendingEmail ? (
        <PendingEmail
          key={profile.pendingEmail}
          profile={{ ...profile, pendingEmail: profile.pendingEmail }}
        />
      ) : null}
      {editing ? (
        <ProfileForm profile={profile} onDone={() => setEditing(false)} />
      ) : (
        <dl className="mt-6 grid gap-3 text-sm sm:grid-cols-2">
          {details
            // A detail the profile does not give is left out.
            .filter(([, , value]) => value)
            .map(([Icon, label, value]) => (
              <Detail key={label} icon={<Icon className="h-4 w-4" />} label={label} value={value} />
            ))}
          {profile.bio ? (
            <div className="sm:col-span-2">
              <dt className="text-muted-foreground">Bio</dt>
              <dd className="mt-1 whitespace-pre-line">{profile.bio}</dd>
            </div>
          ) : null}
        </dl>
      )}
    </Card>
  );
}

function Detail({ icon, label, value }: { icon: ReactNode; label: string; value: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-2 text-muted-foreground">
        <span aria-hidden>{icon}</span>
        {label}
      </dt>
      <dd className="pl-6 break-words">{value}</dd>
    </div>
  );
}
