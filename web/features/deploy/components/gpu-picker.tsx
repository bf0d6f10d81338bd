import type { DeployGpuView } from '../../../../shared/contracts/deploy';
import { Badge } from '../../../components/ui/badge';
import { cn } from '../../../lib/cn';

interface GpuPickerProps {
  gpus: readonly DeployGpuView[] | undefined;
  loading: boolean;
  failed: boolean;
  value: string | null;
  onChange: (gpuType: string) => void;
  disabled?: boolean;
}

/** How long a GPU takes to run, where it is known. */
export function readyText(gpu: DeployGpuView): string | null {
  if (gpu.ready_seconds === null) return null;
  return gpu.ready_basis === 'demo_host'
    ? `Ready in about ${gpu.ready_seconds}s (demo host)`
    : `Ready in about ${gpu.ready_seconds}s (measured)`;
}

/** The GPU types on offer as one radio group; a sold-out type shows 'Sold Out' and cannot be picked. */
export function GpuPicker({ gpus, loading, failed, value, onChange, disabled }: GpuPickerProps) {
  return (
    <fieldset className="grid gap-3" disabled={disabled}>
      <legend className="mb-3 text-lg font-semibold">2. Choose a GPU</legend>
      {loading ? (
        <div className="grid gap-2" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-14 animate-pulse rounded-lg bg-muted" />
          ))}
        </div>
      ) : failed ? (
        <p role="alert" className="text-sm text-danger-text">
          The GPU list could not be loaded. Reload the page to try again.
        </p>
      ) : !gpus || gpus.length === 0 ? (
        <p className="text-sm text-muted-foreground">No GPUs are listed right now.</p>
      ) : (
        <div className="grid gap-2 sm:grid-cols-2">
          {gpus.map((g) => {
            const selected = value === g.gpu_type;
            const ready = readyText(g);
            return (
              <label
                key={g.gpu_type}
                data-testid="gpu-option"
                className={cn(
                  'flex items-center justify-between gap-3 rounded-lg border bg-card p-3 text-card-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  g.is_available ? 'cursor-pointer' : 'cursor-not-allowed opacity-70',
                  selected ? 'border-primary ring-1 ring-primary' : 'border-border',
                  g.is_available && !selected ? 'hover:border-primary/60' : '',
                )}
              >
                <input
                  type="radio"
                  name="deploy-gpu"
                  value={g.gpu_type}
                  checked={selected}
                  disabled={!g.is_available}
                  onChange={() => onChange(g.gpu_type)}
                  className="sr-only"
                />
                <span className="grid gap-0.5">
                  <span className="font-medium">{g.gpu_type}</span>
                  <span className="text-xs text-muted-foreground">
                    {g.memory_gb}GB VRAM{ready ? ` · ${ready}` : ''}
                  </span>
                </span>
                <span className="flex shrink-0 flex-col items-end gap-1">
                  <span className="text-sm font-semibold" data-testid="gpu-rate">
                    ${Number(g.hourly_rate).toFixed(2)}/hour
                  </span>
                  {g.is_available ? null : <Badge tone="danger">Sold Out</Badge>}
                </span>
              </label>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}
