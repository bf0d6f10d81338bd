import { useEffect } from 'react';
import { useLocationProperty } from 'wouter/use-browser-location';

const currentHash = () => location.hash;

/**
 * A link to one item of a list (/vm-dashboard#vm-12, /dashboard#rental-7: from My Dashboard or
 * a launch's confirmation) scrolls to it and focuses it once the list has loaded, also when
 * the link is followed on the page itself (the hash is followed, not read once).
 */
export function useFocusLinked(prefix: string, loaded: boolean) {
  const hash = useLocationProperty(currentHash);
  useEffect(() => {
    if (!loaded || !hash.startsWith(`#${prefix}`)) return;
    const item = document.getElementById(decodeURIComponent(hash.slice(1)));
    item?.scrollIntoView({ block: 'start' });
    item?.focus({ preventScroll: true });
  }, [prefix, loaded, hash]);
}
