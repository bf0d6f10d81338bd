import { Page } from '../../components/ui/page';

export default function HelpCenterPage() {
  return <Page title="Help Center" description="Answers to common questions about RentGPU." />;
}
