import { Search } from 'lucide-react';
import type { FormEvent } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import type { InstanceKind } from '../../../../shared/instance-kinds';
import { GPU_TYPE_FILTERS } from '../../../../shared/listing-options';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { KIND_LABELS, KINDS } from '../../../lib/instance-kinds';
import {
  GPU_COUNT_CHOICES,
  MARKET_SORTS,
  MAX_PRICE_CHOICES,
  type MarketFilters,
  MIN_RELIABILITY_CHOICES,
  MIN_VRAM_CHOICES,
} from '../lib/market-filters';

interface FiltersBarProps {
  /** The search box's text as typed (typing already filters what is loaded). */
  search: string;
  filters: MarketFilters;
  onSearchChange: (value: string) => void;
  /** One filter or the sort changed: the marketplace writes it into the address. */
  onFiltersChange: (changes: Partial<MarketFilters>) => void;
  /** Sends the search text to the server. */
  onApply: () => void;
}

/** A select's value as a number, '' being "any". */
const numberOrNull = (value: string): number | null => (value === '' ? null : Number(value));

export function FiltersBar({
  search,
  filters,
  onSearchChange,
  onFiltersChange,
  onApply,
}: FiltersBarProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onApply();
  }
  return (
    <search>
      <form onSubmit={submit} className="grid gap-3" aria-label="Filter GPUs">
        <div className="grid gap-3 sm:grid-cols-2 md:grid-cols-[1fr_auto_auto_auto_auto]">
          <div className="relative sm:col-span-2 md:col-span-1">
            <Search
              className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-muted-foreground"
              aria-hidden
            />
            <Input
              type="search"
              aria-label="Search GPUs by model, location or provider"
              placeholder="Search by model, location or provider"
              className="pl-9"
              maxLength={TEXT_LIMITS.searchModel}
              value={search}
              onChange={(e) => onSearchChange(e.target.value)}
            />
          </div>
          <Select
            aria-label="GPU type"
            value={filters.gpuType}
            onChange={(e) => onFiltersChange({ gpuType: e.target.value })}
            options={GPU_TYPE_FILTERS}
          />
          <Select
            aria-label="Kind"
            value={filters.kind}
            onChange={(e) => onFiltersChange({ kind: e.target.value as InstanceKind | '' })}
          >
            <option value="">Any kind</option>
            {KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </Select>
          <Select
            aria-label="Sort by"
            value={filters.sort}
            onChange={(e) => onFiltersChange({ sort: e.target.value })}
            options={MARKET_SORTS}
          >
            <option value="">Sort by</option>
          </Select>
          <Button type="submit">Apply Filters</Button>
        </div>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Select
            aria-label="GPUs per rental"
            value={filters.gpus ?? ''}
            onChange={(e) => onFiltersChange({ gpus: numberOrNull(e.target.value) })}
            options={GPU_COUNT_CHOICES.map((n) => ({
              value: n,
              label: n === 1 ? '1 GPU' : `${n} GPUs`,
            }))}
          >
            <option value="">Any GPU count</option>
          </Select>
          <Select
            aria-label="Minimum GPU memory"
            value={filters.minVram ?? ''}
            onChange={(e) => onFiltersChange({ minVram: numberOrNull(e.target.value) })}
            options={MIN_VRAM_CHOICES.map((gb) => ({ value: gb, label: `${gb} GB+ VRAM` }))}
          >
            <option value="">Any VRAM</option>
          </Select>
          <Select
            aria-label="Minimum host uptime over 30 days"
            value={filters.minReliability ?? ''}
            onChange={(e) => onFiltersChange({ minReliability: numberOrNull(e.target.value) })}
            options={MIN_RELIABILITY_CHOICES.map((p) => ({ value: p, label: `${p}%+ uptime` }))}
          >
            <option value="">Any uptime</option>
          </Select>
          <Select
            aria-label="Maximum price per GPU-hour"
            value={filters.maxPricePerGpuHour ?? ''}
            onChange={(e) => onFiltersChange({ maxPricePerGpuHour: numberOrNull(e.target.value) })}
            options={MAX_PRICE_CHOICES.map((d) => ({
              value: d,
              label: `Max $${d.toFixed(2)}/GPU-hr`,
            }))}
          >
            <option value="">Any GPU-hr price</option>
          </Select>
        </div>
      </form>
    </search>
  );
}
