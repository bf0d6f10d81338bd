import { Cpu } from 'lucide-react';
import { Link } from 'wouter';

/** The mark and the name; `compact`: the name only below 1024 px and from 1280 px (the top bar). */
export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Link
      href="/"
      className="flex min-w-0 items-center gap-2 rounded-md font-bold text-lg"
      aria-label="RentGPU home"
    >
      <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Cpu className="h-5 w-5" aria-hidden />
      </span>
      <span className={compact ? 'truncate lg:max-xl:sr-only' : 'truncate'}>RentGPU</span>
    </Link>
  );
}
