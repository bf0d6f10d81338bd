import type { FastifyInstance } from 'fastify';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../shared/rules/text';
import { validationFailed } from '../lib/errors';

/**
 * One check for every route, before any handler sees the input: text the database cannot store
 * (NUL, lone surrogates) anywhere in the path parameters, the query string or the parsed JSON
 * body is refused with 400 VALIDATION_FAILED naming the field, as the zod contracts name theirs
 * (details.fields["bio"], details.fields["specifications.cooling"]).
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const input of [request.params, request.query, request.body]) {
      const path = findUnstorableText(input);
      if (path) {
        done(validationFailed({ [path.join('.') || '_']: [UNSTORABLE_TEXT_MESSAGE] }));
        return;
      }
    }
    done();
  });
}
