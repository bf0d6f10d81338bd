import type { Page } from '@playwright/test';
import { delayAnswers, expect, expectToast, test, toastWith } from './fixtures';
import { transitionsEnded } from './themes';

/**
 * Instant Deploy as a demo visitor (their own account, $100 and a sandbox copy of Demo
 * Compute Co., whose A6000s only they can take): template and GPU pickers, live cost, the
 * toasts, Deploying..., the result card following the real instance from provisioning to
 * running on the demo host (E2E server: DEMO_PROVISIONING_DELAY_MS 1500), Sold Out, and
 * screenshots in every theme at 1280 and 390 px.
 */
async function demoLogin(page: Page) {
  await page.goto('/');
  // The top bar's Demo Login; on a phone the landing page's Try Demo Account does the same.
  await page
    .getByRole('button', { name: /^(Demo Login|Try Demo Account)$/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'GPU Marketplace' })).toBeVisible({
    timeout: 15_000,
  });
}

async function openDeploy(page: Page) {
  const link = page.getByRole('link', { name: 'Instant Deploy', exact: true });
  if (await link.first().isVisible()) await link.first().click();
  else await page.goto('/deploy');
  await expect(page.getByRole('heading', { name: 'Instant GPU Deployment' })).toBeVisible();
  await expect(page.getByTestId('gpu-option').first()).toBeVisible();
}

const templateCard = (page: Page, name: string) =>
  page.getByTestId('template-card').filter({ has: page.getByText(name, { exact: true }) });
const gpuOption = (page: Page, type: string) =>
  page.getByTestId('gpu-option').filter({ has: page.getByText(type, { exact: true }) });
const deployButton = (page: Page) =>
  page.getByRole('button', { name: /Deploy Instantly|Deploying\.\.\./ });

