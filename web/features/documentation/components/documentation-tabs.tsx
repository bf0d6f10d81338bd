import * as Tabs from '@radix-ui/react-tabs';
import { lazy, Suspense, useState } from 'react';
import { GettingStartedTab } from './getting-started-tab';
import { OverviewTab } from './overview-tab';
import { ProvidersTab } from './providers-tab';
import { SupportTab } from './support-tab';

// The API tab renders the OpenAPI document (bundled, about 13 KB gzipped with its view):
// loaded only when that tab opens, not with every documentation tab.
const ApiTab = lazy(() => import('./api-tab').then((m) => ({ default: m.ApiTab })));

const TABS = [
  { value: 'overview', label: 'Overview', Content: OverviewTab },
  { value: 'getting-started', label: 'Getting Started', Content: GettingStartedTab },
  { value: 'api', label: 'API Reference', Content: ApiTab },
  { value: 'providers', label: 'For Providers', Content: ProvidersTab },
  { value: 'support', label: 'Support', Content: SupportTab },
] as const;

type TabValue = (typeof TABS)[number]['value'];

function tabFromHash(): TabValue {
  const hash = window.location.hash.slice(1);
  return TABS.find((tab) => tab.value === hash)?.value ?? 'overview';
}

/** The five tabs; the open tab is kept in the address (#getting-started) so it can be linked. */
export function DocumentationTabs() {
  const [tab, setTab] = useState<TabValue>(tabFromHash);

  function select(value: string) {
    const next = TABS.find((candidate) => candidate.value === value)?.value ?? 'overview';
    setTab(next);
    window.history.replaceState(
      null,
      '',
      next === 'overview' ? window.location.pathname : `#${next}`,
    );
  }

  return (
    <Tabs.Root value={tab} onValueChange={select} className="grid gap-8">
      <Tabs.List
        aria-label="Documentation sections"
        className="flex flex-wrap gap-1 rounded-lg bg-muted p-1"
      >
        {TABS.map(({ value, label }) => (
          <Tabs.Trigger
            key={value}
            value={value}
            className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:text-foreground data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm"
          >
            {label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {TABS.map(({ value, Content }) => (
        <Tabs.Content key={value} value={value} className="min-w-0">
          <Suspense fallback={<div aria-busy="true" className="min-h-96" />}>
            <Content />
          </Suspense>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
