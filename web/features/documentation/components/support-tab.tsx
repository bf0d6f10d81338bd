import { BookOpen, LifeBuoy, Newspaper, Phone, Ticket } from 'lucide-react';
import { Link } from 'wouter';
import { CONTACT_EMAILS, CONTACT_PHONES } from '../../../../shared/content/company';
import { linkClasses } from '../../../components/content/markup-view';
import { buttonClasses } from '../../../components/ui/button';
import { DocSection, InfoCard, ListCard, TabHeading } from './doc-parts';

export function SupportTab() {
  return (
    <div className="grid gap-8">
      <TabHeading title="Support">
        Most problems have a quick fix. If yours does not, our team is one message away.
      </TabHeading>

      <DocSection id="doc-issues" title="Common issues">
        <div className="grid gap-4 md:grid-cols-2">
          <ListCard title="GPU connection failed">
            <li>Allow 2-5 minutes for provisioning after you rent.</li>
            <li>Check that you use the right SSH key and the host and port on your dashboard.</li>
            <li>Check that your firewall allows outbound SSH to that port.</li>
            <li>A rental not ready within 10 minutes is cancelled and refunded in full.</li>
          </ListCard>
          <ListCard title="Payment issues">
            <li>Check your credit balance in the top bar.</li>
            <li>Check that your PayPal account and its payment method are valid.</li>
            <li>
              Still stuck?{' '}
              <Link href="/contact-us" className={linkClasses}>
                Contact support
              </Link>{' '}
              with the category Billing & Payments.
            </li>
          </ListCard>
        </div>
      </DocSection>

      <DocSection id="doc-community" title="Community and resources">
        <div className="grid gap-4 md:grid-cols-3">
          <InfoCard icon={LifeBuoy} title="Help Center">
            <Link href="/help-center" className={linkClasses}>
              Answers to common questions
            </Link>
          </InfoCard>
          <InfoCard icon={Newspaper} title="Blog">
            <Link href="/blog" className={linkClasses}>
              Guides and stories from renters and providers
            </Link>
          </InfoCard>
          <InfoCard icon={BookOpen} title="API Reference">
            <Link href="/api-reference" className={linkClasses}>
              Endpoints, keys and limits
            </Link>
          </InfoCard>
        </div>
      </DocSection>

      <DocSection id="doc-contact" title="Contact support" className="grid gap-3">
        <p className="text-muted-foreground">
          We reply to tickets within 24 hours on business days, and to critical issues within 4
          hours, around the clock.
        </p>
        <div className="flex flex-wrap gap-3">
          <Link href="/contact-us" className={buttonClasses('primary', 'md')}>
            <Ticket className="h-4 w-4" aria-hidden />
            Open a Support Ticket
          </Link>
          <a href={`tel:${CONTACT_PHONES.emergency.tel}`} className={buttonClasses('danger', 'md')}>
            <Phone className="h-4 w-4" aria-hidden />
            Emergency Contact
          </a>
        </div>
        <p className="text-sm text-muted-foreground">
          Emergency line {CONTACT_PHONES.emergency.display}, or{' '}
          <a href={`mailto:${CONTACT_EMAILS.emergency}`} className={linkClasses}>
            {CONTACT_EMAILS.emergency}
          </a>
          .
        </p>
      </DocSection>
    </div>
  );
}