/** Takes one of the visitor's GPUs of a type through the API (as another tab would). */
async function deployByApi(page: Page, gpuType: string) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post('/api/deploy', {
    data: { gpu_type: gpuType, template: 'cuda-dev', storage_gb: 20 },
    headers: { Origin: origin },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function screenshots(page: Page, name: string) {
  for (const theme of ['dark', 'light', 'pastel']) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('dark', 'light', 'pastel');
      document.documentElement.classList.add(t);
    }, theme);
    // A screenshot taken while the colours are still moving shows neither theme.
    await transitionsEnded(page);
    await page.screenshot({
      path: `test-results/screens/deploy-${name}-${theme}.png`,
      fullPage: true,
    });
  }
  await page.evaluate(() => {
    document.documentElement.classList.remove('dark', 'light', 'pastel');
    document.documentElement.classList.add('dark');
  });
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });
    test.beforeEach(async ({ page }) => {
      test.setTimeout(60_000);
      await demoLogin(page);
      await openDeploy(page);
    });

    test('choose, see the cost, deploy, watch it become running, deploy another', async ({
      page,
    }) => {
      // Every GPU here runs on the demo host (ready in about 2 s), so the promise holds.
      await expect(page.getByTestId('deploy-banner')).toContainText('Deploy in under 60 seconds');
      await expect(page.getByTestId('template-card')).toHaveCount(6);
      for (const name of [
        'PyTorch',
        'TensorFlow',
        'Hugging Face',
        'Stable Diffusion',
        'Ollama',
        'CUDA Development',
      ])
        await expect(templateCard(page, name)).toBeVisible();
      await expect(templateCard(page, 'Hugging Face')).toContainText('16 CPU cores');
      await expect(templateCard(page, 'Hugging Face')).toContainText('64 GB RAM');
      await expect(templateCard(page, 'Hugging Face')).toContainText('60s deploy');
      for (const rate of await page.getByTestId('gpu-rate').allTextContents())
        expect(rate).toMatch(/^\$\d+\.\d{2}\/hour$/);

      // Nothing chosen: the button says it is unavailable, and a press explains why.
      const button = deployButton(page);
      await expect(button).toHaveAttribute('aria-disabled', 'true');
      await button.focus();
      await page.keyboard.press('Enter');
      await expectToast(page, 'Missing Selection', 'Please select both a template and GPU type.');
      await screenshots(page, `empty-${width}`);

      await templateCard(page, 'PyTorch').click();
      await expect(page.getByRole('radio', { name: /^PyTorch/ })).toBeChecked();
      await button.focus();
      await page.keyboard.press('Enter');
      await expect(toastWith(page, 'Missing Selection')).toBeVisible();

      const rtx = gpuOption(page, 'RTX 4090');
      const rate = Number(
        ((await rtx.getByTestId('gpu-rate').textContent()) ?? '').replace(/[^0-9.]/g, ''),
      );
      await rtx.click();
      await expect(button).toHaveAttribute('aria-disabled', 'false');
      await expect(page.getByTestId('cost-total')).toHaveText(`$${(rate + 0.05).toFixed(3)}/hour`);
      const storage = page.getByLabel('Storage (GB)');
      await storage.fill('300');
      await expect(page.getByTestId('cost-storage')).toHaveText('$0.300/hour');
      await expect(page.getByTestId('cost-total')).toHaveText(`$${(rate + 0.3).toFixed(3)}/hour`);
      // Out of range: the cost uses 50 GB, and leaving the field shows it.
      await storage.fill('5000');
      await expect(page.getByTestId('cost-total')).toHaveText(`$${(rate + 0.05).toFixed(3)}/hour`);
      await storage.blur();
      await expect(storage).toHaveValue('50');
      await storage.fill('120');
      await screenshots(page, `selected-${width}`);

      // Hold the request a moment so 'Deploying...' can be seen.
      await delayAnswers(page, '**/api/deploy', 800);
      const pressed = Date.now();
      await button.click();
      await expect(page.getByRole('button', { name: 'Deploying...' })).toBeDisabled();
      await expectToast(
        page,
        'Deployment Initiated',
        "Your GPU instance is being prepared. You'll receive access details shortly.",
      );
      const result = page.getByTestId('deploy-result');
      await expect(result.getByTestId('deployment-id')).toHaveText(/^\d+$/);
      const id = await result.getByTestId('deployment-id').textContent();
      await expect(result).toContainText('120 GB');
      // Provisioning first, with no addresses yet…
      await expect(result.getByTestId('deployment-status')).toHaveText('Provisioning');
      await expect(result.getByTestId('access-pending')).toContainText(
        'Access details appear here once it is running.',
      );
      await screenshots(page, `provisioning-${width}`);
      // …then running with the demo host's real report.
      await expect(result.getByTestId('deployment-status')).toHaveText('Running', {
        timeout: 15_000,
      });
      // Deploy Instantly to Running on screen (request held 0.8 s above, 2 s polling).
      test.info().annotations.push({
        type: 'deploy-to-running-ms',
        description: String(Date.now() - pressed),
      });
      console.log(`deploy-to-running at ${width}px: ${Date.now() - pressed} ms`);
      await expect(
        result.getByText(
          /^ssh -p \d{5} -o HostKeyAlias=rentgpu-\d+ -o CheckHostIP=no ubuntu@gpu-\d+\.demo\.rentgpu\.dev$/,
        ),
      ).toBeVisible();
      await expect(
        result.getByText(/^http:\/\/localhost:8888\/lab\?token=[0-9a-f]{48}$/),
      ).toBeVisible();
      await expect(
        result.getByRole('link', { name: `/vm-dashboard/console/${id}` }),
      ).toHaveAttribute('href', `/vm-dashboard/console/${id}`);
      await expect(result).toContainText('demo host');
      await screenshots(page, `running-${width}`);

      // The result has its own address: leaving and coming back keeps it, Jupyter token included.
      await expect(page).toHaveURL(new RegExp(`/deploy\\?deployment=${id}$`));
      const jupyter = (await result.getByText(/token=[0-9a-f]{48}$/).textContent()) ?? '';
      await page.goto('/marketplace');
      await page.goBack();
      await expect(result.getByTestId('deployment-id')).toHaveText(id ?? '');
      await expect(result.getByText(jupyter, { exact: true })).toBeVisible();

      // Deploy Another keeps the template and the GPU.
      await result.getByRole('button', { name: 'Deploy Another' }).click();
      await expect(page).toHaveURL(/\/deploy$/);
      await expect(page.getByRole('radio', { name: /^PyTorch/ })).toBeChecked();
      await expect(gpuOption(page, 'RTX 4090').getByRole('radio')).toBeChecked();
      await expect(page.getByTestId('deploy-result')).toHaveCount(0);
    });

    test('Sold Out cannot be picked; a GPU taken meanwhile fails with the toast; Manage Instances', async ({
      page,
    }) => {
      // The visitor's own two A6000s are the only free ones.
      await expect(gpuOption(page, 'A6000')).not.toContainText('Sold Out');
      await deployByApi(page, 'A6000');
      await templateCard(page, 'Ollama').click();
      await gpuOption(page, 'A6000').click();
      // Meanwhile the last one is taken (another tab).
      await deployByApi(page, 'A6000');
      await deployButton(page).click();
      await expectToast(
        page,
        'Deployment Failed',
        'Failed to deploy GPU instance. Please try again.',
      );
      await expect(page.getByTestId('deploy-refusal')).toHaveText(
        'Every A6000 is taken right now (Sold Out). Choose another GPU or try again later.',
      );
      await page.reload();
      await expect(page.getByTestId('gpu-option').first()).toBeVisible();
      const soldOut = gpuOption(page, 'A6000');
      await expect(soldOut).toContainText('Sold Out');
      await expect(soldOut.getByRole('radio')).toBeDisabled();
      await soldOut.click({ force: true });
      await expect(soldOut.getByRole('radio')).not.toBeChecked();
      await soldOut.scrollIntoViewIfNeeded();
      await screenshots(page, `sold-out-${width}`);

      await templateCard(page, 'CUDA Development').click();
      await gpuOption(page, 'RTX 4090').click();
      await deployButton(page).click();
      await expect(page.getByTestId('deploy-result')).toBeVisible();
      const id = await page.getByTestId('deploy-result').getByTestId('deployment-id').textContent();
      await page.getByRole('link', { name: 'Manage Instances' }).click();
      // The VM Dashboard, at the deploy's own card (focused).
      await expect(page).toHaveURL(new RegExp(`/vm-dashboard#vm-${id}$`));
      await expect(page.getByRole('group', { name: `RTX 4090 instance ${id}` })).toBeFocused();
    });
  });
}
