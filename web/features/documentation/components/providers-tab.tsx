import { Link } from 'wouter';
import { buttonClasses } from '../../../components/ui/button';
import { DocSection, ListCard, Step, TabHeading } from './doc-parts';

const MINIMUM = [
  'NVIDIA GTX 1080 or better',
  '8GB+ GPU memory',
  '100 Mbps internet',
  '24/7 uptime',
];
const PREFERRED = [
  'RTX 4090, H100 or A100',
  '24GB+ GPU memory',
  '1 Gbps+ internet',
  'Enterprise cooling',
];

const EARNINGS = [
  { gpu: 'RTX 4090', hourly: '$0.50-0.80', monthly: '$360-576' },
  { gpu: 'A100 80GB', hourly: '$2.50-4.00', monthly: '$1,800-2,880' },
  { gpu: 'H100', hourly: '$4.00-6.00', monthly: '$2,880-4,320' },
];

export function ProvidersTab() {
  return (
    <div className="grid gap-8">
      <TabHeading title="For Providers">
        Earn from GPUs that would otherwise sit idle. Providers set their own prices and keep 90% of
        rental revenue; the platform fee is 10%.
      </TabHeading>
      <ol className="grid gap-6">
        <Step number={1} title="Application">
          <p>
            Tell us about your company, facility, hardware, security measures and terms in the
            provider application. We review applications within 2-3 business days.
          </p>
        </Step>
        <Step number={2} title="Verification">
          <p>
            We confirm your identity and run benchmarks on your hardware, so your listing shows
            measured performance. Verification takes 24-48 hours.
          </p>
        </Step>
        <Step number={3} title="Integration">
          <p>
            Install the RentGPU agent on each host (Ubuntu 22.04 or newer). It reports your GPUs and
            their health and starts and stops renters' instances.
          </p>
        </Step>
        <Step number={4} title="Go live">
          <p>
            Your GPUs appear in the marketplace with your price, location and bandwidth. Earnings
            from each rental are credited as it settles.
          </p>
        </Step>
      </ol>

      <DocSection id="doc-hardware" title="Hardware requirements">
        <div className="grid gap-4 md:grid-cols-2">
          <ListCard title="Minimum">
            {MINIMUM.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ListCard>
          <ListCard title="Preferred">
            {PREFERRED.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ListCard>
        </div>
      </DocSection>

      <DocSection id="doc-earnings" title="Indicative earnings">
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-left text-sm">
            <caption className="p-3 text-left text-muted-foreground">
              Per GPU at 60-80% utilisation. Actual earnings depend on your price, location and
              demand.
            </caption>
            <thead className="bg-muted">
              <tr>
                <th scope="col" className="p-3 font-semibold">
                  GPU
                </th>
                <th scope="col" className="p-3 font-semibold">
                  Per hour
                </th>
                <th scope="col" className="p-3 font-semibold">
                  Per month
                </th>
              </tr>
            </thead>
            <tbody>
              {EARNINGS.map((row) => (
                <tr key={row.gpu} className="border-t border-border">
                  <th scope="row" className="p-3 font-medium">
                    {row.gpu}
                  </th>
                  <td className="p-3">{row.hourly}</td>
                  <td className="p-3">{row.monthly}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DocSection>

      <Link href="/provider-signup" className={buttonClasses('provider', 'lg', 'w-fit')}>
        Apply to Become a Provider
      </Link>
    </div>
  );
}
