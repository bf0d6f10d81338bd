import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 3,
  slug: 'research-labs-more-experiments-per-grant',
  title: 'More Experiments per Grant: How Research Labs Use On-Demand GPUs',
  excerpt:
    'Deadline surges, parallel sweeps and reproducible runs: a practical guide for labs that want to run more experiments on the same budget.',
  author: 'Dr. Meera Iyer',
  date: 'October 15, 2026',
  category: 'Research',
  tags: ['Research', 'Academia', 'Reproducibility', 'Experiments'],
  featured: false,
  content: `
Ask any graduate student what slows their research down and "waiting for GPUs" will be near the top of the list. University clusters are shared by hundreds of people, queues stretch for days before a deadline, and the lab's own workstation is busy with somebody else's job exactly when you need it. Renting GPUs by the hour does not replace a good cluster, but used well it turns the scarcest resource in a machine-learning lab, time on a GPU, into something you can plan and budget for. This article is a practical guide for principal investigators, postdocs and students who want to run more experiments on the same grant.

## Where rented GPUs fit in a research workflow

Most labs already have some computing: a shared cluster, a departmental server, a few desktops with consumer GPUs. Rented GPUs are most useful at the edges of that capacity:

- **Deadline surges.** In the three weeks before a conference deadline, demand on shared clusters can triple. Renting for those weeks costs far less than buying hardware that sits idle for the rest of the year.
- **Hardware you do not have.** If your cluster has only 16GB cards and your model needs 80GB, a few hours on an A100 or H100 answers the question "does this work at scale?" before you write a larger grant proposal.
- **Parallel sweeps.** A hyperparameter search of forty configurations runs much faster on ten GPUs at once than on one GPU working through them in sequence.
- **Reproduction.** Reviewers increasingly ask for code and results they can reproduce. A documented rental on a named GPU model is easy for anyone else to repeat.

## Budgeting on a grant

Grant money is usually committed in advance and spent under rules. Prepaid credits fit that model well: you buy a fixed amount, and spending cannot run past it. Larger credit packages include a bonus (for example, a $100 package gives $120 of credits and a $250 package gives $325), so it pays to buy in the size that matches a project's budget rather than topping up in small amounts.

Keep a simple spreadsheet per project: date, GPU model, hours booked, hours used and cost. Every rental shows its cost when you book it, and unused hours are refunded by the second when you stop early, so the numbers in your sheet will match what was actually spent. For Indian institutions, ask us about GST invoices for your finance office before you buy; our terms explain how tax is applied.

## Designing experiments for rented hardware

Rented GPUs reward a slightly different way of working than a desktop under your own desk.

**Make every run a script.** Interactive exploration belongs on cheap hardware or your own machine. Once an experiment is defined, it should start from one command, read its configuration from a file, log to disk, and exit when it finishes.

**Checkpoint and resume.** Rentals run between 1 and 720 hours. Write your training loop so it saves a checkpoint every 20-30 minutes and can resume from the newest one. Then a run can move to a different GPU, or continue in a second rental, without losing work.

**Move data once.** Copy your dataset to the instance's disk at the start with \`rsync\` or \`scp\` over the SSH connection the rental gives you, and read it locally. Each rental includes 50GB of storage; for larger datasets, preprocess and compress before you upload.

**Bring results home.** The instance's disk is not an archive. Copy logs, metrics and the checkpoints you need back to your lab storage before you stop the rental.

## Reproducibility is easier than you think

Every rental runs on a specific, named GPU model, and you control the software you install. That makes it straightforward to record the information reviewers and future students need:

- The GPU model and memory (for example "RTX 4090, 24GB" or "A100, 80GB").
- The NVIDIA driver and CUDA versions, which \`nvidia-smi\` prints.
- Your framework versions, pinned in a requirements or lock file.
- Random seeds, and whether deterministic algorithms were enabled.
- The exact command and configuration file for each run.

Keep these in the run's log directory and publish them with your code. A colleague on another continent can rent the same GPU model and repeat the run.

## Sweeps without the spreadsheet chaos

Parallel sweeps are where renting shines, and also where costs can drift. A few rules keep them under control:

1. **Run a pilot.** Run one configuration for 15 minutes to measure time per epoch and GPU memory. Now you know the cost of the whole sweep before you start it.
2. **Prune early.** Use a method such as successive halving: start many configurations with a small budget, keep the best third, and give them more time. Most bad configurations reveal themselves in the first tenth of training.
3. **Automate start and stop.** With the \`rentgpu\` command-line tool (\`rentgpu list\`, \`rentgpu rent <gpu-id> --duration N\` and \`rentgpu status\`) or the public API under \`/api/v1\`, a sweep script can rent GPUs, launch runs and stop each rental as soon as its run ends.
4. **Log centrally.** Send metrics to one place so you can compare runs as they finish rather than collecting files from ten machines afterwards.

## Choosing the GPU for the question

Not every research question needs the biggest GPU.

- **Small models, vision, classic deep learning:** consumer GPUs such as the RTX 4090 or 4080 are fast and inexpensive.
- **Fine-tuning language models up to about 13B parameters with LoRA:** 24GB cards work well; quantised training stretches them further.
- **Pre-training, full fine-tuning of large models, long-context work:** A100 80GB or H100, ideally in a multi-GPU machine.
- **Scientific computing in double precision:** check double-precision throughput carefully. Data-centre GPUs such as the A100 and V100 are far stronger at FP64 than consumer cards.

## Data ethics and permissions

Before you upload data to any computer you do not own, check what you are allowed to do with it. Datasets with personal information, patient data or licensed content often come with conditions about where they may be processed. De-identify data where you can, keep the minimum needed for the experiment, and delete it from the instance when you are done. Our [security article](/blog/security-data-protection-distributed-computing) covers practical steps in more detail.

## Teaching with rented GPUs

Rented GPUs also work well for courses. An instructor can budget a fixed amount of credit per student for a semester, students learn to work with real hardware over SSH, and nobody has to maintain a teaching lab full of graphics cards. Short rentals for assignments, stopped when the work is done, keep a class of fifty within a modest budget.

## Start your next experiment

Compare GPU models, memory and prices on the [marketplace](/marketplace) and run your first pilot today. If your lab owns GPUs that are idle between projects or over the holidays, [become a provider](/provider-signup) and let other researchers use them; the earnings can fund your next round of experiments.
`,
};
