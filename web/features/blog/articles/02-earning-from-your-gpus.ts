import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 2,
  slug: 'earning-from-your-gpus-provider-guide',
  title: "From Idle Hardware to Steady Revenue: A Provider's Guide to Earning on RentGPU",
  excerpt:
    "What an RTX 4090, A100 or H100 can really earn, what it costs to run, and the five habits that keep the most successful providers' GPUs busy.",
  author: 'Vikram Singh',
  date: 'October 29, 2026',
  category: 'Provider Success',
  tags: ['Providers', 'Earnings', 'Hardware', 'Utilisation'],
  featured: false,
  content: `
A GPU that is switched off earns nothing, and a GPU that is busy for your own work only part of the day is capital standing still. Thousands of capable cards sit in exactly that state: in studios between projects, in labs between grant cycles, in small data centres with spare racks, and in rigs that were built for mining and never found a second job. This article explains, with real figures, what it takes to turn that hardware into steady revenue on RentGPU, and what separates providers who stay busy from those who do not.

## How the money works

Renters pay for rentals from prepaid credits. When a rental starts, its cost moves into escrow; when the renter stops it, or the booked hours end, the time actually used is settled. Providers keep 90% of the rental revenue and the platform fee is 10%. There is no listing fee and no monthly charge: if nobody rents your GPU, you owe nothing.

Because renters pay up front into escrow, you are never chasing payment for computing you already delivered. Your earnings are credited as each rental settles and appear on your provider dashboard next to your active rentals.

## What a GPU can earn

Earnings depend on the GPU model, your price and, most of all, utilisation: the share of hours your GPU is actually rented. Our indicative figures assume utilisation between 60% and 80%, which well-run listings reach once they have a track record:

- **RTX 4090:** $0.50-0.80 per hour, or about $360-576 per month.
- **A100 80GB:** $2.50-4.00 per hour, or about $1,800-2,880 per month.
- **H100:** $4.00-6.00 per hour, or about $2,880-4,320 per month.

These are averages over the month, not promises. A new listing without reviews will usually start below that range, and demand moves with the seasons of machine learning: conference deadlines, the end of academic terms and the release of new open models all bring spikes.

## What it costs you to run

Revenue is only half of the picture. Before listing, work out your cost per hour:

- **Electricity.** An RTX 4090 draws around 450 W under full load, and the whole machine perhaps 600 W. At a tariff of ₹8 per kWh that is roughly ₹4.80, or about six US cents, per hour of load. An 8-GPU A100 server draws several kilowatts, so power and cooling become a real line item.
- **Cooling.** Sustained load is very different from gaming sessions. Plan for the heat of 24-hour operation, not the occasional burst.
- **Connectivity.** Renters move datasets and checkpoints in and out. A symmetric connection is worth more than a fast download alone.
- **Wear and your time.** Fans, thermal paste and occasional reboots are part of running hardware. Budget an hour or two a month per machine.

For most consumer GPUs in India the electricity cost is a small fraction of the hourly rate, which is why a well-utilised RTX 4090 can repay a meaningful part of its price within its first year.

## The hardware bar

We keep a clear minimum so renters can rely on every listing:

- NVIDIA GTX 1080 or better
- 8GB or more of GPU memory
- 100 Mbps internet connection
- 24/7 uptime

The machines that stay busiest go well beyond that: RTX 4090, A100 or H100 GPUs with 24GB or more of memory, connections of 1 Gbps or faster, and enterprise-grade cooling. If you are choosing what to buy, memory matters more than it used to: many renters fine-tune or serve models that simply do not fit on 8GB or 12GB cards.

## From application to first rental

Joining is a four-step process.

1. **Application.** Fill in the [provider application](/provider-signup): your company or individual details, location, facility, power and cooling, internet speed, GPU inventory, security measures and your pricing and support terms. We review applications within 2-3 business days.
2. **Verification.** We confirm who you are and run benchmarks on your hardware so the specifications on your listing are measured, not claimed. Verification takes 24-48 hours.
3. **Integration.** You install the RentGPU agent on each host. It reports the host's GPUs and health, and lets the platform start and stop renters' instances on your machine.
4. **Go live.** Your GPUs appear in the marketplace with your price, location and bandwidth, and renters can book them immediately.

## Five habits of providers who stay busy

**1. Price for utilisation, not for headlines.** Renters compare listings side by side. A price slightly below comparable listings fills the calendar, and a full calendar earns more than an empty premium listing. Revisit your price monthly.

**2. Protect your reputation score.** Every provider carries a reputation out of 5.0. Renters notice it, and it is shaped by the basics: instances that start on time, machines that do not disappear mid-rental, and quick answers when something goes wrong. A rental that is not ready within 10 minutes is cancelled and refunded to the renter in full, so slow provisioning costs you both the rental and your reputation.

**3. Keep the machine healthy.** Update drivers on a schedule, watch temperatures, and keep the disk clean. Announce planned maintenance ahead of time and do it when your GPUs are least in demand.

**4. Describe your listing honestly.** Location, bandwidth and cooling matter to renters choosing where to put a week-long job. Accurate listings earn repeat renters; surprises earn refunds.

**5. Think in fleets.** One GPU is a side income. Four identical GPUs in one machine let renters run multi-GPU jobs, and identical machines make maintenance simpler. Many providers start with one card to learn the workflow and grow once they have seen a few months of real utilisation.

## A realistic first year

Consider a small studio in Pune with two RTX 4090 workstations used for rendering during office hours. Outside those hours, and during the weeks between projects, both machines are listed. In the first month, with no reviews, utilisation is around 30%. By the third month, with a reputation above 4.7 and a price set just under comparable listings, it settles between 55% and 70%. At an average of $0.60 per earned hour across two GPUs, that is roughly $500-600 a month before electricity, from hardware the studio already owned and still uses for its own work every day.

That example is illustrative, but the pattern is typical: the first weeks are slower, and consistency is what moves a listing into the upper part of the earnings range.

## Is it worth it for you?

Providing is a good fit if you already have suitable GPUs with spare hours, reliable power and a decent connection, and you are willing to treat the machines as a small service rather than a hobby. It is not a good fit if the hardware is shared with people who will reboot it at random, or if your connection drops several times a day.

## Start earning from your hardware

If your GPUs have idle hours, [apply to become a provider](/provider-signup): the application takes about twenty minutes, and review takes 2-3 business days. Curious what renters are paying right now? Browse the [marketplace](/marketplace) to see live listings, prices and locations, and find the gap your hardware can fill.
`,
};
