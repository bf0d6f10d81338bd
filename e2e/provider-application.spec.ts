import { delayAnswers, expect, signInByApi, test, toastWith } from './fixtures';

// Both tests sign in as the one seeded admin; one after the other, so their codes do not cross.
test.describe.configure({ mode: 'default' });

/** Issue 10, items 1 and 2: a fresh user applies, an admin approves, the dashboard appears. */
test('a new user applies to become a provider and an admin approves the application', async ({
  signedInPage: page,
  browser,
}) => {
  // Three sign-ins, a nine-section form and a second browser: more than the default budget.
  test.slow();
  const company = `E2E Compute ${Date.now().toString(36)}`;
  await page.goto('/provider-signup');
  await expect(
    page.getByRole('heading', { name: 'Become a GPU Provider', level: 1 }),
  ).toBeVisible();
  for (const section of [
    'Company Information',
    'Contact Information',
    'Location & Address',
    'Infrastructure Details',
    'Hardware Inventory',
    'Security & Compliance',
    'Pricing & Terms',
    'Support & Maintenance',
    'Legal Agreements',
  ]) {
    await expect(page.getByRole('heading', { name: section, level: 2 })).toBeVisible();
  }
  await expect(page.getByText('2-3 business days').first()).toBeVisible();

  // The inline hints while no GPU model or security measure is chosen.
  const gpuHint = page.getByText('Please select at least one GPU model', { exact: true });
  const securityHint = page.getByText('Please select at least one security measure', {
    exact: true,
  });
  await expect(gpuHint).toBeVisible();
  await expect(securityHint).toBeVisible();

  // Submitting the empty form shows the spec's messages and sends nothing.
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/providers')) posted += 1;
  });
  await page.getByRole('button', { name: 'Submit Provider Application' }).click();
  await expect(page.getByText('Company name must be at least 2 characters')).toBeVisible();
  await expect(page.getByText('You must accept data processing terms')).toBeVisible();
  await expect(page.getByLabel('Company Name *', { exact: true })).toBeFocused();
  await expect(gpuHint).toBeVisible();
  expect(posted).toBe(0);

  // Defaults of the spec.
  await expect(page.getByLabel('Business Type', { exact: true })).toHaveValue('individual');
  await expect(page.getByLabel('Facility Type', { exact: true })).toHaveValue('home_office');
  await expect(page.getByLabel('Cooling Type', { exact: true })).toHaveValue('air');
  await expect(page.getByLabel('Pricing Model', { exact: true })).toHaveValue('hourly');

  await page.getByLabel('Company Name *', { exact: true }).fill(company);
  await page.getByLabel('Business Type', { exact: true }).selectOption('small_business');
  await page.getByLabel('Registration Number', { exact: true }).fill('U72900KA2024PTC000001');
  await page.getByLabel('Contact Person Name *', { exact: true }).fill('Ravi Kumar');
  await page.getByLabel('Email *', { exact: true }).fill('ravi@example.test');
  await page.getByLabel('Phone *', { exact: true }).fill('+91 98765 43210');
  await page.getByLabel('Website', { exact: true }).fill('https://e2e-compute.example');
  await page.getByLabel('Country *', { exact: true }).fill('India');
  await page.getByLabel('State/Province *', { exact: true }).fill('Karnataka');
  await page.getByLabel('City *', { exact: true }).fill('Bengaluru');
  await page.getByLabel('Postal Code *', { exact: true }).fill('560001');
  await page.getByLabel('Address *', { exact: true }).fill('12 MG Road, Ashok Nagar');
  await page.getByLabel('Timezone *', { exact: true }).selectOption('Asia/Kolkata');
  await page.getByLabel('Facility Type', { exact: true }).selectOption('colocation');
  await page.getByLabel('Power Capacity *', { exact: true }).fill('10kW');
  await page.getByLabel('Cooling Type', { exact: true }).selectOption('liquid');
  await page.getByLabel('Internet Speed *', { exact: true }).fill('1 Gbps');
  await page.getByLabel('Uptime Guarantee *', { exact: true }).fill('99.5%');
  await page.getByLabel('Total GPU Count *', { exact: true }).fill('8');
  await page.getByLabel('Total VRAM Capacity *', { exact: true }).fill('192GB');
  await page.getByRole('button', { name: 'RTX 4090', exact: true }).click();
  await page.getByRole('button', { name: 'A100 80GB', exact: true }).click();
  await expect(page.getByRole('button', { name: 'RTX 4090', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(gpuHint).toBeHidden();
  await page.getByRole('button', { name: 'CCTV Monitoring', exact: true }).click();
  await page.getByRole('button', { name: 'Data Encryption', exact: true }).click();
  await expect(securityHint).toBeHidden();
  await page.getByRole('button', { name: 'ISO 27001', exact: true }).click();
  await page
    .getByLabel('Data Retention Policy *', { exact: true })
    .fill('Guest disks are wiped after each rental.');
  await page.getByLabel('Minimum Rental Duration *', { exact: true }).fill('1 hour');
  await page.getByLabel('Payment Terms *', { exact: true }).fill('Monthly payout');
  await page
    .getByLabel('Cancellation Policy *', { exact: true })
    .fill('Cancel any time; billing stops at once.');
  await page.getByLabel('Support Hours *', { exact: true }).fill('24/7');
  await page.getByLabel('Response Time SLA *', { exact: true }).fill('4 hours');
  await page
    .getByLabel('Maintenance Schedule *', { exact: true })
    .fill('Sundays 02:00-04:00 IST, 48 hours notice.');
  await page.getByRole('switch', { name: /terms and conditions/ }).click();
  await page.getByRole('switch', { name: /privacy policy/ }).click();
  await page.getByRole('switch', { name: /data processing terms/ }).click();
  await expect(page.getByText('Company name must be at least 2 characters')).toBeHidden();

  // Hold the answer briefly so the sending state can be seen.
  await delayAnswers(page, '**/api/providers', 600);
  await page.getByRole('button', { name: 'Submit Provider Application' }).click();
  const submitting = page.getByRole('button', { name: 'Submitting Application...' });
  await expect(submitting).toBeVisible();
  await expect(submitting).toBeDisabled();

  await expect(toastWith(page, 'Provider Application Submitted')).toBeVisible();
  await expect(page).toHaveURL(/\/provider$/);
  await expect(
    page.getByRole('heading', { name: 'Your provider application is under review' }),
  ).toBeVisible();
  await expect(page.getByText('Applications are reviewed within 2-3 business days.')).toBeVisible();
  await expect(page.getByText(company)).toBeVisible();

  // While it waits, the application page says so instead of offering a second form.
  await page.goto('/provider-signup');
  await expect(
    page.getByRole('heading', { name: 'Your application is under review', level: 2 }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit Provider Application' })).toHaveCount(0);

  // The seeded admin approves it on the review page.
  const adminContext = await browser.newContext();
  try {
    await signInByApi(adminContext.request, 'admin@rentgpu.dev');
    const admin = await adminContext.newPage();
    await admin.goto('/admin/provider-applications');
    await expect(
      admin.getByRole('heading', { name: 'Provider Applications', level: 1 }),
    ).toBeVisible();
    const card = admin.getByRole('region', { name: company });
    await expect(card.getByText('Pending', { exact: true })).toBeVisible();
    await card.getByText('All details').click();
    await expect(card.getByText('RTX 4090, A100 80GB').first()).toBeVisible();
    await card.getByRole('button', { name: `Approve ${company}` }).click();
    await expect(card.getByText('Approved', { exact: true })).toBeVisible();
  } finally {
    await adminContext.close();
  }

  await page.goto('/provider');
  await expect(page.getByText(`Signed in as provider ${company}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add New GPU Listing' })).toBeVisible();
  await page.goto('/provider-signup');
  await expect(page.getByRole('heading', { name: 'You are already a provider' })).toBeVisible();
});

test('the review page is Not Found for a renter, and its API answers 404', async ({
  signedInPage: page,
}) => {
  await page.goto('/admin/provider-applications');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  expect((await page.request.get('/api/admin/provider-applications')).status()).toBe(404);
});

test('an admin rejects with a reason; the applicant sees it and may apply again', async ({
  signedInPage: page,
  browser,
}) => {
  test.slow();
  const company = `Rejected Compute ${Date.now().toString(36)}`;
  const applied = await page.request.post('/api/providers', {
    data: {
      companyName: company,
      contactPersonName: 'Mei Tanaka',
      email: 'mei@example.test',
      phone: '+81 3 1234 5678',
      country: 'Japan',
      state: 'Tokyo',
      city: 'Shibuya',
      address: '1-2-3 Shibuya, Shibuya-ku',
      postalCode: '150-0002',
      timezone: 'Asia/Tokyo',
      powerCapacity: '5kW',
      internetSpeed: '10 Gbps',
      uptimeGuarantee: '99.9%',
      totalGpuCount: 2,
      gpuModels: ['H100 80GB'],
      totalVramCapacity: '160GB',
      securityMeasures: ['Access Logging'],
      dataRetentionPolicy: 'Disks are wiped after every rental.',
      minimumRentalDuration: '1 hour',
      paymentTerms: 'Monthly',
      cancellationPolicy: 'Cancel any time, billing stops.',
      supportHours: '9-18 JST',
      responseTime: '8 hours',
      maintenanceSchedule: 'First Sunday of the month, 02:00-04:00 JST.',
      termsAccepted: true,
      privacyAccepted: true,
      dataProcessingAccepted: true,
    },
  });
  expect(applied.status()).toBe(201);
  const reason = 'Please send proof of your colocation contract.';

  const adminContext = await browser.newContext();
  try {
    await signInByApi(adminContext.request, 'admin@rentgpu.dev');
    const admin = await adminContext.newPage();
    await admin.goto('/admin/provider-applications');
    const card = admin.getByRole('region', { name: company });
    await card.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(card.getByText('Please give a reason for the rejection.')).toBeVisible();
    await card.getByLabel('Reason for rejection').fill(reason);
    await card.getByRole('button', { name: 'Reject', exact: true }).click();
    await expect(card.getByText('Rejected', { exact: true })).toBeVisible();
    await expect(card.getByText(reason)).toBeVisible();
  } finally {
    await adminContext.close();
  }

  await page.goto('/provider');
  await expect(
    page.getByRole('heading', { name: 'Your provider application was not approved' }),
  ).toBeVisible();
  await expect(page.getByText(reason)).toBeVisible();
  await page.getByRole('link', { name: 'Apply again' }).click();
  await expect(page).toHaveURL(/\/provider-signup$/);
  await expect(page.getByRole('button', { name: 'Submit Provider Application' })).toBeVisible();
});
