import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError, ErrorDetail } from './api-error';

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    if (messages.length) details.push({ field, message: messages[0] });
    if (error.children?.length) details.push(...flatten(error.children, field));
  }
  return details;
}

/**
 * D6: unknown fields are dropped (whitelist) but never an error; one detail
 * per bad field (D4).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: false,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => ApiError.validation(flatten(errors)),
  });
}
