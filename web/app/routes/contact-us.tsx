import { Page } from '../../components/ui/page';

export default function ContactUsPage() {
  return <Page title="Contact Us" description="Reach the RentGPU team." />;
}
