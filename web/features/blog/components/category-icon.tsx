import {
  Briefcase,
  Building2,
  CloudSun,
  FlaskConical,
  Gamepad2,
  HeartPulse,
  type LucideIcon,
  PiggyBank,
  Rocket,
  ShieldCheck,
  TrendingUp,
} from 'lucide-react';
import type { BlogCategory } from '../article-types';

const ICONS: Record<BlogCategory, LucideIcon> = {
  'Cost Optimization': PiggyBank,
  'Provider Success': TrendingUp,
  Research: FlaskConical,
  'Business Growth': Briefcase,
  Gaming: Gamepad2,
  'Medical Research': HeartPulse,
  Enterprise: Building2,
  'Climate Tech': CloudSun,
  Security: ShieldCheck,
  'Future Tech': Rocket,
};

/** The category's name with its icon, as the index and the post show it. */
export function CategoryBadge({ category }: { category: BlogCategory }) {
  const Icon = ICONS[category];
  return (
    <span className="inline-flex w-fit items-center gap-1.5 rounded-full bg-accent px-2.5 py-1 text-xs font-semibold text-accent-foreground">
      <Icon className="h-3.5 w-3.5" aria-hidden />
      {category}
    </span>
  );
}

export function CategoryArt({ category }: { category: BlogCategory }) {
  const Icon = ICONS[category];
  return (
    <div
      aria-hidden
      className="flex h-full min-h-40 items-center justify-center rounded-lg bg-gradient-to-br from-hero-from to-hero-to"
    >
      <Icon className="h-16 w-16 text-link opacity-80" />
    </div>
  );
}
