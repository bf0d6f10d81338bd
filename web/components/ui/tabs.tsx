import * as TabsPrimitive from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
}

/** Keyboard-navigable tabs (Radix); with value and onValueChange the caller holds the tab. */
export function Tabs({
  items,
  defaultValue,
  value,
  onValueChange,
  className,
  label,
}: {
  items: TabItem[];
  defaultValue?: string;
  value?: string;
  onValueChange?: (value: string) => void;
  className?: string;
  label: string;
}) {
  return (
    <TabsPrimitive.Root
      defaultValue={value === undefined ? (defaultValue ?? items[0]?.value) : undefined}
      value={value}
      onValueChange={onValueChange}
      // One column no wider than the page: a long word in a tab (an e-mail, a key) wraps or is
      // cut off inside it rather than widening the page on a phone.
      className={cn('grid grid-cols-[minmax(0,1fr)] gap-4', className)}
    >
      <TabsPrimitive.List
        aria-label={label}
        className="flex flex-wrap gap-1 rounded-lg bg-muted p-1"
      >
        {items.map((item) => (
          <TabsPrimitive.Trigger
            key={item.value}
            value={item.value}
            className="rounded-md px-3 py-1.5 text-sm font-medium text-muted-foreground data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm"
          >
            {item.label}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {items.map((item) => (
        <TabsPrimitive.Content key={item.value} value={item.value} className="min-w-0 outline-none">
          {item.content}
        </TabsPrimitive.Content>
      ))}
    </TabsPrimitive.Root>
  );
}
