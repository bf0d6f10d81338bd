import { Page } from '../../components/ui/page';

export default function CookiePolicyPage() {
  return <Page title="Cookie Policy" description="The cookies RentGPU uses and why." />;
}
