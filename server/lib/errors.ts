import type { ErrorBody, ErrorCode } from '../../shared/error-codes';
import { microsToDollars } from '../../shared/rules/money';

/** An error the client is meant to see: a status, a stable code, a message and details. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        details: this.details ?? {},
      },
    };
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new AppError(400, 'BAD_REQUEST', message, details);

export const validationFailed = (fields: Record<string, string[]>) =>
  new AppError(400, 'VALIDATION_FAILED', describeFields(fields), { fields });

export const unauthenticated = (message = 'Sign in to continue.') =>
  new AppError(401, 'UNAUTHENTICATED', message);

export const forbidden = (message = 'You do not have access to this resource.') =>
  new AppError(403, 'FORBIDDEN', message);

export const crossOriginRefused = () =>
  new AppError(403, 'CROSS_ORIGIN_REFUSED', 'Requests that change data must come from this site.');

export const notFound = (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found.`);

export const rateLimited = (
  retryAfterSeconds: number,
  message = 'Too many requests. Please try again later.',
) =>
  new AppError(
    429,
    'RATE_LIMITED',
    message,
    { retryAfterSeconds },
    {
      'retry-after': String(retryAfterSeconds),
    },
  );

export const invalidOtp = (details?: Record<string, unknown>) =>
  new AppError(400, 'INVALID_OTP', 'Invalid OTP', details);

export const otpExpired = () =>
  new AppError(
    400,
    'OTP_EXPIRED',
    'This code has expired or was already used. Request a new code.',
  );

function describeFields(fields: Record<string, string[]>): string {
  const first = Object.entries(fields)[0];
  if (!first) return 'The request is not valid.';
  const [field, messages] = first;
  return field
    ? `${field}: ${messages[0] ?? 'is not valid'}`
    : (messages[0] ?? 'The request is not valid.');
}

export const insufficientCredits = (requiredMicros: bigint, availableMicros: bigint) =>
  new AppError(402, 'INSUFFICIENT_CREDITS', 'Your credit balance does not cover this charge.', {
    required: microsToDollars(requiredMicros),
    available: microsToDollars(availableMicros),
    currency: 'USD',
  });

export const serviceUnavailable = (message: string) =>
  new AppError(503, 'SERVICE_UNAVAILABLE', message);

export const quoteMismatch = (quote: Record<string, unknown>) =>
  new AppError(
    409,
    'QUOTE_MISMATCH',
    'The price has changed or the total does not match. Please review the current quote.',
    { quote },
  );

/**
 * Where the plain "cannot" would leave the renter guessing: what to do instead
 * (docs/decisions/018 — a start while stopping is refused, never queued).
 */
const TRANSITION_HINTS: Record<string, string> = {
  'start:stopping': 'This instance is still stopping. Start it again once it has stopped.',
};

/** A change of an instance that is not a lifecycle action, and how a refusal words it. */
const CHANGE_WORDS = {
  deadlines: 'change its stop or terminate time',
  'idle-stop': 'change its idle stop',
} as const;
export type InstanceChange = keyof typeof CHANGE_WORDS;

/** 409: what was asked (a lifecycle action, or a change) cannot happen in this state. */
export const invalidStateTransition = (
  action: string,
  state: string,
  allowedActions: readonly string[],
) =>
  new AppError(
    409,
    'INVALID_STATE_TRANSITION',
    TRANSITION_HINTS[`${action}:${state}`] ??
      `An instance that is ${state} cannot ${CHANGE_WORDS[action as InstanceChange] ?? action}.`,
    { action, state, allowedActions: [...allowedActions] },
  );

/** A start that found no free GPU of the instance's listing: the instance stays as it was. */
export const capacityUnavailable = () =>
  new AppError(
    409,
    'CAPACITY_UNAVAILABLE',
    'No GPU of this listing is free right now. The instance stays stopped; try again later.',
  );

/** A rent that found every GPU of the listing's host taken (docs/decisions/020): nothing charged. */
export const gpusInUse = () =>
  new AppError(
    409,
    'CAPACITY_UNAVAILABLE',
    'Every GPU of this listing is in use right now, so nothing was rented or charged. Please choose another or try again later.',
  );

export const hostOffline = (hostStatus: 'offline' | 'none') =>
  new AppError(
    409,
    'HOST_OFFLINE',
    hostStatus === 'offline'
      ? "This GPU's host is offline right now, so it cannot be rented. Please choose another or try again later."
      : 'This GPU is not connected to a host yet, so it cannot be rented.',
    { hostStatus },
  );

/**
 * A start sent while the instance's own host is dark: refused, the instance stays stopped with
 * its disk (a start accepted meanwhile would fail once the host had been unreachable for 20
 * minutes, ending the instance; a stopped one waits for its host).
 */
export const hostOfflineForStart = () =>
  new AppError(
    409,
    'HOST_OFFLINE',
    "This instance's host is unreachable right now, so it cannot start. It stays stopped and keeps its disk; start it again once the host is back.",
    { hostStatus: 'offline' },
  );

/**
 * The listing's host (or every GPU of the listing) cannot serve the kind of instance asked
 * (docs/decisions/021, 025): a VM, or a container.
 */
