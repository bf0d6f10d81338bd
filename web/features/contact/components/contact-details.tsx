import {
  BookOpen,
  Clock,
  Code2,
  LifeBuoy,
  type LucideIcon,
  Mail,
  MapPin,
  MessageCircle,
  Newspaper,
  Phone,
  Siren,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import {
  BUSINESS_HOURS,
  COMPANY,
  CONTACT_EMAILS,
  CONTACT_PHONES,
  SUPPORT_PROMISES,
} from '../../../../shared/content/company';
import { LiveChatButton } from '../../../components/content/live-chat-button';
import { linkClasses } from '../../../components/content/markup-view';
import { buttonClasses } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';

function Channel({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card className="grid content-start gap-2 p-6">
      <span className="flex h-10 w-10 items-center justify-center rounded-full bg-accent text-accent-foreground">
        <Icon className="h-5 w-5" aria-hidden />
      </span>
      <h3 className="font-semibold">{title}</h3>
      {children}
    </Card>
  );
}

/** Email, 24/7 phone, live chat and the office in Gurgaon. */
export function ContactChannels() {
  return (
    <section aria-labelledby="contact-channels" className="grid gap-4">
      <h2 id="contact-channels" className="sr-only">
        Ways to reach us
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Channel icon={Mail} title="Email Support">
          <p className="text-sm text-muted-foreground">
            For questions about rentals, credits and your account.
          </p>
          <a href={`mailto:${CONTACT_EMAILS.support}`} className={linkClasses}>
            {CONTACT_EMAILS.support}
          </a>
        </Channel>
        <Channel icon={Phone} title="24/7 Phone Support">
          <p className="text-sm text-muted-foreground">
            Speak to an engineer about a running rental, day or night.
          </p>
          <a href={`tel:${CONTACT_PHONES.support.tel}`} className={linkClasses}>
            {CONTACT_PHONES.support.display}
          </a>
        </Channel>
        <Channel icon={MessageCircle} title="Live Chat">
          <p className="text-sm text-muted-foreground">
            Quick answers from our support team during business hours.
          </p>
          <LiveChatButton />
        </Channel>
        <Channel icon={MapPin} title="Office">
          <address className="text-sm text-muted-foreground not-italic">
            {COMPANY.address.lines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </Channel>
      </div>
    </section>
  );
}

export function BusinessHours() {
  return (
    <Card className="grid gap-4 p-6">
      <h2 className="inline-flex items-center gap-2 text-lg font-semibold">
        <Clock className="h-5 w-5 text-link" aria-hidden />
        Business Hours
      </h2>
      <dl className="grid gap-2 text-sm">
        {BUSINESS_HOURS.map((row) => (
          <div key={row.days} className="flex justify-between gap-4">
            <dt className="text-muted-foreground">{row.days}</dt>
            <dd className="font-medium">{row.hours}</dd>
          </div>
        ))}
      </dl>
      <p className="rounded-md bg-muted p-3 text-sm">
        <strong>24/7 emergency support</strong> is available for critical issues, such as a
        production outage or a security incident, every day of the year.
      </p>
    </Card>
  );
}

const DEPARTMENTS = [
  { title: 'Sales', text: 'Volume pricing and enterprise plans', email: CONTACT_EMAILS.sales },
  {
    title: 'Technical & API Support',
    text: `The public API and integrations; replies in ${SUPPORT_PROMISES.apiSupportResponse}`,
    email: CONTACT_EMAILS.api,
  },
  {
    title: 'Partnerships',
    text: 'Providers, data centres and resellers',
    email: CONTACT_EMAILS.partners,
  },
  {
    title: 'Emergency',
    text: 'Critical issues, around the clock',
    email: CONTACT_EMAILS.emergency,
  },
] as const;

export function Departments() {
  return (
    <Card className="grid gap-4 p-6">
      <h2 className="text-lg font-semibold">Reach the Right Team</h2>
      <ul className="grid gap-4">
        {DEPARTMENTS.map((department) => (
          <li key={department.title} className="grid gap-0.5 text-sm">
            <span className="font-medium">{department.title}</span>
            <span className="text-muted-foreground">{department.text}</span>
            <a href={`mailto:${department.email}`} className={`${linkClasses} w-fit`}>
              {department.email}
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}

const RESOURCES: { href: string; title: string; text: string; icon: LucideIcon }[] = [
  {
    href: '/help-center',
    title: 'Help Center',
    text: 'Answers to common questions',
    icon: LifeBuoy,
  },
  {
    href: '/api-reference',
    title: 'API Reference',
    text: 'Endpoints, keys and limits',
    icon: Code2,
  },
  {
    href: '/documentation',
    title: 'Documentation',
    text: 'Guides for renters and providers',
    icon: BookOpen,
  },
  { href: '/blog', title: 'Blog', text: 'Insights and how-tos', icon: Newspaper },
];

export function SelfServiceLinks() {
  return (
    <section aria-labelledby="contact-resources" className="grid gap-4">
      <h2 id="contact-resources" className="text-2xl font-bold">
        Find Answers Yourself
      </h2>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {RESOURCES.map(({ href, title, text, icon: Icon }) => (
          <Link
            key={href}
            href={href}
            className="grid gap-1 rounded-xl border border-border bg-card p-5 text-card-foreground shadow-sm hover:bg-muted/60"
          >
            <Icon className="h-6 w-6 text-link" aria-hidden />
            <span className="font-semibold">{title}</span>
            <span className="text-sm text-muted-foreground">{text}</span>
          </Link>
        ))}
      </div>
    </section>
  );
}

export function EmergencySupport() {
  return (
    <section
      aria-labelledby="contact-emergency"
      className="grid gap-4 rounded-xl border-2 border-danger p-6 sm:p-8"
    >
      <h2
        id="contact-emergency"
        className="inline-flex items-center gap-2 text-2xl font-bold text-danger-text"
      >
        <Siren className="h-6 w-6" aria-hidden />
        Critical Issue?
      </h2>
      <p className="text-muted-foreground">
        If a production workload is down, a rental is billing but unreachable, or you suspect a
        security incident, contact our emergency team now. We respond to critical issues within{' '}
        {SUPPORT_PROMISES.criticalResponse}, 24 hours a day.
      </p>
      <div className="flex flex-wrap gap-3">
        <a href={`tel:${CONTACT_PHONES.emergency.tel}`} className={buttonClasses('danger', 'lg')}>
          <Phone className="h-4 w-4" aria-hidden />
          Call Emergency Line
        </a>
        <a href={`mailto:${CONTACT_EMAILS.emergency}`} className={buttonClasses('outline', 'lg')}>
          <Mail className="h-4 w-4" aria-hidden />
          Email Emergency Team
        </a>
      </div>
      <p className="text-sm text-muted-foreground">
        Emergency line {CONTACT_PHONES.emergency.display} ·{' '}
        <a href={`mailto:${CONTACT_EMAILS.emergency}`} className={linkClasses}>
          {CONTACT_EMAILS.emergency}
        </a>
      </p>
    </section>
  );
}
