import { CircleCheck, Mail } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import { type NEWSLETTER_SOURCES, NEWSLETTER_TEXT } from '../../../../shared/contracts/newsletter';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { toast, toastFailure } from '../../../components/ui/toast-store';
import { useSubscribeNewsletter } from '../api/subscribe-newsletter';

interface NewsletterSignupProps {
  source?: (typeof NEWSLETTER_SOURCES)[number];
}

/**
 * The blog's newsletter box: a blank address is refused
 * here, a malformed one by the browser (type=email), and success turns into "You're all set!".
 */
export function NewsletterSignup({ source = 'blog' }: NewsletterSignupProps) {
  const [email, setEmail] = useState('');
  const [done, setDone] = useState(false);
  const subscribe = useSubscribeNewsletter();
  const inputId = useId();
  const headingId = useId();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      toast({
        title: NEWSLETTER_TEXT.emailRequiredTitle,
        description: NEWSLETTER_TEXT.emailRequired,
        variant: 'destructive',
      });
      return;
    }
    try {
      await subscribe.mutateAsync({ email: email.trim(), subscriptionSource: source });
      toast({ title: NEWSLETTER_TEXT.successTitle, description: NEWSLETTER_TEXT.success });
      setDone(true);
    } catch (error) {
      toastFailure(NEWSLETTER_TEXT.failedTitle, error, NEWSLETTER_TEXT.failed);
    }
  }

  return (
    <Card className="grid gap-4 p-6 sm:p-8" aria-labelledby={headingId} role="region">
      <div className="flex items-center gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Mail className="h-5 w-5" aria-hidden />
        </span>
        <h2 id={headingId} className="text-xl font-bold">
          Stay Updated
        </h2>
      </div>
      {done ? (
        <div role="status" className="grid gap-1">
          <p className="inline-flex items-center gap-2 text-lg font-semibold text-success-text">
            <CircleCheck className="h-5 w-5" aria-hidden />
            {NEWSLETTER_TEXT.doneTitle}
          </p>
          <p className="text-muted-foreground">
            Thanks for subscribing. New articles on GPU computing, costs and running GPUs as a
            business will arrive at {email.trim()}.
          </p>
        </div>
      ) : (
        <>
          <p className="text-muted-foreground">
            Get our latest articles on GPU computing, cost optimisation and earning from your
            hardware. One e-mail when we publish, nothing else.
          </p>
          <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row">
            <label htmlFor={inputId} className="sr-only">
              Email address
            </label>
            <Input
              id={inputId}
              type="email"
              name="email"
              autoComplete="email"
              maxLength={TEXT_LIMITS.email}
              placeholder="you@company.com"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              className="sm:flex-1"
            />
            <Button type="submit" disabled={subscribe.isPending}>
              {subscribe.isPending ? 'Subscribing...' : 'Subscribe'}
            </Button>
          </form>
        </>
      )}
    </Card>
  );
}
