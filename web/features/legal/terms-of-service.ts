import { COMPANY, CONTACT_EMAILS } from '../../../shared/content/company';
import type { LegalText } from './legal-text';

export const termsOfService: LegalText = {
  title: 'Terms of Service',
  description:
    'The agreement between you and RentGPU: accounts and verification, credits, billing, refunds, service levels, provider obligations and liability.',
  lastUpdated: 'November 22, 2026',
  content: `
These terms are an agreement between you and ${COMPANY.name}, operated from ${COMPANY.address.short} ("we", "us"). They apply to our website, web app, public API, command-line tool and provider agent (together, the "Service"). By creating an account or using the Service you accept these terms. If you use the Service for an organisation, you accept them on its behalf and confirm that you may do so.

# 1. Eligibility and accounts

- You must be at least 18 years old to use the Service.
- Each person or entity may hold one account. Accounts may not be sold, transferred or shared with people outside your organisation.
- You sign in with a one-time code sent to your e-mail address. You are responsible for keeping that e-mail account secure and for all activity on your RentGPU account.
- The details you give us must be accurate and kept up to date.
- The demo account is shared with other visitors and may be reset at any time. Do not store anything private in it.

# 2. Identity verification (KYC)

To comply with Indian law and to prevent fraud, we verify account holders before allowing certain actions, such as large credit purchases, refunds or provider payouts:

- **Individuals in India:** PAN and Aadhaar (a masked Aadhaar copy is enough).
- **Businesses:** company documents, such as the certificate of incorporation, the company's PAN and the details of an authorised signatory. Business accounts of Indian entities must also provide a GST registration.
- **International users:** a passport and a proof of address.

We may limit or suspend an account until verification is complete. How we handle these documents is described in our [Privacy Policy](/privacy-policy).

# 3. The Service

${COMPANY.name} runs a marketplace where independent providers list GPUs and renters rent them by the hour. Providers own and operate their hardware; we review providers, run the marketplace, hold payments in escrow and settle them. A rental gives you access to a GPU instance over SSH for the hours you book, from 1 to 720 hours.

We aim to have every rental ready in under 5 minutes. A rental that is not ready within 10 minutes of starting is cancelled automatically, and everything charged for it is refunded to your credit balance in full.

# 4. Credits and payments

- The Service is paid for with prepaid credits denominated in US dollars. Credits can only be used on the Service; they are not money, earn no interest and cannot be transferred to another account.
- Credit packages may include bonus credits (for example, $20 of bonus credits with the $100 package). Bonus credits have no cash value.
- Custom purchases are possible from $1 to $1,000 and carry no bonus.
- Payment methods we may offer include cards, UPI, wallets, net banking and cryptocurrency, in the currencies USD, EUR, INR and GBP. Payments in other currencies are converted to US dollars at the rate shown before you pay. Today credits are bought through PayPal; card payments are not yet available, and our support team can help if you cannot use PayPal.

# 5. Billing

- Rentals are priced per hour and billed with proration. When a rental starts, the booked hours multiplied by the hourly rate move from your credit balance into escrow, together with a storage add-on of $2.50 per rental that provides 50GB of disk. The total is shown before you confirm.
- Usage is metered by the second from the moment the rental is ready (you can log in to it), never for the time it takes to set it up. When you stop a rental, or when its booked hours end, the time used (rounded up to the nearest cent) is charged and the rest of the escrow returns to your balance at once.
- Nothing is charged for a rental after it has stopped.
- Your balance cannot go below zero. A rental cannot start unless your balance covers it.
- **Taxes.** Prices are shown without taxes. For customers in India, GST at 18% is charged on our services and shown on your invoice. Customers elsewhere are responsible for any taxes due in their own country.

# 6. Refunds

- Unused credits can be refunded on request within 60 days of their purchase, up to the amount you paid for that purchase. Refunds are made to the original payment method and processed within 7-10 business days; payment processors may take a few more days to show the money in your account.
- Bonus credits, and credits already spent on time used, are not refundable. If a purchase came with bonus credits, they are removed from your balance when that purchase is refunded.
- Rentals that never become ready are refunded automatically, as described in section 3.
- To ask for a refund, write to [${CONTACT_EMAILS.support}](mailto:${CONTACT_EMAILS.support}) or use the contact form with the category Billing & Payments.

# 7. Acceptable use

You may not use the Service to:

- break any law, or infringe anyone's intellectual property, privacy or other rights;
- distribute malware, send spam, or attack, scan or probe any system without permission;
- mine cryptocurrency on rented GPUs;
- access a provider's host system, or another renter's instance or data;
- get around rate limits, verification, billing or security measures;
- process data you are not allowed to process, including personal data without a lawful basis;
- export or use technology in breach of export-control or sanctions laws.

We may stop a rental and suspend an account that breaks these rules. Where we can, we warn you first.

# 8. Your content and data

The code, models and data you bring to the Service remain yours. You give us only the rights needed to run the Service for you. You are responsible for having the rights and permissions to process your data, and for keeping your own copies: storage belongs to a rental and is erased when the rental ends.

# 9. Providers

If you list GPUs as a provider, these additional terms apply.

- **Application and verification.** We review applications within 2-3 business days, then verify identity and benchmark hardware (usually 24-48 hours). We may refuse or remove a provider at our discretion.
- **Hardware.** Listings must meet our minimum (an NVIDIA GTX 1080 or better with 8GB or more of memory, 100 Mbps internet and 24/7 uptime) and must describe the hardware, location and bandwidth accurately.
- **Security.** Providers must keep hosts physically secure and limited to authorised people; keep the operating system, drivers and our agent updated; isolate each rental from the host and from other rentals; securely wipe rental storage when a rental ends; and never access a renter's instance or data unless the renter asks for help.
- **Maintenance.** Planned maintenance must be announced at least 48 hours ahead, and providers must not interrupt running rentals except in an emergency.
- **Hosts and outages.** Each host runs our agent, which reports every 30 seconds. A host unheard of for 90 seconds is offline and its listings cannot be rented. For an outage of more than 4 hours, the outage credits of section 11 (4 hours at the rate of each instance that was running) are deducted from the provider's earnings, and from later earnings if these do not cover them. Each host's uptime over the last 30 days is shown on its listings.
- **Revenue.** Providers keep 90% of the rental revenue from their GPUs; the platform fee is 10%. Earnings are credited as each rental settles and paid out to the verified payout account. Providers are responsible for their own taxes, including GST where it applies to them.

# 10. API access

The public API is available under /api/v1 with API keys that you create and revoke in your settings. Keep keys secret; you are responsible for requests made with them. Requests are rate-limited per key at 1,000 (Standard), 5,000 (Pro) or 25,000 (Enterprise) requests per hour. We will give at least 30 days' notice before removing or changing a versioned endpoint in a way that breaks existing use.

# 11. Service levels

We aim for monthly availability of 99.9% for the platform, 99.5% for GPU instances and 99.95% for the API.

- Critical support issues receive a response within 4 hours, at any time of day.
- Planned maintenance is announced at least 48 hours in advance.
- **When a host goes dark.** A provider's host that has not been heard from for 90 seconds is offline: its GPUs cannot be rented, and your instances on it are not billed from its last sign of life until it is back. Booked time your instance was unreachable is returned to your balance when the rental settles. An instance unreachable for 20 minutes is ended and settled, and you are told by e-mail.
- **Outage credits.** If an outage makes your running instances unavailable for more than 4 hours, we add service credits to your balance automatically: for each instance that was running on the host when the outage began, 4 hours at that instance's hourly rate. The credits are paid once per outage, on top of the unbilled time, and come from the provider's earnings.
- These levels do not cover planned maintenance announced as above, problems caused by your own code or network, or events beyond our reasonable control.

# 12. Ending the agreement

- You may close your account by giving us 30 days' notice through [${CONTACT_EMAILS.support}](mailto:${CONTACT_EMAILS.support}) or the contact form.
- We may end this agreement by giving you 7 days' notice. We may suspend or close an account immediately in case of fraud, a serious breach of these terms, or where the law requires it.
- When an account closes, running rentals are stopped and settled, and refundable credits are refunded as described in section 6. We keep financial records for 7 years and other account data for 3 years after closure, as our Privacy Policy explains.

# 13. Our intellectual property

The Service, its software, design and brand belong to ${COMPANY.name}. You may use them only as these terms allow. If you send us feedback, we may use it without obligation to you.

# 14. Disclaimers

Apart from the commitments in these terms, the Service is provided "as is". Providers are independent businesses and individuals; although we review and verify them, we do not guarantee that any particular GPU will always be available or free of faults. Performance figures in listings are measured benchmarks, and your workload may perform differently.

# 15. Limitation of liability

To the extent the law allows, our total liability to you for all claims arising out of or relating to the Service is limited to the amount you paid us in the 12 months before the event giving rise to the claim. We are not liable for indirect or consequential losses, such as loss of profits, data or business opportunities. Nothing in these terms limits liability that cannot be limited under Indian law.

# 16. Indemnity

You will compensate us for losses and reasonable costs arising from claims by others that result from your breach of these terms or from data and content you process on the Service.

# 17. Changes to these terms

We will give you 30 days' notice of material changes by e-mail or on the Service before they take effect. If you do not agree, you may close your account before the changes apply.

# 18. Governing law and disputes

These terms are governed by the laws of India. Before going to court, please contact us so that we can try to resolve the dispute informally within 30 days. Any dispute that remains is subject to the exclusive jurisdiction of ${COMPANY.jurisdiction}.

# 19. Contact and grievances

Questions about these terms: [${CONTACT_EMAILS.legal}](mailto:${CONTACT_EMAILS.legal}). Complaints can be sent to our Grievance Officer at the same address or by post to ${COMPANY.address.lines.join(', ')}. We acknowledge complaints within 48 hours and aim to resolve them within one month.
`,
};
