import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 10,
  slug: 'future-distributed-computing-vision',
  title: 'The Future of Distributed Computing: Our Vision',
  excerpt:
    'Why GPU computing is becoming a grid, what that means for renters, providers and builders, and the principles that guide what we build next.',
  author: 'Karan Malhotra',
  date: 'July 9, 2026',
  category: 'Future Tech',
  tags: ['Future Tech', 'Distributed Computing', 'Vision', 'India'],
  featured: false,
  content: `
Computing has always moved between two poles. In the mainframe era it was concentrated in a few machines that everyone shared. Personal computers spread it to every desk. The cloud pulled it back into a handful of enormous data centres. Now, driven by the appetite of artificial intelligence for GPUs, it is spreading out again, into a network of providers large and small, in many cities and countries, connected by marketplaces like ours. This article sets out where we think distributed computing is heading over the next decade, why we built RentGPU, and the principles that will guide what we build next.

## The problem we started with

Two facts, side by side, made us start RentGPU.

The first is scarcity. Demand for GPU computing has grown faster than any supplier can build data centres. Researchers wait in queues, startups ration experiments, and companies in many countries find that the capacity they need sits in someone else's region, priced in someone else's currency, behind waiting lists.

The second is idleness. At the same time, an enormous amount of GPU capacity is doing nothing useful for much of the day: workstations in studios and labs overnight, servers between projects, gaming PCs while their owners are at work, and hardware left over from cryptocurrency mining. Capacity and demand exist at once, in different places, with no simple way to meet.

A marketplace is the oldest answer to that kind of mismatch. What makes it hard for computing is trust: a renter must trust hardware they cannot see, and a provider must trust that they will be paid for work they cannot inspect. Most of what we build is about making that trust cheap.

## Where distributed computing is going

### From data centres to a computing grid

Electricity became useful to everyone when it became a grid: many generators, one set of standards, and a price per unit that anyone could pay. We think GPU computing is moving in the same direction. Instead of choosing a single cloud and living inside it, people will increasingly buy computing as a unit, by the GPU-hour, from whichever supplier offers the right hardware, in the right place, at the right price. Large clouds will remain essential, but they will be one kind of supplier among many.

For that to work, the unit must be well defined. An hour on an RTX 4090 from one provider must be comparable to an hour on an RTX 4090 from another. That is why we benchmark hardware during provider verification, publish bandwidth and location on every listing, and keep a reputation score for every provider. Standard units are what make a market liquid.

### From hardware to workloads

Today most renters think in machines: "I need an A100 for ten hours." Over time, we expect more of them to think in workloads: "I need this fine-tuning job done by tomorrow morning for less than $50." The platform, not the person, will choose the hardware, split the job across GPUs where it makes sense, and move it if a machine fails. Rentals with clear prices, escrowed payment and refunds by the second are the foundation for that: they make it possible to start, stop and move work without financial friction.

### From closed to programmable

Everything a person can do in the web interface should be possible from code. That is why RentGPU has a public API, under \`/api/v1\`, and a command-line tool built only on that API, rather than a separate, privileged path. We design it so that our own web app has no abilities the API lacks. As workloads become automated, from nightly model refreshes to forecasting pipelines that rent a GPU for forty minutes each morning, programmability stops being a feature for power users and becomes the main way people use the platform.

### Closer to the data and the user

Latency and data protection both pull computing closer to where data lives and where users are. A model that serves users in India should run in India; a hospital's images should be processed under the laws that govern them. A distributed network of providers can offer capacity in many more places than a few hyperscale regions. We show every GPU's location so renters can choose, and we expect location to matter more, not less, as rules on data and AI mature around the world.

### Trust that can be verified

Today, trust in a provider rests on verification, benchmarks, reputation and contractual obligations. Those remain important, but they are not the end state. Confidential computing on modern data-centre GPUs, such as the NVIDIA H100, adds memory encryption and remote attestation, so a renter can verify cryptographically that their workload runs in a protected environment. Verifiable computation, where a result comes with evidence that it was computed correctly, is an active area of research. As these technologies mature, the question "can I trust this machine?" will increasingly have a mathematical answer, and sensitive workloads that today stay in private data centres will be able to use shared capacity.

### Efficiency as a first-class goal

AI's energy use is becoming one of its defining constraints. The greenest GPU-hour is one that uses hardware that already exists and would otherwise sit idle, powered where clean electricity is available, and kept busy rather than waiting on data. Markets can reward that: by making idle capacity useful, by showing where computing is located, and eventually by letting renters prefer providers with cleaner power. Efficiency is also simply good economics; the cheapest computing is computing you do not waste.

### Open standards, not lock-in

A computing grid only works if moving between suppliers is easy. Renters should be able to take a container image, a training script and a dataset from one provider to another without rewriting anything. That argues for standard tools over proprietary ones: SSH for access, ordinary Linux images, open frameworks such as PyTorch and JAX, and open formats for models and checkpoints. It also argues for honest exits. Your data is yours, you can stop a rental at any moment, and unused credit is refundable under our terms. A marketplace earns loyalty by being the best place to run work, not by making it hard to leave.

## What could go wrong

A vision that ignores its risks is an advertisement. Distributed computing has real ones. Hardware quality varies more across many small providers than inside one data centre, and a flaky machine wastes a renter's time even when the money is refunded. Home and office internet connections fail more often than data-centre networks. Regulation of AI and of cross-border data is changing quickly and differs by country. And markets can concentrate, so that a few large providers end up with most of the demand and the benefits of openness fade.

We take these seriously. Verification with benchmarks, reputation scores, automatic cancellation and refunds for rentals that do not start, published locations, and a fee that leaves 90% with providers are all answers to one or more of them. None is complete, and we will keep adjusting as we learn.

## Why India

We operate RentGPU from Gurugram, in Haryana, and that choice is deliberate. India has one of the world's largest communities of software engineers and AI researchers, a fast-growing startup ecosystem, and ambitious public programmes to expand domestic computing capacity. Data-centre capacity in the country is growing quickly, and so is demand from Indian companies that want their computing, and their data, close to home.

India is also a demanding market. Customers here compare prices carefully, expect clear invoices with GST, and care about how their data is protected under the Digital Personal Data Protection Act, 2023. Building for those expectations makes us better for customers everywhere. At the same time, RentGPU is global from the start: credits are in US dollars, providers list hardware in North America, Europe and Asia, and renters can choose where their work runs.

## Our principles

Visions are easy to write and hard to keep. These are the principles we hold ourselves to as we build.

1. **Honest prices.** The price you see before you rent is the price you pay. Booked hours are held in escrow and unused time comes back by the second when you stop. No hidden transfer fees, no surprise charges on stopped instances.
2. **Never bill for nothing.** If a rental does not become ready within 10 minutes, it is cancelled and refunded in full. Listings show only capacity that can actually be rented.
3. **Money done properly.** Every movement of credit is recorded in a double-entry ledger that cannot be edited after the fact, and a balance can never go below zero.
4. **Providers are partners.** Providers keep 90% of rental revenue, are paid from escrow for work they have delivered, and see clear numbers on their dashboards.
5. **Everything programmable.** Whatever the web app can do, the API and the command-line tool can do too.
6. **Security by default.** No passwords to steal, hashed tokens and keys, rate limits everywhere, and data protection designed in rather than added later.
7. **Plain language.** Our terms, policies and documentation are written to be read, with the figures that matter stated clearly.

## What this means for you

If you rent computing, the next few years should bring more choice, lower prices for the same work and less time spent managing infrastructure. The habits that help today, such as scripting your workloads, checkpointing, measuring the cost of whole jobs and stopping machines you are not using, will matter even more as computing becomes a utility. Learn the API, automate your pipelines and pick hardware by the job, not by the brand.

If you own GPUs, the market for your idle hours is growing. The providers who do best will be the ones who treat their hardware as a service: reliable, honestly described, well maintained and priced for utilisation. Reputation compounds. A provider with a long record of on-time, stable rentals will be the first choice as workloads become automated and platforms choose hardware on a renter's behalf.

If you build AI products, distributed computing lowers the cost of trying things. Ideas that once needed a funding round to test can now be tested for the price of a dinner. That is the change we care about most: not a new kind of data centre, but more people, in more places, able to build with the most important computing resource of our time.

## The road ahead

We do not think one company will own the future of computing, and we do not want to. We want to build the most trustworthy marketplace in it: a place where a researcher in Bengaluru, a startup in Berlin and a studio in São Paulo can rent exactly the computing they need from providers they can trust, at prices they can see, and where anyone with a capable GPU can offer it to the world. We will get there one reliable rental at a time.

## Join the network

See what the network offers today on the [marketplace](/marketplace): compare GPUs, prices and locations, and start a rental in minutes. If you have GPUs with idle hours, [become a provider](/provider-signup) and help build a computing grid that is open to everyone.
`,
};
