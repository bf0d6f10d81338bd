import { Page } from '../../components/ui/page';

export default function TermsOfServicePage() {
  return <Page title="Terms of Service" description="The terms for using RentGPU." />;
}
