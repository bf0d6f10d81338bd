import { useEffect } from 'react';

/** Sets the page's title and description while the page is shown. */
export function useDocumentTitle(title: string, description?: string): void {
  useEffect(() => {
    document.title = title === 'RentGPU' ? title : `${title} · RentGPU`;
    if (description) {
      document.querySelector('meta[name="description"]')?.setAttribute('content', description);
    }
  }, [title, description]);
}
