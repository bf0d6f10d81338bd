/**
 * The pages anyone may read, signed in or not. Only their paths are in
 * the first JavaScript; the routes themselves load with the first of them (public-pages.tsx).
 */
export const PUBLIC_PATHS = [
  '/blog',
  '/blog/:slug',
  '/documentation',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
  '/api-reference',
  '/help-center',
  '/contact-us',
  // The provider application links to /terms and /privacy as well.
  '/terms',
  '/privacy',
] as const;

export type PublicPath = (typeof PUBLIC_PATHS)[number];

/** Whether a path is a public page's (a :name part stands for any one non-empty part). */
export function isPublicPath(pathname: string): boolean {
  const parts = pathname.split('/');
  return PUBLIC_PATHS.some((pattern) => {
    const wanted = pattern.split('/');
    return (
      wanted.length === parts.length &&
      wanted.every((part, i) => (part.startsWith(':') ? parts[i] !== '' : part === parts[i]))
    );
  });
}
