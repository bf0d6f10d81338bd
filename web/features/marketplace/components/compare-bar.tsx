import { Link } from 'wouter';
import { MAX_COMPARED, MIN_COMPARED } from '../../../../shared/rules/listing-compare';
import { Button, buttonClasses } from '../../../components/ui/button';
import { compareHref } from '../lib/compare-selection';

interface CompareBarProps {
  ids: readonly number[];
  onClear: () => void;
}

/**
 * Sticks to the bottom of the window while listings are picked for comparing: how many, and
 * "Compare (n)" once there are two (issue 42, part 1).
 */
export function CompareBar({ ids, onClear }: CompareBarProps) {
  if (ids.length === 0) return null;
  const ready = ids.length >= MIN_COMPARED;
  return (
    <section
      aria-label="Compare offers"
      className="sticky bottom-3 z-20 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-card p-3 shadow-lg"
    >
      <p className="text-sm" aria-live="polite">
        {ready
          ? `${ids.length} offers picked (up to ${MAX_COMPARED}).`
          : `1 offer picked: pick at least one more to compare.`}
      </p>
      <div className="flex gap-2">
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear
        </Button>
        {ready ? (
          <Link href={compareHref(ids)} className={buttonClasses('primary', 'sm')}>
            Compare ({ids.length})
          </Link>
        ) : (
          <Button size="sm" disabled>
            Compare ({ids.length})
          </Button>
        )}
      </div>
    </section>
  );
}
