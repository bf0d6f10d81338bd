import { Link } from 'wouter';
import { CodeBlock } from '../../../components/content/code-block';
import { linkClasses } from '../../../components/content/markup-view';
import { DocSection, Step, TabHeading } from './doc-parts';

const CLI_EXAMPLE = `rentgpu login                        # paste an API key created on /settings
rentgpu list                         # GPUs available now, with prices and locations
rentgpu rent <gpu-id> --duration 4   # rent a GPU for 4 hours
rentgpu status                       # your rentals, their status and SSH details`;

export function GettingStartedTab() {
  return (
    <div className="grid gap-8">
      <TabHeading title="Getting Started">
        From a new account to a running GPU in four steps. Most people are connected within ten
        minutes.
      </TabHeading>
      <ol className="grid gap-8">
        <Step number={1} title="Create an account">
          <p>
            Enter your e-mail address on the home page. We send you a 6-digit code, valid for 10
            minutes; enter it and you are signed in. There is no password. Your account is created
            the first time you sign in. To look around first, use <strong>Demo Login</strong>.
          </p>
        </Step>
        <Step number={2} title="Add credits">
          <p>
            Open{' '}
            <Link href="/payments" className={linkClasses}>
              Add Credits
            </Link>{' '}
            and choose a package ($10, $25, $50, $100 or $250; the larger ones include bonus
            credits) or a custom amount from $1 to $1,000. Payment is by PayPal. Card payments are
            not yet available; if you need another method,{' '}
            <Link href="/contact-us" className={linkClasses}>
              contact support
            </Link>
            .
          </p>
        </Step>
        <Step number={3} title="Browse GPUs">
          <p>
            Open the{' '}
            <Link href="/marketplace" className={linkClasses}>
              marketplace
            </Link>{' '}
            and:
          </p>
          <ul className="list-disc space-y-1 pl-6">
            <li>filter by GPU model, or search by model, location or provider;</li>
            <li>sort by price or by performance;</li>
            <li>check each GPU's availability and location before you choose.</li>
          </ul>
        </Step>
        <Step number={4} title="Rent and deploy">
          <p>
            Choose the number of hours (1 to 720) and confirm. The rent dialog shows the total,
            including the $2.50 storage add-on. Provisioning takes 2-3 minutes, then you get:
          </p>
          <ul className="list-disc space-y-1 pl-6">
            <li>SSH access: the host address and port, with copy buttons, on your dashboard;</li>
            <li>
              the NVIDIA driver ready, so <code className="font-mono text-sm">nvidia-smi</code>{' '}
              shows your GPU as soon as you connect;
            </li>
            <li>
              a usage dashboard at{' '}
              <Link href="/dashboard" className={linkClasses}>
                /dashboard
              </Link>{' '}
              with runtime and a live cost estimate for every rental.
            </li>
          </ul>
          <p>
            Press <strong>Stop</strong> when you are done: the unused time is refunded by the
            second. A rental that is not ready within 10 minutes is cancelled with a full refund.
          </p>
        </Step>
      </ol>

      <DocSection id="doc-cli" title="Command-line tool" className="grid gap-3">
        <p className="text-muted-foreground">
          The <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm">rentgpu</code> tool
          does the same from a terminal or a script. It uses the public API, so sign in with an API
          key from your{' '}
          <Link href="/settings" className={linkClasses}>
            settings
          </Link>
          .
        </p>
        <CodeBlock label="rentgpu commands" code={CLI_EXAMPLE} />
      </DocSection>
    </div>
  );
}
