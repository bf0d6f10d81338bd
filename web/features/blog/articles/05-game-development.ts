import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 5,
  slug: 'cloud-gpus-for-game-development',
  title: 'Cloud GPUs for Game Developers and Players: What Works and What Does Not',
  excerpt:
    "Lightmap bakes, trailer renders and test farms on rented RTX cards, plus an honest look at playing games on a GPU in someone else's rack.",
  author: 'Daniel Okafor',
  date: 'September 17, 2026',
  category: 'Gaming',
  tags: ['Game Development', 'Rendering', 'RTX', 'Lightmaps'],
  featured: false,
  content: `
Gaming made the modern GPU. Decades of demand for better graphics paid for the chips that now train language models, and the same RTX cards that sit in gaming PCs are some of the most cost-effective accelerators on our marketplace. It is fitting, then, that game developers and players are among the people who benefit most from renting GPU time. This article looks at where rented GPUs genuinely help in game development and play, and where they do not.

## Why game studios need bursts of GPU power

A small or mid-sized studio rarely needs a render farm every day. It needs one for a week before a milestone, the night before a trailer is due, or when the art team changes the lighting in a level and every lightmap has to be rebuilt. Buying hardware for those peaks means paying for machines that are idle most of the month. Renting matches cost to the peaks.

### Lightmap and lighting bakes

Baked global illumination still underpins most games that must run on a wide range of hardware. GPU lightmappers, such as the progressive GPU lightmapper in Unity and GPU Lightmass in Unreal Engine, turn hours of CPU baking into minutes, but a large open level can still keep a single GPU busy for a long time. Offloading bakes to a rented RTX 4090 frees the artist's workstation for work that needs a human.

A simple workflow:

1. Keep the project in version control with large-file support.
2. Rent a GPU machine for the bake, clone the project over SSH and run the bake from the engine's command line.
3. Commit the baked lighting data back to the repository and stop the rental.

### Trailer and cinematic rendering

Path-traced cinematics, such as those made with Unreal Engine's Path Tracer or Movie Render Queue, or offline renders in Blender's Cycles, are embarrassingly parallel: each frame is independent. Split the frame range across several rented GPUs, render in parallel and assemble the sequence at the end. A two-minute trailer at 24 frames per second is 2,880 frames; at 90 seconds a frame, one GPU needs three days, while ten GPUs finish overnight.

### Build and test farms

Large projects spend a surprising amount of time compiling shaders and cooking content. GPU machines can run automated play tests, performance captures and ray-tracing regression tests on RTX hardware that not every developer has on their desk. A nightly job that rents a machine, runs the tests and stops the rental gives the whole team reliable performance numbers without a permanent test lab.

### AI in the pipeline

Studios increasingly use machine-learning tools: upscaling textures, cleaning up motion capture, generating placeholder voices or concept variations, and training small models for in-game behaviour. These jobs run well on consumer RTX cards and are a natural fit for short rentals.

## What it costs in practice

Rentals are booked in hours, from 1 to 720, paid from prepaid credits. The cost of the booked hours moves into escrow when the rental starts, along with a fixed $2.50 storage add-on for 50GB of disk. When you stop the rental, you pay only for the time used, metered by the second, and the rest comes back to your balance.

For the trailer example above, ten RTX 4090 rentals booked for 10 hours each at an illustrative $0.80 per hour would reserve $80 of GPU time plus $25 of storage. If the render finishes in eight and a half hours, $12 comes straight back. Compare that with the price of ten high-end GPUs, or with missing a publisher's deadline.

## Playing games on a rented GPU

We are often asked whether you can simply play games on a rented GPU. The honest answer is: sometimes, with care, and it is not what the platform is designed for.

Rentals give you SSH access to a Linux machine. To play, you would install a game-streaming server yourself and stream the picture to your own computer. Whether that feels good depends almost entirely on network latency. If the GPU is in a city near you, with a round trip under about 30 milliseconds, slower-paced games can be perfectly enjoyable. If the GPU is on another continent, every input will feel delayed, and competitive games will be frustrating. Check each listing's location on the marketplace, and try a short rental before committing to a long one.

There are also practical limits: many games' anti-cheat systems do not run on Linux servers or in virtualised environments, and some licences restrict where a game may be run. Dedicated cloud-gaming services are better for most players who just want to play.

Where rented GPUs do make sense for gamers is in the hobbies around games: modders training upscaling models for old textures, streamers rendering highlight videos, and players running local AI tools that need more memory than their own card has.

## Choosing the right GPU

- **RTX 4090:** the best all-rounder for rendering, baking and AI tools, with 24GB of memory.
- **RTX 4080 and 4070:** cheaper and still very capable for bakes and 1080p or 1440p rendering.
- **RTX 3090:** 24GB of memory at a lower price, useful for large scenes.
- **A100 and H100:** rarely the right choice for graphics work. They are built for machine learning and have no display outputs; use them for training models, not for rendering frames.

## Tips from studios that do this well

- Script everything. A bake or render job that starts with one command is easy to move to a rented machine.
- Keep assets close to the GPU. Upload the project once at the start of a rental rather than streaming files during the job.
- Split long jobs into chunks that can be resumed, so one failure does not cost a night of rendering.
- Stop rentals from the same script that started them, using the \`rentgpu\` command-line tool or the public API.

## Level up your pipeline

Find RTX cards near you, with prices and locations side by side, on the [marketplace](/marketplace). And if your gaming rig or studio workstations sit idle overnight, [become a provider](/provider-signup) and let them earn while you sleep.
`,
};
