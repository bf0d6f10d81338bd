import { z } from 'zod';
import { OTP_LENGTH } from '../constants';
import { isWebAddress } from '../rules/web-address';
import { emailSchema } from './auth';
import { TEXT_LIMITS } from './limits';

/** Empty or blank text means "clear it". */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

const website = z
  .string()
  .trim()
  .max(TEXT_LIMITS.website, {
    message: `Website must be at most ${TEXT_LIMITS.website} characters`,
  })
  .refine((v) => v === '' || isWebAddress(v), {
    message: 'Website must be a full address starting with http:// or https://',
  })
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();

const phone = z
  .string()
  .trim()
  .max(TEXT_LIMITS.phone, { message: `Phone must be at most ${TEXT_LIMITS.phone} characters` })
  .refine((v) => v === '' || /^\+?[0-9 ()./-]{6,30}$/.test(v), {
    message: 'Phone may hold digits, spaces and + ( ) - . only',
  })
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();

/** PATCH /api/users/:userId. Every field is optional; a field that is sent replaces the stored one. */
export const updateProfileBody = z.object({
  firstName: optionalText(TEXT_LIMITS.firstName, 'First name'),
  lastName: optionalText(TEXT_LIMITS.lastName, 'Last name'),
  email: emailSchema.optional(),
  phone,
  location: optionalText(TEXT_LIMITS.location, 'Location'),
  bio: optionalText(TEXT_LIMITS.bio, 'Bio'),
  company: optionalText(TEXT_LIMITS.company, 'Company'),
  website,
});
export type UpdateProfileBody = z.input<typeof updateProfileBody>;
export type ProfileChanges = z.output<typeof updateProfileBody>;

/** GET /api/users/:userId: the profile view. */
export const userProfile = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  phone: z.string().nullable(),
  location: z.string().nullable(),
  bio: z.string().nullable(),
  company: z.string().nullable(),
  website: z.string().nullable(),
  /** A new e-mail address waiting for its code (owner only; null when none). */
  pendingEmail: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  credits: z.string(),
  isProvider: z.boolean(),
  createdAt: z.string(),
});
export type UserProfile = z.infer<typeof userProfile>;

/** POST /api/users/:userId/email/confirm: the code sent to the pending address. */
export const confirmEmailBody = z.object({
  otp: z
    .string()
    .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), { message: 'Please enter a valid 6-digit code' }),
});
export type ConfirmEmailBody = z.input<typeof confirmEmailBody>;
