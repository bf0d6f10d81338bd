import { z } from 'zod';

/** A provider profile as GET /api/providers/user/{userId} answers it. */
export const providerView = z.object({
  id: z.number(),
  userId: z.string().nullable(),
  companyName: z.string(),
  location: z.string(),
  isVerified: z.boolean(),
  reputation: z.string(),
  createdAt: z.string(),
});
export type ProviderView = z.infer<typeof providerView>;
