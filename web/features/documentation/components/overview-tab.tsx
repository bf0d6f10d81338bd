import { Building2, FlaskConical, Lock, Server, Store, Wallet } from 'lucide-react';
import { DocSection, InfoCard, TabHeading } from './doc-parts';

export function OverviewTab() {
  return (
    <div className="grid gap-8">
      <TabHeading title="What is distributed GPU computing?">
        Distributed GPU computing puts GPUs owned by many independent providers (data centres,
        studios, research labs and individuals) into one marketplace. You rent exactly the GPU you
        need, by the hour, and reach it over SSH, without buying hardware or signing a long-term
        contract.
      </TabHeading>
      <div className="grid gap-3 text-muted-foreground">
        <p>
          On RentGPU you pay from prepaid credits in US dollars. When you rent, the cost of the
          hours you book is held in escrow; when you stop, the time you used is charged by the
          second and the rest comes back to your balance. Providers are reviewed and their hardware
          benchmarked before it appears in the marketplace, and every provider carries a reputation
          score out of 5.0.
        </p>
      </div>

      <DocSection id="doc-who" title="Who can use it">
        <div className="grid gap-4 md:grid-cols-3">
          <InfoCard icon={FlaskConical} title="Researchers">
            Run experiments, sweeps and reproductions on the exact GPU model your work needs, within
            a fixed budget of credits.
          </InfoCard>
          <InfoCard icon={Building2} title="Enterprises">
            Cover peaks and evaluate new hardware without capital spending, with prepaid budgets,
            API keys with permissions and published service levels.
          </InfoCard>
          <InfoCard icon={Server} title="Providers">
            List your GPUs, set your price, and keep 90% of the rental revenue from every hour your
            hardware would otherwise sit idle.
          </InfoCard>
        </div>
      </DocSection>

      <DocSection id="doc-features" title="Features">
        <div className="grid gap-4 md:grid-cols-3">
          <InfoCard icon={Store} title="GPU Marketplace">
            Consumer GPUs such as the RTX 4090, data-centre GPUs such as the A100 and H100, and
            multi-GPU machines, with price, memory, location and availability side by side.
          </InfoCard>
          <InfoCard icon={Wallet} title="Flexible Pricing">
            Rent from 1 to 720 hours, pay only for the time you use, and get bonus credits on larger
            packages. A fixed $2.50 add-on gives each rental 50GB of storage.
          </InfoCard>
          <InfoCard icon={Lock} title="Enterprise Security">
            Password-free sign-in with one-time codes, hashed sessions and API keys, verified
            providers and encrypted SSH access to every instance.
          </InfoCard>
        </div>
      </DocSection>
    </div>
  );
}
