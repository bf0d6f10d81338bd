import { lazy, Suspense, useState } from 'react';
import type { RentDialogProps } from './rent-dialog';

const RentDialog = lazy(() => import('./rent-dialog').then((m) => ({ default: m.RentDialog })));

/**
 * The rent dialog, its code (and Radix's dialog) fetched when a listing is first chosen to rent:
 * the marketplace and the compare page paint and answer without it. Once there it stays mounted,
 * so that it closes as before (focus back on the button that opened it).
 */
export function LazyRentDialog(props: RentDialogProps) {
  const [wanted, setWanted] = useState(props.listing !== null);
  if (props.listing !== null && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <RentDialog {...props} />
    </Suspense>
  );
}
