import { describe, expect, it } from 'vitest';
import type { Mailer } from '../../lib/mailer';
import type { TestApp } from '../../test/app';
import { withTestApp } from '../../test/suite';
import { createContactService } from './service';

let t: TestApp;
withTestApp({}, (app) => {
  t = app;
});

describe('contact service', () => {
  it('keeps the message and logs when the e-mail to support fails', async () => {
    const failing: Mailer = {
      send: async () => {
        throw new Error('SMTP refused');
      },
      close() {},
    };
    const logged: unknown[] = [];
    const contact = createContactService({
      db: t.database.db,
      clock: t.clock,
      limiter: t.limiter,
      mailer: failing,
      mailEnabled: true,
      log: { error: (obj) => logged.push(obj) },
    });
    const row = await contact.send(
      {
        name: 'Ravi',
        email: 'ravi@example.test',
        subject: 'Help',
        message: 'My instance is stuck.',
        category: 'technical',
      },
      { userId: null, ip: '10.9.9.9' },
    );
    expect(row.emailedAt).toBeNull();
    expect(logged).toHaveLength(1);
    const [saved] = await contact.list(1);
    expect(saved?.id).toBe(row.id);
  });
});
