import { LegalDocument } from '../../features/legal/components/legal-document';
import { privacyPolicy } from '../../features/legal/privacy-policy';

export default function PrivacyPolicyPage() {
  return <LegalDocument text={privacyPolicy} />;
}
