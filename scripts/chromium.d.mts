/** Types for scripts/chromium.mjs, which plain-node scripts import as well as TypeScript. */
export declare const chromiumLaunchOptions: { executablePath: string; args: string[] };
