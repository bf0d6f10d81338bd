import { Search } from 'lucide-react';
import type { FormEvent } from 'react';
import { TEXT_LIMITS } from '../../../../shared/contracts/limits';
import type { InstanceKind } from '../../../../shared/instance-kinds';
import { GPU_TYPE_FILTERS, SORT_OPTIONS } from '../../../../shared/listing-options';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { KIND_LABELS, KINDS } from '../../../lib/instance-kinds';

interface FiltersBarProps {
  search: string;
  gpuType: string;
  sort: string;
  kind: InstanceKind | '';
  onSearchChange: (value: string) => void;
  onGpuTypeChange: (value: string) => void;
  onSortChange: (value: string) => void;
  onKindChange: (value: InstanceKind | '') => void;
  /** Sends the search text to the server (typing already filters what is loaded). */
  onApply: () => void;
}

export function FiltersBar(props: FiltersBarProps) {
  function submit(event: FormEvent) {
    event.preventDefault();
    props.onApply();
  }
  return (
    <search>
      <form
        onSubmit={submit}
        className="grid gap-3 sm:grid-cols-2 md:grid-cols-[1fr_auto_auto_auto_auto]"
        aria-label="Filter GPUs"
      >
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
            value={props.search}
            onChange={(e) => props.onSearchChange(e.target.value)}
          />
        </div>
        <Select
          aria-label="GPU type"
          value={props.gpuType}
          onChange={(e) => props.onGpuTypeChange(e.target.value)}
          options={GPU_TYPE_FILTERS}
        />
        <Select
          aria-label="Kind"
          value={props.kind}
          onChange={(e) => props.onKindChange(e.target.value as InstanceKind | '')}
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
          value={props.sort}
          onChange={(e) => props.onSortChange(e.target.value)}
          options={SORT_OPTIONS}
        >
          <option value="">Sort by</option>
        </Select>
        <Button type="submit">Apply Filters</Button>
      </form>
    </search>
  );
}
