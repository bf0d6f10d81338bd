import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/document-title';

interface PageProps {
  title: string;
  description?: string;
  children?: ReactNode;
}

/** A page's frame: its heading and the document title that goes with it. */
export function Page({ title, description, children }: PageProps) {
  useDocumentTitle(title, description);
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      {description ? <p className="mt-2 text-muted-foreground">{description}</p> : null}
      {children}
    </div>
  );
}
