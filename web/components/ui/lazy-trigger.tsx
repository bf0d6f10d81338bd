import { type ComponentType, lazy, type ReactNode, Suspense, useMemo, useState } from 'react';

interface LazyTriggerProps<P> {
  /** Loads the real control (a menu or dialog with its own trigger). */
  load: () => Promise<{ default: ComponentType<P> }>;
  /** Props for the loaded control; it receives defaultOpen when the user clicked. */
  props: P;
  /** What to show until then: a button that looks exactly like the real trigger. */
  placeholder: (handlers: {
    onClick: () => void;
    onPointerEnter: () => void;
    onFocus: () => void;
  }) => ReactNode;
}

/**
 * Shows a plain button until the user reaches for it, then swaps in the real control
 * opened. Menus and drawers built on Radix stay out of the first page's JavaScript.
 */
export function LazyTrigger<P extends object>({ load, props, placeholder }: LazyTriggerProps<P>) {
  const Loaded = useMemo(() => lazy(load), [load]);
  const [state, setState] = useState<'idle' | 'loaded' | 'open'>('idle');
  const preload = () => {
    void load();
  };
  const fallback = placeholder({
    onClick: () => setState('open'),
    onPointerEnter: preload,
    onFocus: preload,
  });
  if (state === 'idle') return <>{fallback}</>;
  return (
    <Suspense fallback={fallback}>
      <Loaded {...props} defaultOpen={state === 'open'} />
    </Suspense>
  );
}
