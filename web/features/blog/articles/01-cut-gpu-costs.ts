import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 1,
  slug: 'cut-gpu-costs-without-slowing-down',
  title: 'How to Cut GPU Costs Without Slowing Down Your AI Work',
  excerpt:
    'Right-size the GPU to the job, pay only for the seconds you use, and stop paying for idle time: the habits of renters who get the most computing from every dollar of credit.',
  author: 'Ananya Rao',
  date: 'November 12, 2026',
  category: 'Cost Optimization',
  tags: ['Cost Savings', 'GPU Selection', 'Billing', 'Training'],
  featured: true,
  content: `
Most teams do not overspend on GPUs because GPUs are expensive. They overspend because they pay for GPUs that are waiting: for a data loader, for a colleague to look at a loss curve, for a meeting to finish, or for someone to remember that a training run ended on Friday night. Renting by the hour removes the biggest fixed cost, but it only saves money if you also change how you work. This guide collects the habits we see in renters who get the most computing out of every dollar of credit.

## Start from the job, not the GPU

The first question is not "which GPU is fastest?" but "what does this job need?" Three numbers decide most choices: how much GPU memory the job needs, how long it runs, and whether it is limited by compute, by memory bandwidth or by your input pipeline.

- **Memory first.** If the model, its optimizer state and a useful batch do not fit, nothing else matters. A 7B-parameter model fine-tuned with LoRA in 16-bit precision fits comfortably on a 24GB RTX 4090. Full fine-tuning of the same model, or training anything much larger, usually needs the 40GB or 80GB of an A100 or H100.
- **Then throughput.** For inference and small fine-tunes, consumer cards often deliver the best tokens or images per dollar. For large training runs, data-centre GPUs win because of memory bandwidth, NVLink and larger batches, even though their hourly rate is higher.
- **Then duration.** A job that takes three hours on an H100 and eleven hours on an RTX 4090 may still be cheaper on the H100. Compare the cost of the whole job, not the hourly rate.

A simple way to compare is cost per result: the hourly rate multiplied by the hours a job takes, divided by what it produces (an epoch, a thousand images, a million tokens). Run a short benchmark of ten or fifteen minutes on two candidate GPUs and you will know more than any spec sheet can tell you.

## Know exactly what you are paying for

On RentGPU you choose a number of hours between 1 and 720 when you rent. The cost of those hours moves from your credit balance into escrow when the rental starts, together with a fixed $2.50 storage add-on that gives the instance 50GB of disk. Nothing is charged after that without you seeing it first.

The important part for cost control is what happens when you finish early. When you press **Stop**, usage is metered by the second from the moment the rental started. The time you used, rounded up to the cent, is paid to the provider, and the rest of the escrow goes straight back to your balance. Booking 24 hours and stopping after 6 hours and 20 minutes costs you 6 hours and 20 minutes plus the storage add-on.

That makes a generous booking safe. Book enough hours that a long run can finish without being cut off, and stop the instance the moment the work is done. If a rental is not ready within 10 minutes of starting, it is cancelled and refunded in full, so a slow start never costs you anything either.

## Use the credit packages deliberately

Credits are prepaid in US dollars. Larger packages carry a bonus: the $25 package adds $2, the $50 package adds $7, the $100 package adds $20 and the $250 package adds $75. If you know you will spend $100 this month, buying it in one package gives you $120 to spend, a 20% discount that no amount of tuning can match. Custom amounts between $1 and $1,000 are possible but carry no bonus.

A prepaid balance also works as a budget. A student or a small team can buy one package per month and know that spending cannot run past it.

## Stop paying for idle time

The most common source of waste is a GPU that is allocated but not computing. Watch for these patterns:

- **The forgotten instance.** A run finishes at 2 a.m. and the machine sits idle until someone checks in the morning. End your training scripts with a step that copies results off the machine, and stop the rental as soon as they are safe. With the \`rentgpu\` command-line tool or the public API you can stop a rental from the same script that launched it.
- **The starving GPU.** If \`nvidia-smi\` shows utilisation well below 90% during training, the GPU is waiting for data. Move preprocessing off the critical path, use more data-loader workers, store data in a format that loads fast (for example sharded files instead of millions of small images), and copy datasets to the instance's local disk before you start rather than reading them over the network.
- **The interactive session that never ends.** Notebooks are great for exploring and terrible for billing. Explore on a cheap GPU, then run the long job as a script on the right GPU.

## Make every GPU hour do more

Once the GPU is busy, the next step is to make the work itself cheaper.

- **Mixed precision.** Training in bfloat16 or float16 with automatic mixed precision roughly halves memory use and is often much faster on RTX 40-series, A100 and H100 GPUs, with no loss in final quality for most models.
- **Gradient checkpointing and accumulation.** Trade a little compute for a lot of memory, so a job fits on a smaller, cheaper GPU.
- **Parameter-efficient fine-tuning.** LoRA and similar methods train a small fraction of the weights. For many adaptation tasks they match full fine-tuning at a fraction of the memory and time.
- **Quantised inference.** Serving a model in 8-bit or 4-bit precision can move it from an 80GB GPU to a 24GB one.
- **Right-sized batches.** The largest batch that fits is not always the fastest to a good result. Measure time to target accuracy, not time per step.

## Checkpoint like you mean it

Checkpoints are insurance. Save one at regular intervals (every 20 to 30 minutes of training is a good default), write it to the instance's disk, and copy the important ones off the machine. With checkpoints you can book shorter rentals, stop and resume on a different GPU, or move to a larger GPU half-way through without starting over. Keep an eye on the 50GB storage that comes with each rental: large checkpoints add up quickly, so keep only the last few and the best one.

## Match the GPU to the stage of the project

Projects move through stages, and each stage has a different best GPU.

1. **Exploration:** short sessions, small data, lots of thinking between runs. A consumer GPU at the lowest price you can find is ideal.
2. **Scaling experiments:** many short runs to find hyperparameters. Several cheaper GPUs in parallel finish a sweep sooner than one large GPU working through the runs one by one.
3. **The main training run:** long, stable and expensive. This is where A100 or H100 time pays for itself, because the job finishes in fewer hours.
4. **Serving:** steady, predictable load. Measure cost per thousand requests on two or three GPU types before committing.

## A worked example

Suppose you want to fine-tune a 7B language model on 50,000 instruction examples. A quick benchmark shows that LoRA training takes about 5 hours on an RTX 4090 and about 2 hours on an A100 80GB. At an illustrative $0.80 an hour for the 4090, the job costs $4.00 plus the $2.50 storage add-on. At an illustrative $2.80 an hour for the A100, it costs $5.60 plus $2.50. The 4090 is cheaper, and you would book 8 hours to be safe; stopping at 5 hours returns the unused 3 hours to your balance. If the deadline is tomorrow morning and you need three variants, three 4090s in parallel finish all of them before the single A100 finishes the second.

Real prices on the [marketplace](/marketplace) vary by provider, location and demand, which is exactly why measuring your own job is worth ten minutes.

## Checklist

- Benchmark the job for 10-15 minutes on two GPU types and compare the cost of the whole job.
- Book enough hours to finish, and stop as soon as results are copied off the machine.
- Buy credits in the package that matches your monthly spend to get the bonus.
- Keep the GPU above 90% utilisation; fix the data pipeline first.
- Use mixed precision, LoRA and quantisation where they fit.
- Checkpoint every 20-30 minutes and keep only the checkpoints you need.

## Ready to put this into practice?

Browse the [GPU marketplace](/marketplace) to compare hourly rates, memory and locations side by side, and rent your first GPU in a couple of minutes. If you own GPUs that sit idle for part of the day, you can be on the other side of this equation: [become a provider](/provider-signup) and earn from the hours you are not using.
`,
};
