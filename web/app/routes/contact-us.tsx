import { Page } from '../../components/ui/page';
import {
  BusinessHours,
  ContactChannels,
  Departments,
  EmergencySupport,
  SelfServiceLinks,
} from '../../features/contact/components/contact-details';
import { ContactForm } from '../../features/contact/components/contact-form';

export default function ContactUsPage() {
  return (
    <Page
      title="Contact Us"
      description="Questions about renting GPUs, credits, the API or becoming a provider? Our team in Gurugram, India answers every message within 24 hours on business days."
    >
      <div className="mt-8 grid gap-12">
        <ContactChannels />
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <ContactForm />
          <div className="grid content-start gap-6">
            <BusinessHours />
            <Departments />
          </div>
        </div>
        <SelfServiceLinks />
        <EmergencySupport />
      </div>
    </Page>
  );
}
