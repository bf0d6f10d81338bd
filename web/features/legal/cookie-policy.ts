import { CONTACT_EMAILS } from '../../../shared/content/company';
import type { LegalText } from './legal-text';

export const cookiePolicy: LegalText = {
  title: 'Cookie Policy',
  description:
    'The cookies and browser storage RentGPU uses, what each one is for and how long it lasts.',
  lastUpdated: 'November 1, 2026',
  content: `
This policy explains the cookies and similar browser storage that RentGPU uses, why, and for how long. We keep them to the minimum the Service needs. It supplements our [Privacy Policy](/privacy-policy).

# 1. What cookies are

Cookies are small text files that a website asks your browser to store and send back with later requests. Local storage is a similar feature that keeps small values in your browser without sending them to the server. We use both sparingly.

# 2. What we use

## Essential: your session

- **Name:** \`rentgpu_session\`
- **Purpose:** keeps you signed in after you enter your sign-in code, and protects your account from requests made by other sites.
- **Duration:** session. It is deleted when you log out and stops working 24 hours after you sign in.
- **Details:** set only by our own site, marked HttpOnly (scripts cannot read it), SameSite=Lax and, in production, Secure (sent only over encrypted connections). It contains a random token; the server stores only a hash of it.

The Service cannot work without this cookie, so it does not need your consent. If you block it, you can still read our public pages, but you cannot sign in.

## Preferences

- **Name:** \`theme\` (local storage)
- **Purpose:** remembers whether you chose the dark, light or pastel theme, so pages open in it.
- **Duration:** preference cookies last up to 1 year. The theme is kept in local storage instead of a cookie; local storage has no built-in expiry, so it stays until you clear your browser data or choose another theme. When you are signed in, your choice is also saved to your account.

## Analytics

- **Duration:** up to 2 years.
- We do not use analytics cookies today. If we introduce them, we will ask for your consent first and list them here.

## Marketing

- **Duration:** 30-90 days.
- We do not use marketing or advertising cookies today, and we do not let advertisers track you on our site. If that changes, we will ask for your consent first and list them here.

# 3. Third parties

When you buy credits, the payment buttons are provided by PayPal and loaded from PayPal. PayPal may set its own cookies to process the payment and prevent fraud, under PayPal's own cookie and privacy policies. No other third party sets cookies through our site.

# 4. Durations at a glance

- **Session cookie:** for the session (until you log out, at most 24 hours).
- **Preferences:** up to 1 year.
- **Analytics:** up to 2 years (not used today).
- **Marketing:** 30-90 days (not used today).

# 5. Managing cookies

You can see and delete cookies and local storage in your browser's settings, and block cookies for any site. Blocking our session cookie stops you from signing in; clearing local storage resets the theme to dark.

# 6. Changes

If we add a cookie, we will update this policy, and we will give you 30 days' notice of material changes.

# 7. Contact

Questions about cookies: [${CONTACT_EMAILS.privacy}](mailto:${CONTACT_EMAILS.privacy}).
`,
};
