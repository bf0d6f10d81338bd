import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

interface SecurityOptions {
  production: boolean;
  /** PayPal's SDK address when payments are on (its origins join the CSP), else null. */
  paypalSdkUrl: string | null;
}

/**
 * What the page needs to run PayPal's buttons, and nothing when payments are off: PayPal's
 * SDK loads from www.paypal.com and renders its buttons in frames of *.paypal.com (images
 * and scripts from *.paypalobjects.com). A stand-in SDK elsewhere (tests) gets its origin.
 */
function paypalSources(sdkUrl: string | null) {
  if (!sdkUrl) return { scripts: [], connect: [], frames: [] };
  const origin = new URL(sdkUrl).origin;
  if (origin === 'https://www.paypal.com') {
    const paypal = ['https://www.paypal.com', 'https://*.paypal.com'];
    return { scripts: [...paypal, 'https://*.paypalobjects.com'], connect: paypal, frames: paypal };
  }
  return { scripts: [origin], connect: [origin], frames: [origin] };
}

export function helmetOptions({ production, paypalSdkUrl }: SecurityOptions): HelmetOptions {
  const paypal = paypalSources(paypalSdkUrl);
  return {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...paypal.scripts],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        connectSrc: ["'self'", ...paypal.connect],
        ...(paypal.frames.length > 0 ? { frameSrc: ["'self'", ...paypal.frames] } : {}),
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: production ? [] : null,
      },
    },
    hsts: production,
  };
}

/** Runs helmet once against a stand-in response and keeps the headers it set. */
function computeHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, res, () => {});
  return headers;
}

/**
 * Security headers (helmet's defaults with our CSP), computed once at start rather than
 * on every request: they do not vary by request.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityOptions): void {
  const headers = computeHeaders(helmetOptions(options));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
