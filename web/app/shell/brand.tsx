import { Cpu } from 'lucide-react';
import { Link } from 'wouter';

export function Brand() {
  return (
    <Link
      href="/"
      className="flex items-center gap-2 rounded-md font-bold text-lg"
      aria-label="RentGPU home"
    >
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Cpu className="h-5 w-5" aria-hidden />
      </span>
      <span>RentGPU</span>
    </Link>
  );
}
