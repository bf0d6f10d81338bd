import { Globe, ShieldCheck, Wallet, Zap } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DemoLoginButton } from '../../features/auth/components/demo-login-button';
import { LoginForm } from '../../features/auth/components/login-form';
import { useDocumentTitle } from '../../lib/document-title';

const FEATURES = [
  {
    icon: Zap,
    title: 'Instant Access',
    text: 'Rent by the hour and get SSH access to your GPU in minutes. No contracts, no waiting lists.',
  },
  {
    icon: ShieldCheck,
    title: 'Verified Providers',
    text: 'Every provider is reviewed and rated, so you know who runs the hardware you rent.',
  },
  {
    icon: Wallet,
    title: 'Competitive Pricing',
    text: 'Pay from prepaid credits for the hours you use. Stop early and unused hours come back to you.',
  },
  {
    icon: Globe,
    title: 'Global Network',
    text: 'GPUs in North America, Europe and Asia, so you can compute close to your data and your users.',
  },
];

const TIERS = [
  {
    name: 'Consumer GPUs',
    models: 'RTX 4090, 4080, 3090',
    price: '$0.50/hr',
    use: 'Fine-tuning, inference, rendering and experiments.',
  },
  {
    name: 'Professional GPUs',
    models: 'A100, H100, V100',
    price: '$2.00/hr',
    use: 'Training large models with data-centre memory and bandwidth.',
  },
  {
    name: 'Multi-GPU Setups',
    models: '8x A100, 4x H100',
    price: '$15.00/hr',
    use: 'Distributed training on NVLink-connected nodes.',
  },
];

function useSignInHash(): boolean {
  const [wanted, setWanted] = useState(() => window.location.hash === '#sign-in');
  useEffect(() => {
    const onHash = () => setWanted(window.location.hash === '#sign-in');
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return wanted;
}

export default function LandingPage() {
  useDocumentTitle('RentGPU', 'Rent RTX, A100 and H100 GPUs by the hour from verified providers.');
  const focusSignIn = useSignInHash();
  const [focusKey, setFocusKey] = useState(0);

  function startComputing() {
    document.getElementById('sign-in')?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    setFocusKey((key) => key + 1);
  }

  return (
    <div>
      <section className="bg-gradient-to-b from-hero-from to-hero-to">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1.2fr_1fr] lg:px-8 lg:py-20">
          <div className="grid gap-6">
            <p className="w-fit rounded-full border border-border bg-card/60 px-3 py-1 text-xs font-medium text-muted-foreground">
              On-demand GPUs from verified providers
            </p>
            <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">
              Rent powerful GPUs by the hour
            </h1>
            <p className="max-w-xl text-lg text-muted-foreground">
              From an RTX 4090 for a weekend experiment to an 8x A100 node for a training run: pick
              a GPU, pay from prepaid credits, and connect over SSH. Stop any time and unused hours
              are refunded.
            </p>
            <div className="flex flex-wrap gap-3">
              <Button size="lg" onClick={startComputing}>
                Start Computing Now
              </Button>
              <DemoLoginButton variant="outline" size="lg">
                Try Demo Account
              </DemoLoginButton>
            </div>
          </div>
          <Card id="sign-in" className="grid gap-4 p-6">
            <div>
              <h2 className="text-xl font-semibold">Sign in or create an account</h2>
              <p className="mt-1 text-sm text-muted-foreground">
                We e-mail you a 6-digit code. No password to remember.
              </p>
            </div>
            <LoginForm key={focusKey} autoFocus={focusSignIn || focusKey > 0} />
          </Card>
        </div>
      </section>

      <section
        aria-labelledby="features-heading"
        className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8"
      >
        <h2 id="features-heading" className="text-2xl font-bold">
          Why RentGPU
        </h2>
        <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <Card key={title} className="p-5">
              <Icon className="h-6 w-6 text-primary" aria-hidden />
              <h3 className="mt-3 font-semibold">{title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </Card>
          ))}
        </div>
      </section>

      <section
        aria-labelledby="tiers-heading"
        className="mx-auto max-w-7xl px-4 pb-6 sm:px-6 lg:px-8"
      >
        <h2 id="tiers-heading" className="text-2xl font-bold">
          GPUs for every workload
        </h2>
        <div className="mt-6 grid gap-4 md:grid-cols-3">
          {TIERS.map((tier) => (
            <Card key={tier.name} className="grid content-start gap-2 p-6">
              <h3 className="text-lg font-semibold">{tier.name}</h3>
              <p className="text-sm text-muted-foreground">{tier.models}</p>
              <p className="text-2xl font-bold">
                <span className="text-sm font-normal text-muted-foreground">From </span>
                {tier.price}
              </p>
              <p className="text-sm text-muted-foreground">{tier.use}</p>
            </Card>
          ))}
        </div>
      </section>
    </div>
  );
}
