import { Link } from 'wouter';
import { buttonClasses } from '../../components/ui/button';
import { useDocumentTitle } from '../../lib/document-title';

export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <div className="mx-auto grid max-w-xl place-items-center gap-4 px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-primary">404</p>
      <h1 className="text-2xl font-bold">Page Not Found</h1>
      <p className="text-muted-foreground">
        The page you are looking for does not exist or has moved.
      </p>
      <Link href="/marketplace" className={buttonClasses('primary', 'md')}>
        Go to the Marketplace
      </Link>
    </div>
  );
}
