import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 4,
  slug: 'startup-scaling-ai-rented-gpus',
  title: "From Prototype to Production: Scaling a Startup's AI on Rented GPUs",
  excerpt:
    'How a young company can grow its AI product stage by stage, from one rented GPU to layered capacity, without locking in costs it cannot carry.',
  author: 'Rohan Verma',
  date: 'October 1, 2026',
  category: 'Business Growth',
  tags: ['Startups', 'Scaling', 'Inference', 'Unit Economics'],
  featured: false,
  content: `
Every AI startup eventually meets the same moment: the prototype works, the first customers are asking for more, and the question changes from "can we build it?" to "can we afford to run it?" Computing is often the largest cost after salaries, and the decisions you make about it in the first year shape your margins for a long time. This article walks through how a young company can grow its AI product on rented GPUs, stage by stage, without locking itself into costs it cannot carry.

## Stage one: the prototype

At the prototype stage, speed of learning is everything. You are testing whether a model can do the job at all, and you will throw away most of what you try.

- Rent the cheapest GPU that fits the model. A single RTX 4090 with 24GB of memory handles most fine-tuning and inference experiments for models up to about 13B parameters with quantisation.
- Rent for the hours you work. Book a working day, stop the rental when you go home, and the unused hours come back to your balance, refunded by the second.
- Keep everything in a repository: code, environment files, and a short script that sets up a fresh machine. A new rental should be ready for work within minutes of the SSH connection opening.

A prototype month on rented hardware typically costs less than one new laptop, and nothing is wasted if the idea changes direction.

## Stage two: the first customers

When paying customers arrive, reliability starts to matter more than price. Three changes help.

**Separate training from serving.** Training jobs are bursty and can be restarted from checkpoints. Serving must be up whenever customers use your product. Use different rentals for each, so a long training run never competes with customer traffic for the same GPU.

**Measure cost per request.** Take your serving GPU's hourly rate, divide it by the requests it handles in an hour at your target latency, and you have the number that connects computing to your pricing. If one request costs you $0.002 and you charge $0.01, you have room; if it costs $0.02, your pricing or your model needs work.

**Automate the boring parts.** The RentGPU public API, under \`/api/v1\` with bearer API keys you create on your [settings page](/settings), can list available GPUs, create instances and stop them. The \`rentgpu\` command-line tool wraps the same API for scripts and terminals. A deployment script that rents, configures and health-checks a serving machine turns a stressful afternoon into a routine step.

## Stage three: growth

Growth brings two new problems: traffic that varies by hour and day, and a finance team that wants predictable numbers.

### Plan capacity in layers

Think of demand as layers. The base layer is traffic you have every hour of every day; it deserves long rentals on the GPU type with the lowest cost per request. The daily peak is traffic that arrives during business hours in your customers' time zones; cover it with additional rentals booked for those hours. Spikes, such as a launch or a large customer's batch job, are covered with short rentals started by your automation.

Rentals can be booked for up to 720 hours (30 days), so the base layer can run for a month at a time, with the unused part refunded if you change plans.

### Budget with prepaid credits

Prepaid credits make computing spend predictable: you decide how much to buy, and spending cannot run past it. Larger packages include a bonus; the $250 package adds $75 of credits, which is a meaningful discount at startup scale. Buy at the start of each month based on last month's usage plus growth, and review the gap at the end of the month.

### Keep an eye on the unit economics

Track three numbers every week: GPU spend, GPU utilisation and cost per thousand requests (or per training run). Spend going up is fine when usage grows; utilisation going down or cost per request going up means capacity is drifting away from demand.

## Choosing GPUs as you grow

- **Inference for small and medium models:** RTX 4090 and RTX 4080 cards often give the best cost per request, especially with quantisation and batching.
- **Inference for large models or long contexts:** A100 80GB or H100, where memory decides whether the model fits at all.
- **Training and large fine-tunes:** A100 and H100, in multi-GPU machines when the job scales.

Re-benchmark every quarter. New open models, new inference servers and new quantisation methods change the answer more often than new hardware does.

## When buying starts to make sense

Renting is the right default while demand is uncertain. Buying becomes worth considering when three things are true at once: a large part of your load is steady around the clock, you expect that to continue for two years or more, and you have people who can run hardware well. Even then, many companies keep renting for peaks and experiments, and some list their owned GPUs on the marketplace when they are not using them, turning spare capacity into income.

## Mistakes we see often

1. **Serving on the training GPU.** A long training job starves customer requests, or a traffic spike kills a training run. Keep them apart.
2. **No stop button in the automation.** Scripts that rent GPUs must also stop them, including when something fails halfway.
3. **Optimising before measuring.** Teams spend weeks on custom kernels when a larger batch size or a quantised model would have halved cost in an afternoon.
4. **One region for everyone.** If customers are in India and Europe, serving from one location adds latency for half of them. The marketplace shows each GPU's location; use it.

## A growth checklist

- Prototype on the cheapest GPU that fits, rented for the hours you work.
- Separate serving from training from day one.
- Know your cost per request and put it next to your price.
- Automate renting and stopping through the API or the CLI.
- Plan capacity in layers: base, daily peak and spikes.
- Buy credits monthly in a package that matches your spend.

## Build your next stage

Compare GPU types, prices and locations on the [marketplace](/marketplace) and rent the machine for your next milestone in minutes. And when your own hardware has hours to spare, [become a provider](/provider-signup) so those hours pay for themselves.
`,
};
