/** Every error code the API answers with, in one place (DESIGN.md section 5). */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'CROSS_ORIGIN_REFUSED',
  'NOT_FOUND',
  'RATE_LIMITED',
  'INVALID_OTP',
  'OTP_EXPIRED',
  'DEMO_UNAVAILABLE',
  'INSUFFICIENT_CREDITS',
  'QUOTE_MISMATCH',
  'LISTING_UNAVAILABLE',
  'LISTING_HAS_ACTIVE_RENTALS',
  'HOST_IN_USE',
  'NOT_A_PROVIDER',
  'APPLICATION_OPEN',
  'ALREADY_PROVIDER',
  'APPLICATION_REVIEWED',
  'CONFLICT',
  'EMAIL_IN_USE',
  'ACTIVE_RENTALS',
  'INVALID_STATE_TRANSITION',
  'CAPACITY_UNAVAILABLE',
  'HOST_OFFLINE',
  'LIMIT_REACHED',
  'PAYMENTS_NOT_CONFIGURED',
  'PAYMENT_FAILED',
  'PAYMENT_UNDER_REVIEW',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'INVALID_WEBHOOK',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_URL',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  /** details is always an object (empty when there is nothing to add). */
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}
