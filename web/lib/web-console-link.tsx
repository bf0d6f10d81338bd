import { ExternalLink } from 'lucide-react';
import { buttonClasses } from '../components/ui/button';

/**
 * "Open Web Console": the link to an instance's web console page (web/app/routes/vm-console.tsx),
 * opened in a new tab. One for every instance that has a console — a VM Dashboard card's and a
 * booked rental's on My Dashboard alike; the server names the page (`web_console`,
 * `webConsole`).
 */
export function WebConsoleLink({ href }: { href: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses('outline', 'sm', 'w-fit')}
    >
      <ExternalLink className="h-4 w-4" aria-hidden />
      Open Web Console
    </a>
  );
}
