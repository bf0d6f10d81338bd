import { Link } from 'wouter';
import { Brand } from './brand';

const COLUMNS: { heading: string; links: { href: string; label: string }[] }[] = [
  {
    heading: 'Product',
    links: [
      { href: '/marketplace', label: 'Marketplace' },
      { href: '/marketplace', label: 'Pricing' },
      { href: '/dashboard', label: 'Dashboard' },
      { href: '/provider', label: 'Become a Provider' },
    ],
  },
  {
    heading: 'Resources',
    links: [
      { href: '/documentation', label: 'Documentation' },
      { href: '/api-reference', label: 'API Reference' },
      { href: '/help-center', label: 'Help Center' },
      { href: '/contact-us', label: 'Contact Us' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { href: '/privacy-policy', label: 'Privacy Policy' },
      { href: '/terms-of-service', label: 'Terms of Service' },
      { href: '/cookie-policy', label: 'Cookie Policy' },
    ],
  },
];

export function Footer() {
  return (
    <footer className="mt-16 border-t border-border bg-card/40">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div className="grid content-start gap-3">
          <Brand />
          <p className="text-sm text-muted-foreground">
            GPU computing by the hour from verified providers, paid from prepaid credits.
          </p>
        </div>
        {COLUMNS.map((column) => (
          <div key={column.heading}>
            <h2 className="text-sm font-semibold">{column.heading}</h2>
            <ul className="mt-3 grid gap-2">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link
                    href={link.href}
                    className="text-sm text-muted-foreground hover:text-foreground"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <p className="border-t border-border py-4 text-center text-xs text-muted-foreground">
        © {new Date().getFullYear()} RentGPU. All rights reserved.
      </p>
    </footer>
  );
}
