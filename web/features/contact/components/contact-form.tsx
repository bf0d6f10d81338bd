import { type FormEvent, useState } from 'react';
import {
  CONTACT_CATEGORIES,
  CONTACT_CATEGORY_LABELS,
  CONTACT_LIMITS,
  CONTACT_TEXT,
  type ContactCategory,
  sendContactMessageBody,
} from '../../../../shared/contracts/contact';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, Select, Textarea } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { serverFieldErrors } from '../../../lib/api-client';
import { useSendContactMessage } from '../api/send-contact-message';

const EMPTY = {
  name: '',
  email: '',
  subject: '',
  message: '',
  category: 'general' as ContactCategory,
};

/**
 * The message form. The required fields and the e-mail's
 * shape are checked here with the server's own schema and shown under each field (no native
 * bubbles); the server checks again, stores the message and, when SMTP is configured,
 * e-mails it to support.
 */
export function ContactForm() {
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const send = useSendContactMessage();
  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  /** A text field's wiring: its id and name, its limit, its value and its error. */
  const text = (field: keyof typeof CONTACT_LIMITS) => ({
    id: `contact-${field}`,
    name: field,
    maxLength: CONTACT_LIMITS[field],
    value: form[field],
    ...(errors[field]
      ? { 'aria-invalid': true as const, 'aria-describedby': `contact-${field}-error` }
      : {}),
    onChange: set(field),
  });

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const checked = sendContactMessageBody.safeParse(form);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? '');
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await send.mutateAsync(form);
      toast({ title: CONTACT_TEXT.successTitle, description: CONTACT_TEXT.success });
      setForm(EMPTY);
    } catch (error) {
      setErrors(serverFieldErrors(error));
      toastFailure(CONTACT_TEXT.failedTitle, error, CONTACT_TEXT.failed);
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
        noValidate
      >
        <Field id="contact-name" label="Name *" error={errors.name ?? null}>
          <Input {...text('name')} autoComplete="name" />
        </Field>
        <Field id="contact-email" label="Email *" error={errors.email ?? null}>
          <Input {...text('email')} type="email" autoComplete="email" />
        </Field>
        <Field id="contact-category" label="Category">
          <Select
            id="contact-category"
            name="category"
            value={form.category}
            onChange={set('category')}
          >
            {CONTACT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {CONTACT_CATEGORY_LABELS[category]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="contact-subject" label="Subject *" error={errors.subject ?? null}>
          <Input {...text('subject')} />
        </Field>
        <Field
          id="contact-message"
          label="Message *"
          error={errors.message ?? null}
          className="sm:col-span-2"
        >
          <Textarea {...text('message')} rows={6} />
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" size="lg" disabled={send.isPending} className="w-full sm:w-auto">
            {send.isPending ? CONTACT_TEXT.sending : CONTACT_TEXT.send}
          </Button>
        </div>
      </form>
    </Card>
  );
}
