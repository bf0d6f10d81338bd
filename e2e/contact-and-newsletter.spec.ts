import { delayAnswers, expect, expectTexts, signInByApi, test, uniqueEmail } from './fixtures';

// The server's limits are real (newsletter 10 per hour, contact 5 per 10 minutes per
// address), so this file sends only a few of each.

test('newsletter: a blank address is refused; a good one is stored once and says "You\'re all set!"', async ({
  page,
}) => {
  await page.goto('/blog');
  const box = page.getByRole('region', { name: 'Stay Updated' });
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expectTexts(page, 'Email Required', 'Please enter your email address.');

  const email = uniqueEmail('reader');
  await box.getByLabel('Email address').fill(email);
  const answered = page.waitForResponse(
    (res) => res.url().endsWith('/api/newsletter/subscribe') && res.request().method() === 'POST',
  );
  await box.getByRole('button', { name: 'Subscribe' }).click();
  const res = await answered;
  expect(res.status()).toBe(200);
  expect(res.request().postDataJSON()).toEqual({ email, subscriptionSource: 'blog' });
  await expect(page.getByText('Successfully Subscribed!', { exact: true })).toBeVisible();
  await expect(box.getByText("You're all set!")).toBeVisible();
  await expect(box.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);

  // The same address again is not an error.
  const again = await page.request.post('/api/newsletter/subscribe', {
    data: { email: email.toUpperCase(), subscriptionSource: 'blog' },
  });
  expect(again.status()).toBe(200);
});

test('newsletter: a server refusal shows "Subscription Failed" with its message', async ({
  page,
}) => {
  await page.route('**/api/newsletter/subscribe', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'RATE_LIMITED', message: 'Too many requests. Please try again later.' },
      }),
    }),
  );
  await page.goto('/blog');
  const box = page.getByRole('region', { name: 'Stay Updated' });
  await box.getByLabel('Email address').fill(uniqueEmail('limited'));
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expectTexts(page, 'Subscription Failed', 'Too many requests. Please try again later.');
  await expect(box.getByRole('button', { name: 'Subscribe' })).toBeVisible();
});

test('newsletter API refuses a malformed address with the error body', async ({ request }) => {
  const res = await request.post('/api/newsletter/subscribe', {
    data: { email: 'not-an-address', subscriptionSource: 'blog' },
  });
  expect(res.status()).toBe(400);
  expect(await res.json()).toMatchObject({
    error: { code: 'VALIDATION_FAILED', details: { fields: { email: expect.any(Array) } } },
  });
});

test('contact: every field is checked inline before anything is sent', async ({ page }) => {
  let posted = false;
  page.on('request', (req) => {
    if (req.url().endsWith('/api/contact')) posted = true;
  });
  await page.goto('/contact-us');
  await page.getByRole('button', { name: 'Send Message' }).click();
  // Messages under the fields, not the browser's bubbles.
  for (const [label, text] of [
    ['Name *', 'Please enter your name.'],
    ['Email *', 'Please enter a valid email address'],
    ['Subject *', 'Please enter a subject.'],
    ['Message *', 'Please enter your message.'],
  ] as const) {
    await expect(page.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(label)).toHaveAccessibleDescription(text);
  }
  await page.getByLabel('Name *').fill('Priya');
  await page.getByLabel('Email *').fill('not-an-address');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByLabel('Name *')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email *')).toHaveAccessibleDescription(
    'Please enter a valid email address',
  );
  await expect(page.getByLabel('Message *')).toHaveAttribute('rows', '6');
  expect(posted).toBe(false);
});

test('contact: a message is sent, stored and readable by an admin only', async ({
  page,
  browser,
}) => {
  const subject = `Need 4x A100 next week ${Date.now()}`;
  await page.goto('/contact-us');
  await page.getByLabel('Name *').fill('Priya Sharma');
  await page.getByLabel('Email *').fill('priya@example.test');
  await page.getByLabel('Category').selectOption({ label: 'Sales' });
  await page.getByLabel('Subject *').fill(subject);
  await page
    .getByLabel('Message *')
    .fill('Can you reserve four A100 80GB GPUs in India for a week?');

  // Hold the answer briefly so the sending state can be seen.
  await delayAnswers(page, '**/api/contact', 600);
  await page.getByRole('button', { name: 'Send Message' }).click();
  const sending = page.getByRole('button', { name: 'Sending...' });
  await expect(sending).toBeVisible();
  await expect(sending).toBeDisabled();

  await expectTexts(page, 'Message Sent Successfully', "We'll get back to you within 24 hours.");
  for (const label of ['Name *', 'Email *', 'Subject *', 'Message *']) {
    await expect(page.getByLabel(label)).toHaveValue('');
  }
  await expect(page.getByLabel('Category')).toHaveValue('general');

  // Signed out: 401. A renter: 403. The seeded admin: the message, newest first.
  expect((await page.request.get('/api/admin/contact-messages')).status()).toBe(401);
  expect((await page.request.post('/api/login')).ok()).toBeTruthy();
  expect((await page.request.get('/api/admin/contact-messages')).status()).toBe(403);

  const admin = await browser.newContext();
  try {
    await signInByApi(admin.request, 'admin@rentgpu.dev');
    const res = await admin.request.get('/api/admin/contact-messages?limit=20');
    expect(res.status()).toBe(200);
    const { messages } = (await res.json()) as { messages: { subject: string }[] };
    expect(messages.find((m) => m.subject === subject)).toMatchObject({
      subject,
      name: 'Priya Sharma',
      email: 'priya@example.test',
      category: 'sales',
    });
  } finally {
    await admin.close();
  }
});

test('contact: a server refusal shows the error toast and keeps what was typed', async ({
  page,
}) => {
  await page.route('**/api/contact', (route) =>
    route.fulfill({ status: 500, contentType: 'text/plain', body: 'boom' }),
  );
  await page.goto('/contact-us');
  await page.getByLabel('Name *').fill('Ravi');
  await page.getByLabel('Email *').fill(uniqueEmail('ravi'));
  await page.getByLabel('Subject *').fill('Help');
  await page.getByLabel('Message *').fill('Something went wrong.');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expectTexts(page, 'Error', 'Failed to send message. Please try again.');
  await expect(page.getByLabel('Name *')).toHaveValue('Ravi');
});
