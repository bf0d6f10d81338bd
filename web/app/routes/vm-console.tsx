import { useParams } from 'wouter';
import { serialId } from '../../../shared/contracts/params';
import { ConsoleTerminal } from '../../features/console/components/console-terminal';
import { useTheme } from '../../features/theme/theme-provider';
import { useDocumentTitle } from '../../lib/document-title';
import NotFoundPage from './not-found';

/**
 * The web console of an instance — a VM Dashboard machine or a booked rental on My Dashboard,
 * both open it in a new tab: a terminal on the running instance, as tall as the window allows
 * and as wide as it is (it follows the window as it narrows or widens). Lazy-loaded, so xterm.js stays out of the
 * main bundle.
 */
export default function VmConsolePage() {
  const { id = '' } = useParams<{ id: string }>();
  const parsed = serialId.safeParse(id);
  const { theme } = useTheme();
  useDocumentTitle('Web Console', 'A terminal on your running instance.');
  if (!/^\d+$/.test(id) || !parsed.success) return <NotFoundPage />;
  return (
    <div className="mx-auto flex h-[calc(100dvh-4rem)] min-h-96 w-full min-w-0 max-w-7xl flex-col gap-4 px-4 py-6 sm:px-6 lg:px-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Web Console</h1>
        <p className="mt-1 text-muted-foreground">Instance #{parsed.data}</p>
      </div>
      <ConsoleTerminal
        instanceId={parsed.data}
        mode={theme === 'dark' ? 'dark' : 'light'}
        themeName={theme}
      />
    </div>
  );
}
