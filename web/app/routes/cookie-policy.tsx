import { LegalDocument } from '../../features/legal/components/legal-document';
import { cookiePolicy } from '../../features/legal/cookie-policy';

export default function CookiePolicyPage() {
  return <LegalDocument text={cookiePolicy} />;
}
