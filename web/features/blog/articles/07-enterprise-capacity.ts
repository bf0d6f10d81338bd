import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 7,
  slug: 'enterprise-gpu-capacity-buy-or-rent',
  title: 'Buy, Reserve or Rent? A GPU Capacity Guide for Enterprises',
  excerpt:
    'Utilisation, hidden costs of ownership, governance and service levels: how successful enterprises combine owned and rented GPU capacity.',
  author: 'Sarah Lindqvist',
  date: 'August 20, 2026',
  category: 'Enterprise',
  tags: ['Enterprise', 'Capacity Planning', 'Governance', 'TCO'],
  featured: false,
  content: `
Every enterprise AI programme reaches the same meeting: the pilots worked, the business wants more, and someone asks how much GPU capacity the company should buy. It is a harder question than it looks. GPUs are expensive, supply is uneven, the hardware generation changes every two years and nobody can forecast AI demand with confidence. This guide lays out the options, the numbers that matter and the way we see successful enterprises combine owned and rented capacity.

## Three ways to get GPU capacity

**Buy and operate.** You purchase servers, place them in your own data centre or a colocation facility, and run them yourself. You control everything, and you carry everything: capital cost, power, cooling, spare parts, staff and the risk that the hardware sits idle.

**Reserve long-term.** You commit to a provider for one to three years of fixed capacity at a discounted rate. Cost per hour is lower than on demand, but you pay whether you use it or not.

**Rent on demand.** You rent GPUs by the hour when you need them and stop when you do not. The hourly rate is the highest of the three, but you pay nothing for idle time and nothing up front beyond the credits you choose to buy.

Most enterprises end up with a mix. The question is where to draw the lines.

## The number that decides: utilisation

The single most important figure in any buy-versus-rent decision is expected utilisation, the share of hours in which the GPUs will actually be doing useful work.

Owned hardware has a high fixed cost spread over every hour of its life, used or not. If a GPU server is busy 90% of the time for three years, its cost per useful hour can be well below any rental price. If it is busy 30% of the time, its cost per useful hour can be several times higher than renting. Honest forecasts of utilisation, made by the teams that will use the hardware rather than by the teams that want to buy it, are therefore worth more than any price comparison.

A helpful exercise: list every planned AI workload for the next 18 months, estimate its GPU hours per month and whether those hours are steady or bursty, and add them up by month. Steady, predictable hours are candidates for owned or reserved capacity. Bursty or uncertain hours belong on rented capacity.

## Hidden costs of owning

When comparing, make sure the owned side of the ledger is complete:

- **Facilities:** a modern 8-GPU server can draw 6-10 kW. Many existing server rooms cannot supply or cool that density without upgrades.
- **Lead times:** high-end GPUs have often had waiting times of months. Capacity you cannot get this quarter does not help this quarter's projects.
- **People:** someone must install drivers, monitor health, replace failed parts and schedule jobs fairly between teams.
- **Depreciation and obsolescence:** each new GPU generation has brought large gains in performance per watt, which lowers the resale value and competitiveness of the previous one.
- **Tax treatment:** in India, capital purchases and rental expenses are treated differently, and GST at 18% applies to our services for Indian customers. Ask your finance team how each option lands in your books.

## Governance when you rent

Enterprises rightly worry about control when teams can rent computing on their own. Renting on RentGPU is built to be governed:

- **Prepaid budgets.** Credits are bought in advance, in US dollars, and spending cannot exceed the balance, so the balance itself works as a hard budget.
- **Clear pricing.** The cost of every rental is shown before it starts; the booked hours move into escrow, and unused time is refunded by the second when the rental is stopped. There are no data-transfer surprises on the bill.
- **API keys with permissions.** The public API under \`/api/v1\` uses bearer API keys that you create and revoke on the settings page, with read, write or admin permissions and rate tiers of 1,000, 5,000 or 25,000 requests per hour. Automation can be given exactly the access it needs.
- **Verified providers.** Every provider is reviewed before listing, with benchmarks of their hardware, and carries a public reputation score out of 5.0.
- **Accounts and KYC.** We verify account holders: PAN and Aadhaar for individuals, company documents for businesses, and passport and proof of address for international users. Indian businesses need a GST registration.

## Service levels you can plan around

For production use, published service levels matter more than peak performance. Our targets are 99.9% availability for the platform, 99.5% for GPU instances and 99.95% for the API. Critical support issues receive a response within 4 hours, planned maintenance is announced at least 48 hours ahead, and an outage lasting more than 4 hours earns automatic service credits. The details are in our [terms of service](/terms-of-service).

## A hybrid strategy that works

The pattern we see most often in successful enterprises has four parts.

1. **Own or reserve the base load.** Production inference that runs around the clock at a predictable level, and long-running training programmes, justify dedicated capacity once utilisation is proven.
2. **Rent the peaks.** Quarterly model refreshes, evaluation sweeps, hackathons and new projects run on rented GPUs, started and stopped by automation.
3. **Rent to evaluate.** Before buying a new GPU generation, rent it for a few weeks and run your real workloads on it. Benchmarks from vendors rarely match your models.
4. **Earn from idle hours.** When owned hardware has spare hours at night, at weekends or between projects, list it on the marketplace as a provider. Providers keep 90% of rental revenue, which can cover a meaningful part of the hardware's running costs.

## Questions to ask any GPU supplier

- What exactly is billed, and when does billing stop?
- What happens if an instance does not start? (On RentGPU, a rental that is not ready within 10 minutes is cancelled and refunded in full.)
- Who runs the hardware, where is it, and what security measures and certifications do they have?
- What are the availability targets, and what compensation applies when they are missed?
- How are API access and spending controlled for different teams?
- How is tax invoiced, and in which currency?

## Plan your capacity with us

Browse current GPU availability and prices on the [marketplace](/marketplace), or write to our sales team at [sales@rentgpu.dev](mailto:sales@rentgpu.dev) to discuss enterprise volumes. If your organisation already runs GPU servers with spare hours, [become a provider](/provider-signup) and turn that idle capacity into revenue.
`,
};