export const hostNotReady = (
  why: { reason: string; fix: string },
  kind: 'vm' | 'container' = 'vm',
) =>
  new AppError(
    409,
    'HOST_NOT_READY',
    `This GPU's host is not ready to run a ${kind === 'vm' ? 'VM' : 'container'}, so it cannot be rented: ${why.reason}`,
    { reason: why.reason, fix: why.fix, kind },
  );

export const listingUnavailable = () =>
  new AppError(
    409,
    'LISTING_UNAVAILABLE',
    'This GPU is no longer available to rent. Please choose another.',
  );

/** A listing whose host no longer reports a GPU it sells (docs/decisions/020). */
export const listingGpusMissing = (reason: string) =>
  new AppError(
    409,
    'LISTING_UNAVAILABLE',
    'This GPU cannot be rented right now: its host no longer reports it. Please choose another.',
    { reason },
  );

export const listingHasActiveRentals = (activeRentals: number) =>
  new AppError(
    409,
    'LISTING_HAS_ACTIVE_RENTALS',
    'This listing has active rentals. Wait for them to end (or stop them) before removing it.',
    { activeRentals },
  );

/** A host that listings or live instances still use cannot be removed. */
export const hostInUse = (usage: { listings: number; liveInstances: number }) =>
  new AppError(
    409,
    'HOST_IN_USE',
    'This host is still in use. Remove its listings (or move them to another host) and wait for its instances to end before removing it.',
    usage,
  );

export const notAProvider = () =>
  new AppError(
    403,
    'NOT_A_PROVIDER',
    'You need an approved provider profile to do this. Apply at /provider-signup.',
  );

export const applicationOpen = () =>
  new AppError(
    409,
    'APPLICATION_OPEN',
    'You already have a provider application waiting for review.',
  );

export const alreadyProvider = () =>
  new AppError(409, 'ALREADY_PROVIDER', 'You already have an approved provider profile.');

export const applicationReviewed = (status: string) =>
  new AppError(409, 'APPLICATION_REVIEWED', `This application was already ${status}.`, {
    status,
  });

export const emailInUse = () =>
  new AppError(409, 'EMAIL_IN_USE', 'Another account already uses this e-mail address.', {
    fields: { email: ['Another account already uses this e-mail address'] },
  });

export const noPendingEmail = () =>
  new AppError(409, 'CONFLICT', 'There is no new e-mail address waiting for confirmation.');

export const accountHasActiveRentals = (activeRentals: number) =>
  new AppError(
    409,
    'ACTIVE_RENTALS',
    'You have running instances. Stop them before deleting your account.',
    { activeRentals },
  );

export const limitReached = (what: string, limit: number) =>
  new AppError(409, 'LIMIT_REACHED', `You can have at most ${limit} ${what}.`, { limit });

export const conflict = (message: string, details?: Record<string, unknown>) =>
  new AppError(409, 'CONFLICT', message, details);

/** A host named an address that is not its own (docs/decisions/013-hosts-are-untrusted.md). */
export const hostAddressRefused = (field: string, address: string, reason?: string) =>
  new AppError(
    409,
    'HOST_ADDRESS_REFUSED',
    reason
      ? `${field} must be an address renters can reach: ${address} is ${reason}.`
      : `${field} must be this host's own address (its public name or the address its agent calls from).`,
    reason ? { field, address, reason } : { field, address },
  );

/** Another live instance on the same host already has this SSH port. */
export const sshPortInUse = (port: number) =>
  new AppError(
    409,
    'SSH_PORT_IN_USE',
    `SSH port ${port} is in use by another instance on this host.`,
    {
      field: 'ssh.port',
      port,
    },
  );

export const paymentsNotConfigured = () =>
  new AppError(503, 'PAYMENTS_NOT_CONFIGURED', 'PayPal is not configured. Please contact support.');

/** PayPal refused or could not be reached; nothing was credited. */
export const paymentFailed = (message: string, details?: Record<string, unknown>) =>
  new AppError(502, 'PAYMENT_FAILED', message, details);

export const paymentUnderReview = () =>
  new AppError(
    409,
    'PAYMENT_UNDER_REVIEW',
    'This payment needs a manual review before credits are added. Please contact support.',
  );

export const invalidWebhook = (message = 'The webhook signature could not be verified.') =>
  new AppError(400, 'INVALID_WEBHOOK', message);

/**
 * The shared seeded demo account stays usable for the tests that sign into it, and no demo
 * account becomes a real one by taking a real address (its credits are demo credits).
 */
export const demoAccountLocked = (what: string, shared = true) =>
  new AppError(
    403,
    'FORBIDDEN',
    `${shared ? 'The shared demo account' : 'A demo account'} cannot ${what}. Sign in with your own e-mail to do this.`,
  );

/** The same Idempotency-Key came with another request (body, path or query). */
export const idempotencyKeyReused = () =>
  new AppError(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
  );

/** A request with the same Idempotency-Key is still being processed. */
export const idempotencyKeyInUse = () =>
  new AppError(
    409,
    'IDEMPOTENCY_KEY_IN_USE',
    'A request with this Idempotency-Key is still being processed. Retry after it finishes.',
  );
