import type { ArticleSource } from '../article-types';

export const article: ArticleSource = {
  id: 9,
  slug: 'security-data-protection-distributed-computing',
  title: 'Security and Data Protection in Distributed GPU Computing',
  excerpt:
    'What the platform protects, what providers commit to, and the simple habits that keep your account, code and data safe on hardware you do not own.',
  author: 'Neha Kapoor',
  date: 'July 23, 2026',
  category: 'Security',
  tags: ['Security', 'Data Protection', 'SSH', 'API Keys'],
  featured: false,
  content: `
When you rent a GPU from a marketplace, your code and data run on a machine owned by someone else, in a building you have never seen, reached over the public internet. That is the whole point of distributed computing, and it is also the reason security questions come first in almost every conversation we have with new customers. This article explains how we think about security on RentGPU: what the platform protects, what providers commit to, and what you, as a renter, should do to protect your own work. It is deliberately practical. Security is a shared responsibility, and the most effective measures are often simple habits.

## Start with a threat model

A threat model is a short list of what you are protecting, from whom, and how it could go wrong. For GPU rentals it usually looks like this.

**What you are protecting:**

- Your account, your credit balance and your API keys.
- Your code, model weights and trained checkpoints.
- Your data, which may include personal or confidential information.
- The results you will rely on, which must not be silently altered.

**Who might want them:**

- Attackers on the internet who guess passwords, steal keys or scan for open services.
- Other users, if isolation between workloads is weak.
- In rare cases, an insider with physical access to the hardware.

**How things usually go wrong:**

In practice, the causes of real incidents are rarely exotic. They are leaked API keys committed to a public repository, SSH servers with password login enabled, sensitive data copied to a machine and never deleted, and services such as notebooks or dashboards exposed to the internet without authentication. The measures below are ordered with that reality in mind.

## What the platform does

### Accounts without passwords

RentGPU accounts do not have passwords that can be guessed or reused. You sign in with a six-digit code sent to your e-mail address. Each code is generated from a cryptographically secure random source, stored only as a hash, valid for 10 minutes and usable once. After five wrong attempts the code stops working, and requests for codes are rate-limited per address and per network address. The sign-in form gives the same answer whether or not an address has an account, so it cannot be used to discover who our customers are.

### Sessions

After you sign in, your browser holds a session cookie that scripts on the page cannot read (it is HttpOnly), that is not sent with requests from other sites (SameSite), and that is sent only over encrypted connections in production. We store only a hash of the session token, so even a copy of our database would not let anyone sign in as you. Requests that change data must come from our own site; the server refuses them otherwise.

### API keys

The public API under \`/api/v1\` uses API keys that you create on your settings page. A key is shown to you once, when it is created; we keep only a hash and a short visible prefix so you can tell keys apart. Keys carry permissions (read, write or admin) and a rate tier, and you can revoke a key at any moment. Every request is rate-limited per key, which limits the damage a leaked key can do while you revoke it.

### Money

Credits are prepaid, so there is no card on file for an attacker to run up. Every movement of money is recorded in a double-entry ledger that cannot be edited after the fact, and the database itself refuses any change that would take a balance below zero.

### Providers

Providers are reviewed before they can list hardware. Each application states the provider's facility type, security measures (such as physical security, biometric access control, CCTV monitoring, network security, data encryption, access logging, background checks and secure disposal) and any certifications. We verify identity and benchmark the hardware before a listing goes live, and each provider carries a public reputation score that reflects how reliably they deliver.

## What providers commit to

A provider runs the physical machine, so some protections can only come from them. Our provider terms require them to:

- Keep hosts physically secure, with access limited to authorised people.
- Keep the operating system, the NVIDIA driver and our agent up to date with security fixes.
- Isolate each rental from the host and from other rentals.
- Wipe rental storage securely when a rental ends, before the hardware is offered again.
- Never access a renter's instance or data, except when the renter asks for help.

No marketplace can promise that every machine is as controlled as a hyperscaler's data centre, and we do not pretend otherwise. Providers differ, which is exactly why the marketplace shows each provider's company, location, verification and reputation, and why the steps in the next section matter.

## What you should do as a renter

### Protect your account and keys

- Keep your e-mail account secure with a strong password and two-factor authentication; it is the key to your RentGPU account.
- Create separate API keys for separate purposes, give each the narrowest permission it needs, and revoke keys you no longer use.
- Never commit keys to a repository. Use environment variables or a secrets manager, and scan repositories for secrets before you push.

### Harden SSH

- Use SSH key pairs, not passwords, and protect your private key with a passphrase.
- Keep one key per device so a lost laptop can be revoked without changing everything else.
- Do not forward your SSH agent to rented machines; a compromised host could use it to reach your other servers.
- Check the host key when you first connect, and note it so a change is noticed.

### Do not expose services to the internet

Jupyter notebooks, TensorBoard, model-serving endpoints and databases often listen on all network interfaces by default. On a rented machine with a public address, that can mean anyone can reach them. Bind them to localhost and use SSH port forwarding (\`ssh -L 8888:localhost:8888 …\`) to reach them from your own computer. If you must expose a service, put authentication and TLS in front of it.

### Treat data with care

- Upload only the data the job needs. Smaller datasets mean smaller exposure.
- De-identify personal data before it leaves your organisation. Remove direct identifiers, and think about combinations of fields that could identify someone.
- Encrypt sensitive files at rest and decrypt them only on the instance, in memory or on its local disk, when the job runs.
- Transfer data over SSH (\`scp\`, \`rsync\` or \`sftp\`), which encrypts it in transit.
- Check the provider's listed security measures and certifications against what your data agreements require.

### Clean up

Before you stop a rental, copy results home and delete data, checkpoints, credentials and shell history you do not want left behind. Providers must wipe storage at the end of a rental, but deleting your own files first is a good habit that costs seconds.

### Watch your account

Look at your active rentals and API keys from time to time. A rental you did not start, a key you do not recognise or a balance that dropped unexpectedly is a signal to act at once: revoke your API keys, sign out of every session, secure your e-mail account and contact our support team so we can investigate with you.

### Verify what matters

For results you will rely on, record checksums of inputs and outputs, keep logs of the exact commands run, and where the stakes are high, reproduce critical results on a second machine. A result that can be reproduced is a result that cannot be quietly altered.

## When something goes wrong

Even careful systems have incidents. If we learn of a breach of personal data that affects you, we will inform you and the Data Protection Board of India as the law requires, and we will tell you plainly what happened, what data was involved, what we are doing about it and what you can do to protect yourself. If a provider's host is compromised, we remove its listings at once, stop the affected rentals and refund the unused time.

## Regulation and your data

RentGPU is operated from Gurugram, Haryana, India, and we process personal data in line with India's Digital Personal Data Protection Act, 2023 and the Information Technology Act, 2000 and its rules. Our [privacy policy](/privacy-policy) describes what we collect about you, why, how long we keep it (financial records for 7 years, account data for 3 years after an account is closed) and how to exercise your rights.

The data you process on a rented GPU is yours, and you remain responsible for the rules that apply to it. Health data, financial data and data about people in other countries may come with specific requirements: ethics approvals, data-processing agreements, or restrictions on where processing may take place. Check those before choosing a provider and a location.

## Looking ahead: confidential computing

Recent data-centre GPUs, such as the NVIDIA H100, support confidential computing: memory encryption and attestation that let a renter verify, cryptographically, that their workload runs in a protected environment that even the host's operator cannot inspect. Combined with confidential virtual machines on the CPU side, this could make running sensitive workloads on third-party hardware far safer. The technology is still maturing and needs support across the whole stack, from firmware to drivers to the way instances are provisioned. It is one of the directions we follow most closely, because it addresses the trust question at the heart of distributed computing.

## A short checklist

1. Secure your e-mail account with a strong password and two-factor authentication.
2. Use narrow, separate API keys and revoke unused ones.
3. Connect with SSH keys only, and do not forward your agent.
4. Keep notebooks and dashboards on localhost, reached through SSH tunnels.
5. Upload only de-identified, necessary data, and encrypt what is sensitive.
6. Copy results home and delete everything before you stop a rental.
7. Record checksums and commands for results that matter.

If you find a security problem in RentGPU itself, please tell us at [emergency@rentgpu.dev](mailto:emergency@rentgpu.dev), our around-the-clock address for critical issues, before disclosing it publicly, and we will work with you to fix it quickly.

## Compute with confidence

Browse verified providers, with their locations and reputation scores, on the [marketplace](/marketplace). If you operate GPU hardware and take security as seriously as we do, [become a provider](/provider-signup) and offer your capacity to renters who value it.
`,
};
