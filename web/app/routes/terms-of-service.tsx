import { LegalDocument } from '../../features/legal/components/legal-document';
import { termsOfService } from '../../features/legal/terms-of-service';

export default function TermsOfServicePage() {
  return <LegalDocument text={termsOfService} />;
}
