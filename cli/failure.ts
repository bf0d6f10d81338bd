import { CommanderError } from 'commander';
import { ApiError, NetworkError } from './client';
import { CommandError, EXIT, type Io, NotLoggedIn, UsageError } from './commands/context';

/** How a command that threw ends: its message on stderr and the exit code for the kind. */
export function reportFailure(error: unknown, io: Io): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof NotLoggedIn) {
    io.err('rentgpu: no API key. Run `rentgpu login`, set RENTGPU_API_KEY or pass --api-key.\n');
    return EXIT.auth;
  }
  if (error instanceof CommandError) {
    io.err(`rentgpu: ${error.message}\n`);
    return EXIT.api;
  }
  if (error instanceof UsageError) {
    io.err(`rentgpu: ${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof NetworkError) {
    io.err(`rentgpu: ${error.message}\n`);
    return EXIT.network;
  }
  if (error instanceof ApiError) {
    io.err(`rentgpu: ${describeApiError(error)}\n`);
    return error.status === 401 || error.status === 403 ? EXIT.auth : EXIT.api;
  }
  io.err(`rentgpu: ${(error as Error).message}\n`);
  return EXIT.api;
}

function describeApiError(error: ApiError): string {
  const d = error.details;
  let text = `${error.message} (${error.code}, HTTP ${error.status})`;
  if (error.code === 'INSUFFICIENT_CREDITS') {
    text += `\nRequired: $${d.required} ${d.currency}; available: $${d.available} ${d.currency}.`;
  }
  const fieldErrors = d.fields as Record<string, string[]> | undefined;
  if (fieldErrors && typeof fieldErrors === 'object') {
    for (const [name, messages] of Object.entries(fieldErrors)) {
      text += `\n  ${name || 'body'}: ${messages.join('; ')}`;
    }
  }
  if (error.status === 401) text += '\nRun `rentgpu login` with a valid key, or pass --api-key.';
  return text;
}
