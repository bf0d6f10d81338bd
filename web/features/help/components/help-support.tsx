import { Mail, MessageCircle, Phone } from 'lucide-react';
import { Link } from 'wouter';
import {
  CONTACT_EMAILS,
  CONTACT_PHONES,
  SUPPORT_PROMISES,
} from '../../../../shared/content/company';
import { LiveChatButton } from '../../../components/content/live-chat-button';
import { linkClasses } from '../../../components/content/markup-view';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { POPULAR_ARTICLES } from '../faqs';

/** Email, live chat and phone, as the Help Center offers them. */
export function SupportOptions() {
  return (
    <section aria-labelledby="help-support" className="grid gap-4">
      <h2 id="help-support" className="text-2xl font-bold">
        Still need help?
      </h2>
      <div className="grid gap-4 md:grid-cols-3">
        <Card className="grid content-start gap-3 p-6">
          <Mail className="h-6 w-6 text-link" aria-hidden />
          <h3 className="font-semibold">Email Support</h3>
          <p className="text-sm text-muted-foreground">
            Write to us any time; we reply {SUPPORT_PROMISES.replyWithin}.
          </p>
          <a
            href={`mailto:${CONTACT_EMAILS.support}`}
            className={buttonClasses('outline', 'sm', 'w-fit')}
          >
            {CONTACT_EMAILS.support}
          </a>
        </Card>
        <Card className="grid content-start gap-3 p-6">
          <MessageCircle className="h-6 w-6 text-link" aria-hidden />
          <h3 className="font-semibold">Live Chat</h3>
          <p className="text-sm text-muted-foreground">
            Chat with our team during business hours. Until chat opens, the contact form reaches the
            same people.
          </p>
          <LiveChatButton />
        </Card>
        <Card className="grid content-start gap-3 p-6">
          <Phone className="h-6 w-6 text-link" aria-hidden />
          <h3 className="font-semibold">Phone Support</h3>
          <p className="text-sm text-muted-foreground">
            Call us 24/7 for urgent problems with running rentals or payments.
          </p>
          <a
            href={`tel:${CONTACT_PHONES.support.tel}`}
            className={buttonClasses('outline', 'sm', 'w-fit')}
          >
            {CONTACT_PHONES.support.display}
          </a>
        </Card>
      </div>
      <p className="text-sm text-muted-foreground">
        Prefer a form?{' '}
        <Link href="/contact-us" className={linkClasses}>
          Contact us
        </Link>{' '}
        and choose the category that fits, so your message reaches the right team.
      </p>
    </section>
  );
}

export function PopularArticles() {
  return (
    <section aria-labelledby="help-popular" className="grid gap-4">
      <h2 id="help-popular" className="text-2xl font-bold">
        Popular Articles
      </h2>
      <Card className="p-2">
        <ul className="divide-y divide-border">
          {POPULAR_ARTICLES.map((article) => (
            <li key={article.href}>
              <Link
                href={article.href}
                className="block rounded-lg px-4 py-3 font-medium hover:bg-muted"
              >
                {article.title}
              </Link>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
