import { Page } from '../../components/ui/page';

export default function PrivacyPolicyPage() {
  return (
    <Page title="Privacy Policy" description="How RentGPU collects, uses and protects your data." />
  );
}
