import { COMPANY, CONTACT_EMAILS } from '../../../shared/content/company';
import type { LegalText } from './legal-text';

export const privacyPolicy: LegalText = {
  title: 'Privacy Policy',
  description:
    'What personal data RentGPU collects, why, how long we keep it, who we share it with and how to exercise your rights under Indian law.',
  lastUpdated: 'November 1, 2026',
  content: `
This policy explains how ${COMPANY.name} ("we", "us") collects, uses, shares and protects personal data when you use our website, web app, public API, command-line tool and provider agent (together, the "Service"). It is written for the Digital Personal Data Protection Act, 2023 (the "DPDP Act"), the Information Technology Act, 2000 and the rules made under them. Where we use a word such as "you", we mean the person using the Service.

# 1. Who we are

${COMPANY.name} is operated from ${COMPANY.address.short}. For the purposes of the DPDP Act we are the data fiduciary for the personal data described in this policy. You can reach us about privacy at [${CONTACT_EMAILS.privacy}](mailto:${CONTACT_EMAILS.privacy}).

# 2. Data we collect

## Data you give us

- **Account data:** your e-mail address, which you use to sign in, and the profile details you choose to add, such as your name, phone number, location, company, website, bio and profile picture.
- **Verification (KYC) data:** to meet our legal obligations we verify account holders. For individuals we ask for PAN and Aadhaar (we ask for a masked Aadhaar copy and never store your full Aadhaar number); for businesses, company registration documents and the details of an authorised signatory; for international users, a passport and proof of address. Indian business accounts also give us their GST registration.
- **Provider applications:** company and contact details, facility address, infrastructure, hardware inventory, security measures, certifications and commercial terms.
- **Messages:** when you write to us through the contact form, we keep your name, e-mail address, the category, subject and text of your message, and the network (IP) address it came from.
- **Newsletter:** if you subscribe, your e-mail address and the page you subscribed from.

## Data created when you use the Service

- **Rentals and usage:** the GPUs you rent, when rentals start and stop, their cost, and the connection details of your instances.
- **Credits and transactions:** every purchase of credits and every charge and refund, recorded in our ledger.
- **Security data:** sessions (stored as a hash of the session token, with the browser's user agent and IP address), one-time sign-in codes (stored only as a hash and valid for 10 minutes), API keys (stored as a hash and a short visible prefix) and the counters we use to rate-limit requests.
- **Logs:** technical records of requests to our servers, used to keep the Service running and secure.

## Payment data

Payments are processed by PayPal. We receive the transaction reference, amount, currency and status. We never receive or store your full card number, bank details or PayPal password.

## What we do not collect

We do not look into the contents of your rented instances. The code and data you process on a rented GPU are yours; we handle them only to the extent needed to run the Service, for example when you ask our support team for help.

# 3. Why we use your data

- To create and secure your account and sign you in with one-time codes.
- To provide rentals: to hold credits in escrow, meter usage by the second, settle charges and refunds, and pay providers.
- To verify identity and meet legal duties, including tax (GST) invoicing, accounting and the prevention of fraud and abuse.
- To answer your messages and support requests.
- To send service e-mails, such as sign-in codes and notices about your rentals, payments and changes to our terms.
- To send the newsletter, only if you subscribed to it.
- To keep the Service reliable and secure, for example by rate-limiting requests and investigating incidents, and to understand in aggregate how it is used.

# 4. Our legal grounds

We process personal data on the basis of your consent, which you give when you create an account, submit a form or subscribe, and for the legitimate uses the DPDP Act allows, including providing a service you asked for and complying with the law. You can withdraw consent at any time by writing to [${CONTACT_EMAILS.privacy}](mailto:${CONTACT_EMAILS.privacy}). Withdrawing consent does not affect processing that already took place, and we may need to close your account if we can no longer provide the Service without the data.

# 5. Who we share data with

We do not sell personal data. We share it only as follows:

- **Providers** receive what they need to run your rental, such as the instance configuration and the times it runs. They do not receive your verification documents or payment details.
- **Payment processors** such as PayPal, to take payments and process refunds.
- **Service providers** who host our infrastructure or deliver our e-mail, under contracts that limit their use of the data to the service they provide to us.
- **Professional advisers** such as auditors and lawyers, under a duty of confidentiality.
- **Authorities,** when the law requires it, for example under a valid order of a court or a government agency.
- **A successor,** if our business is reorganised or sold, under the same protections as this policy.

# 6. Data outside India

Some of our service providers, and the provider running your rental, may process data outside India. We transfer personal data abroad only as the DPDP Act permits and not to any country the Government of India has restricted, and we require recipients to protect it.

# 7. How long we keep data

- **Financial records,** including credit purchases, invoices and ledger entries, are kept for 7 years, as Indian tax and accounting law requires.
- **Account data** is kept while your account is open and for 3 years after it is closed, so that we can resolve disputes and meet legal obligations. After that it is deleted or anonymised.
- **Sign-in codes** stop working after 10 minutes and **sessions** after 24 hours; we keep their records only as long as needed for security.
- **Contact messages** are kept as long as needed to handle your request and then for the account-data period above.
- **Newsletter subscriptions** are kept until you unsubscribe.

# 8. How we protect data

We sign you in without passwords, store only hashes of sign-in codes, session tokens and API keys, use session cookies that scripts cannot read, encrypt traffic with TLS, limit access to personal data to staff who need it, and rate-limit requests. Money movements are recorded in a ledger that cannot be edited. No system is perfectly secure; if a personal-data breach affects you, we will inform you and the Data Protection Board of India as the law requires.

# 9. Your rights

Under the DPDP Act you have the right to:

- obtain a summary of the personal data we hold about you and how we use it;
- have inaccurate or incomplete data corrected and updated;
- have your data erased when it is no longer needed, except where the law requires us to keep it;
- withdraw consent;
- have a grievance addressed by us, and then, if you are not satisfied, by the Data Protection Board of India;
- nominate another person to exercise your rights in the event of your death or incapacity.

Write to [${CONTACT_EMAILS.privacy}](mailto:${CONTACT_EMAILS.privacy}) from the e-mail address of your account. We may ask you to confirm your identity, and we respond within 30 days.

# 10. Age

The Service is for people aged 18 or older. We do not knowingly collect personal data of anyone under 18; if we learn that we have, we delete it.

# 11. Cookies

We use a small number of cookies and similar storage. Our [Cookie Policy](/cookie-policy) lists them and how long each lasts.

# 12. Newsletter

We send the newsletter only if you subscribed. To unsubscribe, reply to any newsletter or write to [${CONTACT_EMAILS.privacy}](mailto:${CONTACT_EMAILS.privacy}), and we remove your address.

# 13. Changes to this policy

We will give you 30 days' notice of material changes by e-mail or on the Service before they take effect. The date at the top shows when this policy last changed.

# 14. Grievance Officer

If you have a complaint about how we handle personal data, contact our Grievance Officer at [${CONTACT_EMAILS.privacy}](mailto:${CONTACT_EMAILS.privacy}) or by post at ${COMPANY.address.lines.join(', ')}. We acknowledge complaints within 48 hours and aim to resolve them within one month.
`,
};
