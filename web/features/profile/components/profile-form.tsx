import { type FormEvent, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import type { UserProfile } from '../../../../shared/contracts/profile';
import { Button } from '../../../components/ui/button';
import { Field, Textarea } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverFieldErrors } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';

const FIELDS = [
  ['firstName', 'First Name', 'text', 'given-name'],
  ['lastName', 'Last Name', 'text', 'family-name'],
  ['email', 'Email', 'email', 'email'],
  ['phone', 'Phone', 'tel', 'tel'],
  ['location', 'Location', 'text', 'address-level2'],
  ['company', 'Company', 'text', 'organization'],
  ['website', 'Website', 'url', 'url'],
] as const;

const EMAIL_HINT = 'A new address takes effect once you enter the code we send to it.';

type FormKey = (typeof FIELDS)[number][0] | 'bio';

/** Edit mode of the profile card; success returns to view, failure stays here. */
export function ProfileForm({ profile, onDone }: { profile: UserProfile; onDone: () => void }) {
  const update = useUpdateProfile(profile.id);
  const [values, setValues] = useState<Record<FormKey, string>>({
    firstName: profile.firstName ?? '',
    lastName: profile.lastName ?? '',
    email: profile.email,
    phone: profile.phone ?? '',
    location: profile.location ?? '',
    company: profile.company ?? '',
    website: profile.website ?? '',
    bio: profile.bio ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      await update.mutateAsync(values);
      toast({
        title: 'Profile Updated',
        description: 'Your profile has been updated successfully.',
      });
      onDone();
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toast({
        title: 'Update Failed',
        description: 'Failed to update profile. Please try again.',
        variant: 'destructive',
      });
    }
  }

  const set = (key: FormKey) => (value: string) => setValues((v) => ({ ...v, [key]: value }));
  return (
    <form onSubmit={onSubmit} className="mt-6 grid gap-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map(([key, label, type, autoComplete]) => (
          <Field
            key={key}
            id={`profile-${key}`}
            label={label}
            error={errors[key] ?? null}
            hint={key === 'email' ? EMAIL_HINT : undefined}
          >
            <Input
              id={`profile-${key}`}
              type={type}
              autoComplete={autoComplete}
              maxLength={TEXT_LIMITS[key]}
              value={values[key]}
              aria-invalid={Boolean(errors[key])}
              onChange={(e) => set(key)(e.target.value)}
            />
          </Field>
        ))}
      </div>
      <Field id="profile-bio" label="Bio" error={errors.bio ?? null}>
        <Textarea
          id="profile-bio"
          rows={3}
          maxLength={TEXT_LIMITS.bio}
          value={values.bio}
          placeholder="Tell us about yourself"
          onChange={(e) => set('bio')(e.target.value)}
        />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
