import { type FormEvent, useState } from 'react';
import {
  CONTACT_CATEGORIES,
  CONTACT_CATEGORY_LABELS,
  CONTACT_LIMITS,
  CONTACT_TEXT,
  type ContactCategory,
} from '../../../../shared/contracts/contact';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast-store';
import { serverMessage } from '../../../lib/api-client';
import { useSendContactMessage } from '../api/send-contact-message';

const EMPTY = {
  name: '',
  email: '',
  subject: '',
  message: '',
  category: 'general' as ContactCategory,
};

const fieldClasses =
  'w-full rounded-md border border-input bg-background px-3 text-sm text-foreground placeholder:text-muted-foreground';

/**
 * The message form (spec part 2 sections 4, 5 and 8). The browser checks the required
 * fields and the e-mail's shape; the server checks again, stores the message and, when
 * SMTP is configured, e-mails it to support.
 */
export function ContactForm() {
  const [form, setForm] = useState(EMPTY);
  const send = useSendContactMessage();
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await send.mutateAsync(form);
      toast({ title: CONTACT_TEXT.successTitle, description: CONTACT_TEXT.success });
      setForm(EMPTY);
    } catch (error) {
      toast({
        title: CONTACT_TEXT.failedTitle,
        description: serverMessage(error, CONTACT_TEXT.failed),
        variant: 'destructive',
      });
    }
  }

  return (
    <Card className="p-6 sm:p-8">
      <h2 id="contact-form-heading" className="text-2xl font-bold">
        Send Us a Message
      </h2>
      <p className="mt-2 text-sm text-muted-foreground">
        Fields marked * are required. We reply within 24 hours on business days.
      </p>
      <form
        onSubmit={onSubmit}
        aria-labelledby="contact-form-heading"
        className="mt-6 grid gap-4 sm:grid-cols-2"
      >
        <div className="grid gap-1.5">
          <label htmlFor="contact-name" className="text-sm font-medium">
            Name *
          </label>
          <Input
            id="contact-name"
            name="name"
            autoComplete="name"
            required
            maxLength={CONTACT_LIMITS.name}
            value={form.name}
            onChange={set('name')}
          />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="contact-email" className="text-sm font-medium">
            Email *
          </label>
          <Input
            id="contact-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={CONTACT_LIMITS.email}
            value={form.email}
            onChange={set('email')}
          />
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="contact-category" className="text-sm font-medium">
            Category
          </label>
          <select
            id="contact-category"
            name="category"
            value={form.category}
            onChange={set('category')}
            className={`${fieldClasses} h-10`}
          >
            {CONTACT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {CONTACT_CATEGORY_LABELS[category]}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1.5">
          <label htmlFor="contact-subject" className="text-sm font-medium">
            Subject *
          </label>
          <Input
            id="contact-subject"
            name="subject"
            required
            maxLength={CONTACT_LIMITS.subject}
            value={form.subject}
            onChange={set('subject')}
          />
        </div>
        <div className="grid gap-1.5 sm:col-span-2">
          <label htmlFor="contact-message" className="text-sm font-medium">
            Message *
          </label>
          <textarea
            id="contact-message"
            name="message"
            rows={6}
            required
            maxLength={CONTACT_LIMITS.message}
            value={form.message}
            onChange={set('message')}
            className={`${fieldClasses} py-2`}
          />
        </div>
        <div className="sm:col-span-2">
          <Button type="submit" size="lg" disabled={send.isPending} className="w-full sm:w-auto">
            {send.isPending ? CONTACT_TEXT.sending : CONTACT_TEXT.send}
          </Button>
        </div>
      </form>
    </Card>
  );
}
