/** A provider profile as GET /api/providers/user/{userId} answers it. */
export interface ProviderView {
  id: number;
  userId: string | null;
  companyName: string;
  location: string;
  isVerified: boolean;
  reputation: string;
  createdAt: string;
}
