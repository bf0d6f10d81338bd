// How every browser run here starts Debian's Chromium (Playwright's config, the system test,
// the measuring scripts): headless, and nothing that talks to the network on its own, so runs
// stay quiet and comparable. CHROMIUM_PATH points elsewhere when the browser lives elsewhere.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
