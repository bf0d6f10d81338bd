import { and, eq, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { ledgerAccounts, providers, users } from '../../db/schema';

export interface UserProfileRow {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  theme: string;
  settings: Record<string, unknown>;
  isAdmin: boolean;
  createdAt: Date;
  balanceMicros: bigint;
  isProvider: boolean;
}

const profileColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  profileImageUrl: users.profileImageUrl,
  theme: users.theme,
  settings: users.settings,
  isAdmin: users.isAdmin,
  createdAt: users.createdAt,
  balanceMicros: sql<bigint>`coalesce(${ledgerAccounts.balanceMicros}, 0)`.mapWith((v) =>
    BigInt(v),
  ),
  isProvider: sql<boolean>`exists (select 1 from ${providers} where ${providers.userId} = ${users.id})`,
};

export const usersRepo = {
  async findProfileById(conn: Conn, id: string): Promise<UserProfileRow | null> {
    const rows = await conn
      .select(profileColumns)
      .from(users)
      .leftJoin(
        ledgerAccounts,
        and(eq(ledgerAccounts.userId, users.id), eq(ledgerAccounts.kind, 'wallet')),
      )
      .where(eq(users.id, id))
      .limit(1);
    return rows[0] ?? null;
  },

  async findIdByEmail(conn: Conn, email: string): Promise<string | null> {
    const rows = await conn
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    return rows[0]?.id ?? null;
  },

  /** Inserts the user unless the e-mail exists; returns the id either way (safe under races). */
  async upsertByEmail(conn: Conn, email: string): Promise<{ id: string; created: boolean }> {
    const inserted = await conn
      .insert(users)
      .values({ email })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (inserted[0]) return { id: inserted[0].id, created: true };
    const id = await this.findIdByEmail(conn, email);
    if (!id) throw new Error(`user ${email} vanished during sign-in`);
    return { id, created: false };
  },

  async setTheme(conn: Conn, id: string, theme: string): Promise<void> {
    await conn.update(users).set({ theme, updatedAt: sql`now()` }).where(eq(users.id, id));
  },
};
