/**
 * The Help Center's questions and answers, true to what the product does. Answers use the
 * simple markup of shared/content/markup.ts (links, `code`, **strong**).
 */
export type HelpCategoryId = 'getting-started' | 'billing' | 'technical' | 'account';

export interface Faq {
  question: string;
  answer: string;
}

export interface HelpCategory {
  id: HelpCategoryId;
  title: string;
  description: string;
  faqs: Faq[];
}

export const HELP_CATEGORIES: HelpCategory[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    description: 'Create an account, rent your first GPU and connect to it.',
    faqs: [
      {
        question: 'How do I create an account?',
        answer:
          'Enter your e-mail address on the home page and press Send Login Code. We e-mail you a 6-digit code that is valid for 10 minutes; enter it and you are signed in. Your account is created the first time you sign in. There is no password to remember.',
      },
      {
        question: 'Can I try RentGPU before buying credits?',
        answer:
          'Yes. Press **Demo Login** in the top bar, or **Try Demo Account** on the home page, to get a demo account of your own with $100.00 of demo credits and a demo provider of your own (“Your demo provider”), whose GPUs only you see. Nobody else sees what you do in it. It is removed after a day unused, and its credits cannot be moved to another account.',
      },
      {
        question: 'How do I rent my first GPU?',
        answer:
          'Add credits on the [Add Credits](/payments) page, then open the [marketplace](/marketplace). Filter by GPU model, sort by price or performance, and check availability and location. Choose a GPU, set the number of hours (1 to 720) in the rent dialog, check the cost breakdown and confirm. Your SSH details appear on your [dashboard](/dashboard).',
      },
      {
        question: 'How long does it take before my GPU is ready?',
        answer:
          'Usually 2-3 minutes. It can take up to 5 minutes, and up to 10 minutes for H100 GPUs at peak times. If a rental is not ready within 10 minutes, it is cancelled automatically and you get a full refund.',
      },
      {
        question: 'How do I connect to my GPU?',
        answer:
          'Your [dashboard](/dashboard) shows the SSH host and port of each active rental, with copy buttons. Connect from a terminal with `ssh -p <port> <user>@<host>`. Run `nvidia-smi` once you are in to see your GPU.',
      },
      {
        question: 'Which GPU should I choose?',
        answer:
          'Start from the job: first the GPU memory it needs, then how long it runs. A 24GB card such as the RTX 4090 suits most fine-tuning and inference; large training runs need the 40GB or 80GB of an A100 or H100. Benchmark for 10-15 minutes on two GPU types and compare the cost of the whole job. Our article [How to Cut GPU Costs](/blog/cut-gpu-costs-without-slowing-down) walks through it.',
      },
      {
        question: 'Is there a command-line tool or an API?',
        answer:
          'Yes. The `rentgpu` command-line tool has `rentgpu login`, `rentgpu list`, `rentgpu rent <gpu-id> --duration N` and `rentgpu status`. It is built on the public API at `/api/v1`, which you can call directly with an API key from your [settings](/settings). See the [API Reference](/api-reference).',
      },
    ],
  },
  {
    id: 'billing',
    title: 'Billing & Payments',
    description: 'Credits, packages, how rentals are charged and refunds.',
    faqs: [
      {
        question: 'How do I add credits?',
        answer:
          'Open [Add Credits](/payments), choose a package or type a custom amount between $1 and $1,000, and pay with PayPal. Credits appear in your balance as soon as the payment completes. Card payments are not yet available; if you cannot use PayPal, [contact support](/contact-us) and we will help.',
      },
      {
        question: 'What do the credit packages include?',
        answer:
          'Starter: $10 with no bonus. Basic: $25 plus $2. Standard: $50 plus $7 (our most popular). Pro: $100 plus $20. Enterprise: $250 plus $75. The bonus is added to your balance with the credits you buy. Custom amounts carry no bonus.',
      },
      {
        question: 'How am I charged for a rental?',
        answer:
          'When the rental starts, the booked hours times the hourly rate move from your balance into escrow, together with a fixed $2.50 storage add-on for 50GB of disk. The rent dialog shows this total before you confirm, and nothing else is charged afterwards.',
      },
      {
        question: 'What happens if I stop a rental early?',
        answer:
          'Usage is metered by the second from the moment the rental is ready: the minutes it takes to set up are never charged. When you press Stop, the time used (rounded up to the cent) is paid to the provider and the rest of the escrow returns to your balance at once. Booking extra hours is safe: you only pay for what you use.',
      },
      {
        question: 'Can I get a refund of unused credits?',
        answer:
          'Yes. Unused credits can be refunded within 60 days of purchase; refunds are processed in 7-10 business days to the original payment method. Send a request through the [contact form](/contact-us) with the category Billing & Payments. Bonus credits from packages are not refundable. The [Terms of Service](/terms-of-service) have the details.',
      },
      {
        question: 'Do you charge GST?',
        answer:
          'For customers in India, GST at 18% applies to our services. Indian businesses need a GST registration on their account so that invoices can carry it. Customers outside India are not charged Indian GST.',
      },
      {
        question: 'Which currency are credits in?',
        answer:
          'Credits are always held and charged in US dollars. The marketplace can show prices in EUR, GBP, JPY or INR for convenience, converted at a fixed reference rate, but your balance and every charge are in USD.',
      },
    ],
  },
  {
    id: 'technical',
    title: 'Technical Support',
    description: 'Connections, storage, data and the API.',
    faqs: [
      {
        question: 'My GPU connection failed. What should I do?',
        answer:
          'Allow 2-5 minutes for provisioning after you rent. Check that you are using the host and port shown on your dashboard and the right SSH key, and that your firewall or network allows outbound SSH to that port. If the rental never becomes ready, it is cancelled and refunded in full after 10 minutes. If the problem continues, [contact technical support](/contact-us) with the rental details.',
      },
      {
        question: 'How do I copy files to and from my instance?',
        answer:
          'Use the same SSH connection: `scp -P <port> file <user>@<host>:~/` or `rsync -e "ssh -p <port>"` for whole folders. Copy datasets to the instance disk before you start training rather than reading them over the network.',
      },
      {
        question: 'How much storage do I get?',
        answer:
          'Every rental includes 50GB of disk through the $2.50 storage add-on. Keep datasets compressed and keep only the checkpoints you need. Storage belongs to the rental: it is not kept after the rental ends.',
      },
      {
        question: 'What happens to my data when a rental ends?',
        answer:
          'Providers must wipe rental storage when a rental ends, and we cannot recover it afterwards. Copy results, logs and checkpoints to your own storage before you press Stop or before the booked hours run out.',
      },
      {
        question: 'How long can a rental run?',
        answer:
          'From 1 to 720 hours (30 days). When the booked hours end, the rental completes automatically and the GPU returns to the marketplace. For longer work, save checkpoints regularly and continue in a new rental.',
      },
      {
        question: 'How do I keep Jupyter or TensorBoard private?',
        answer:
          'Bind them to localhost on the instance and reach them through an SSH tunnel, for example `ssh -p <port> -L 8888:localhost:8888 <user>@<host>`, then open `http://localhost:8888` on your computer. Never expose them to the internet without authentication.',
      },
      {
        question: 'What are the API rate limits?',
        answer:
          'Requests are limited per API key per hour: Standard 1,000, Pro 5,000 and Enterprise 25,000. Over the limit, the API answers 429 with a Retry-After header. API support answers within 4-8 hours at api@rentgpu.dev.',
      },
    ],
  },
  {
    id: 'account',
    title: 'Account Management',
    description: 'Signing in, profile, API keys, providers and closing an account.',
    faqs: [
      {
        question: "I didn't receive my sign-in code.",
        answer:
          'Check your spam folder and that the address is spelled correctly. Each code is valid for 10 minutes and can be used once; you can ask for a new one, up to 5 codes per hour for one address. After 5 wrong tries a code stops working and you need a new one.',
      },
      {
        question: 'How long do I stay signed in?',
        answer:
          'A session lasts 24 hours. Log out from the account menu (your avatar in the top bar) on shared computers. Signing in again replaces the old session.',
      },
      {
        question: 'How do I change the theme?',
        answer:
          'Use the theme switcher in the top bar to choose Dark, Light or Pastel. The choice is stored in your browser and, when you are signed in, saved to your account so it follows you to other devices.',
      },
      {
        question: 'How do I create or revoke API keys?',
        answer:
          'Open the API Keys tab of your [settings](/settings). A new key is shown once, when you create it, so copy it somewhere safe. Revoke a key there as soon as you no longer need it or suspect it has leaked.',
      },
      {
        question: 'How do I become a provider?',
        answer:
          'Fill in the [provider application](/provider-signup). We review applications within 2-3 business days, then verify your identity and benchmark your hardware (24-48 hours). After you install the agent, your GPUs go live in the marketplace. Providers keep 90% of rental revenue.',
      },
      {
        question: 'Can I have more than one account?',
        answer:
          'No. You must be 18 or older, and each person or entity may hold one account. Business accounts need company documents for verification, and Indian businesses a GST registration.',
      },
      {
        question: 'How do I close my account?',
        answer:
          "Send a request through the [contact form](/contact-us) with 30 days' notice, as our [Terms of Service](/terms-of-service) describe. We refund eligible unused credits, keep financial records for 7 years as the law requires, and keep other account data for 3 years after closure.",
      },
    ],
  },
];

/** The four popular articles shown below the questions. */
export const POPULAR_ARTICLES = [
  {
    title: 'How to Cut GPU Costs Without Slowing Down Your AI Work',
    href: '/blog/cut-gpu-costs-without-slowing-down',
  },
  {
    title: 'Security and Data Protection in Distributed GPU Computing',
    href: '/blog/security-data-protection-distributed-computing',
  },
  {
    title: "From Idle Hardware to Steady Revenue: A Provider's Guide",
    href: '/blog/earning-from-your-gpus-provider-guide',
  },
  { title: 'Using the RentGPU API and API Keys', href: '/api-reference' },
] as const;
