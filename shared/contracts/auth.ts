import { z } from 'zod';
import { OTP_LENGTH } from '../constants';
import { TEXT_LIMITS } from './limits';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(TEXT_LIMITS.email)
  .pipe(z.email({ message: 'Please enter a valid email address' }));

export const sendOtpBody = z.object({ email: emailSchema });
export type SendOtpBody = z.input<typeof sendOtpBody>;

export const verifyOtpBody = z.object({
  email: emailSchema,
  otp: z
    .string()
    .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), { message: 'Please enter a valid 6-digit OTP' }),
});
export type VerifyOtpBody = z.input<typeof verifyOtpBody>;

export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
