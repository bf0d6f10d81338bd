import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { compiled } from '../../db/compiled';
import { balanceAlerts, ledgerAccounts, providers, users } from '../../db/schema';

export interface UserProfileRow {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  location: string | null;
  bio: string | null;
  company: string | null;
  website: string | null;
  pendingEmail: string | null;
  profileImageUrl: string | null;
  theme: string;
  settings: Record<string, unknown>;
  isAdmin: boolean;
  isDemo: boolean;
  createdAt: Date;
  balanceMicros: bigint;
  isProvider: boolean;
  /** out_of_credits (metered instances were stopped), low_balance, or null. */
  alertKind: string | null;
  stoppedInstances: number;
}

const profileColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
  location: users.location,
  bio: users.bio,
  company: users.company,
  website: users.website,
  pendingEmail: users.pendingEmail,
  profileImageUrl: users.profileImageUrl,
  theme: users.theme,
  settings: users.settings,
  isAdmin: users.isAdmin,
  isDemo: users.isDemo,
  createdAt: users.createdAt,
  balanceMicros: sql<bigint>`coalesce(${ledgerAccounts.balanceMicros}, 0)`.mapWith((v) =>
    BigInt(v),
  ),
  isProvider: sql<boolean>`exists (select 1 from ${providers} where ${providers.userId} = ${users.id})`,
  alertKind: sql<
    string | null
  >`(select case when ${balanceAlerts.stoppedAt} is not null then 'out_of_credits'
    when ${balanceAlerts.lowBalanceAt} is not null then 'low_balance' end
    from ${balanceAlerts} where ${balanceAlerts.userId} = ${users.id})`,
  stoppedInstances: sql<number>`coalesce((select ${balanceAlerts.stoppedCount} from ${balanceAlerts} where ${balanceAlerts.userId} = ${users.id}), 0)::int`,
};

const alertAddressById = compiled<{ id: string }, { email: string; settings: unknown }[]>(
  'users_alert_address',
  (conn) =>
    conn
      .select({ email: users.email, settings: users.settings })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1),
);

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

  /** The e-mail address and settings: what an alert needs, in one statement. */
  async findAlertAddress(conn: Conn, id: string) {
    return (await alertAddressById(conn, { id }))[0] ?? null;
  },

  /** findAlertAddress of many users in one statement, by user id (the missing ones absent). */
  async findAlertAddresses(conn: Conn, ids: string[]) {
    if (ids.length === 0) return new Map<string, { email: string; settings: unknown }>();
    const rows = await conn
      .select({ id: users.id, email: users.email, settings: users.settings })
      .from(users)
      .where(inArray(users.id, ids));
    return new Map(rows.map(({ id, ...address }) => [id, address] as const));
  },

  async findSettings(conn: Conn, id: string) {
    const rows = await conn
      .select({ settings: users.settings, theme: users.theme })
      .from(users)
      .where(eq(users.id, id))
      .limit(1);
    return rows[0] ?? null;
  },

  async saveSettings(conn: Conn, id: string, settings: Record<string, unknown>, theme: string) {
    await conn
      .update(users)
      .set({ settings, theme, updatedAt: sql`now()` })
      .where(eq(users.id, id));
  },

  /** Another account that holds the e-mail, if any. */
  async emailTakenByOther(conn: Conn, id: string, email: string): Promise<boolean> {
    const rows = await conn
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), ne(users.id, id)))
      .limit(1);
    return rows.length > 0;
  },

  async updateProfile(conn: Conn, id: string, changes: ProfileColumns) {
    await conn
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.id, id));
  },

  async setPendingEmail(conn: Conn, id: string, pendingEmail: string | null) {
    await conn.update(users).set({ pendingEmail, updatedAt: sql`now()` }).where(eq(users.id, id));
  },

  /** Moves the proved address to email; the unique index refuses one another account took. */
  async switchEmail(conn: Conn, id: string, email: string) {
    await conn
      .update(users)
      .set({ email, pendingEmail: null, updatedAt: sql`now()` })
      .where(eq(users.id, id));
  },

  /** Locks the user row (account closing must not race a second close or a sign-in). */
  async lockById(conn: Conn, id: string) {
    const rows = await conn.select().from(users).where(eq(users.id, id)).for('update').limit(1);
    return rows[0] ?? null;
  },

  /** Clears personal data; the row stays so ledger, rentals and payments keep their owner. */
  async anonymise(conn: Conn, id: string, tombstoneEmail: string, at: Date) {
    await conn
      .update(users)
      .set({
        email: tombstoneEmail,
        firstName: null,
        lastName: null,
        phone: null,
        location: null,
        bio: null,
        company: null,
        website: null,
        pendingEmail: null,
        profileImageUrl: null,
        settings: {},
        deletedAt: at,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, id));
  },
};

export type ProfileColumns = Partial<
  Pick<
    typeof users.$inferInsert,
    'firstName' | 'lastName' | 'phone' | 'location' | 'bio' | 'company' | 'website'
  >
>;
