import {
  Activity,
  BadgeCheck,
  Boxes,
  Cpu,
  Gauge,
  HardDrive,
  MapPin,
  Server,
  Star,
} from 'lucide-react';

/**
 * The listing cards' icons, drawn once per page: each card's icon is an `<svg><use>` of a symbol
 * here, two elements, where a lucide icon is its `<svg>` and every path of it (15 for the CPU
 * chip). Fifty cards with ten icons each were some 3,000 SVG elements to create and append,
 * the largest part of rendering a page of cards.
 */
const ICONS = {
  activity: Activity,
  'badge-check': BadgeCheck,
  boxes: Boxes,
  cpu: Cpu,
  gauge: Gauge,
  'hard-drive': HardDrive,
  'map-pin': MapPin,
  server: Server,
  star: Star,
} as const;

export type ListingIconName = keyof typeof ICONS;

const symbolId = (name: ListingIconName) => `listing-icon-${name}`;

/** The symbols, rendered once beside the cards (never in a card: an id is the page's). */
export function ListingIconSprite() {
  return (
    <svg aria-hidden className="absolute h-0 w-0 overflow-hidden">
      {(Object.keys(ICONS) as ListingIconName[]).map((name) => {
        const Icon = ICONS[name];
        return (
          <symbol key={name} id={symbolId(name)} viewBox="0 0 24 24">
            <Icon />
          </symbol>
        );
      })}
    </svg>
  );
}

/**
 * One icon of the sprite, in the current text colour. Decorative unless `label` is given
 * (then it is an image of that name, as the verified mark is).
 */
export function ListingIcon({
  name,
  className,
  label,
}: {
  name: ListingIconName;
  className?: string;
  label?: string;
}) {
  const use = <use href={`#${symbolId(name)}`} />;
  return label ? (
    <svg className={className} viewBox="0 0 24 24" role="img" aria-label={label}>
      {use}
    </svg>
  ) : (
    <svg className={className} viewBox="0 0 24 24" aria-hidden>
      {use}
    </svg>
  );
}
