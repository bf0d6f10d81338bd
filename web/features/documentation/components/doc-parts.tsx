import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

/** A tab's title and intro. */
export function TabHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="grid gap-2">
      <h2 className="text-2xl font-bold">{title}</h2>
      {children ? <p className="text-muted-foreground">{children}</p> : null}
    </div>
  );
}

/** A titled part of a tab, named by its h3 (the id is the heading's). */
export function DocSection({
  id,
  title,
  className = 'grid gap-4',
  headingClassName = 'text-xl font-semibold',
  children,
}: {
  id: string;
  title: string;
  className?: string;
  headingClassName?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h3 id={id} className={headingClassName}>
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A card of a short bulleted list under its own heading. */
export function ListCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="p-5">
      <h4 className="font-semibold">{title}</h4>
      <ul className="mt-2 list-disc space-y-1 pl-6 text-sm text-muted-foreground">{children}</ul>
    </Card>
  );
}

export function InfoCard({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card className="grid content-start gap-2 p-5">
      <Icon className="h-6 w-6 text-link" aria-hidden />
      <h4 className="font-semibold">{title}</h4>
      <div className="text-sm text-muted-foreground">{children}</div>
    </Card>
  );
}

/** A numbered step with its own heading. */
export function Step({
  number,
  title,
  children,
}: {
  number: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <li className="grid grid-cols-[2.25rem_1fr] gap-4">
      <span
        aria-hidden
        className="flex h-9 w-9 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground"
      >
        {number}
      </span>
      <div className="grid min-w-0 gap-2">
        <h3 className="text-lg font-semibold">
          <span className="sr-only">Step {number}: </span>
          {title}
        </h3>
        <div className="grid gap-2 text-muted-foreground">{children}</div>
      </div>
    </li>
  );
}
