import { useCallback, useEffect, useState } from 'react';
import { parseCompareIds, toggleCompared } from '../../../../shared/rules/listing-compare';

const STORAGE_KEY = 'rentgpu:compare';

function stored(): number[] {
  try {
    return parseCompareIds(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return [];
  }
}

/**
 * The listings picked for comparing (two to four), kept for the tab's session so that going
 * back from the compare page finds them still picked.
 */
export function useCompareSelection() {
  const [ids, setIds] = useState<number[]>(stored);
  useEffect(() => {
    try {
      sessionStorage.setItem(STORAGE_KEY, ids.join(','));
    } catch {
      // Storage refused (private mode): the pick lasts as long as the page.
    }
  }, [ids]);
  const toggle = useCallback((id: number) => setIds((now) => toggleCompared(now, id)), []);
  const clear = useCallback(() => setIds([]), []);
  return { ids, toggle, clear };
}

/** The compare page's address for some listings. */
export const compareHref = (ids: readonly number[]) => `/compare?ids=${ids.join(',')}`;
