import { ApiError } from '../http/api-error';
import { TakenField } from './account.repository';

/** One answer whether the email is unknown or the password wrong (no enumeration). */
export function invalidCredentials(): ApiError {
  return new ApiError(401, 'INVALID_CREDENTIALS', 'The email address or password is wrong.');
}

/**
 * One answer for a wrong, expired, used, replaced or exhausted code, and for
 * an unknown email on reset, so the answer tells nothing about the account.
 */
export function codeRefused(field: string): ApiError {
  const message = 'The code is wrong, expired or already used; request a new one.';
  return ApiError.unprocessable(message, [{ field, message }]);
}

const TAKEN_MESSAGE: Record<TakenField, string> = {
  email: 'This email address is already registered.',
  username: 'This username is already taken.',
};

export function alreadyTaken(fields: TakenField[]): ApiError {
  const message =
    fields.length > 1
      ? 'The email address and the username are already taken.'
      : TAKEN_MESSAGE[fields[0]];
  return ApiError.conflict(
    message,
    fields.map((field) => ({ field, message: TAKEN_MESSAGE[field] })),
  );
}

export function notYourAccount(): ApiError {
  return ApiError.forbidden('You may only act on your own account.');
}
