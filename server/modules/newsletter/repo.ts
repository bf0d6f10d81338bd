import type { Conn } from '../../db/client';
import { newsletterSubscriptions } from '../../db/schema';

export const newsletterRepo = {
  /** Adds the address unless it is already subscribed; true when a row was added. */
  async subscribe(conn: Conn, email: string, source: string): Promise<boolean> {
    const inserted = await conn
      .insert(newsletterSubscriptions)
      .values({ email, subscriptionSource: source })
      .onConflictDoNothing({ target: newsletterSubscriptions.email })
      .returning({ id: newsletterSubscriptions.id });
    return inserted.length > 0;
  },
};
