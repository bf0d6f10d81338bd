/** One usage figure as a bar: the value as a percentage of `max` (max defaults to 100). */
export function UsageBar({
  label,
  value,
  display,
  max = 100,
}: {
  label: string;
  value: number;
  display: string;
  max?: number;
}) {
  const percent = Math.max(0, Math.min(100, (value / max) * 100));
  return (
    <div className="grid gap-1">
      <div className="flex justify-between text-xs">
        <span className="text-muted-foreground">{label}</span>
        <span className="font-medium tabular-nums">{display}</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.round(value)}
        aria-valuetext={display}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
