/**
 * What the API Reference page says about the public API beyond its OpenAPI document: the
 * status codes and an example error body (docs/rules.md, Errors). The endpoints, their
 * permissions and the rate tiers are rendered from docs/openapi.json (web/lib/openapi-view.ts).
 */
export const API_STATUS_CODES = [
  { code: 200, meaning: 'OK: the request succeeded.' },
  { code: 400, meaning: 'Bad request: invalid parameters; details name each field.' },
  { code: 401, meaning: 'Unauthorized: the API key is missing, invalid or revoked.' },
  { code: 402, meaning: 'Payment required: your balance does not cover the charge.' },
  { code: 403, meaning: "Forbidden: the key's permissions do not allow this call." },
  { code: 404, meaning: 'Not found: no such resource, or it belongs to another account.' },
  { code: 429, meaning: 'Too many requests: wait for the time in Retry-After.' },
  { code: 500, meaning: 'Server error: something failed on our side; try again.' },
] as const;

export const API_ERROR_EXAMPLE = `{
  "error": {
    "code": "INSUFFICIENT_CREDITS",
    "message": "Your credit balance does not cover this charge.",
    "details": {
      "required": "12.50",
      "available": "4.20",
      "currency": "USD"
    }
  }
}`;
