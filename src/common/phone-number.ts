import { CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * A guest's mobile number read as E.164 (`+2348031234567`) or in the national
 * form of `country` (`08031234567` in NG), or null when it is not a number a
 * message can reach: unreadable, not a valid number of its country, or of a
 * type that is not mobile (a landline, a toll-free or premium number).
 * libphonenumber-js carries Google's numbering-plan metadata for every
 * country, which a pattern of ours would get wrong and never keep up to date.
 */
export function readMobileNumber(input: string, country: string | null | undefined): string | null {
  const region = country?.trim().toUpperCase();
  const defaultCountry = region && isSupportedCountry(region) ? (region as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(input.trim(), { defaultCountry });
  if (!parsed || !parsed.isValid()) return null;
  const type = parsed.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE' ? parsed.number : null;
}

/** A phone number with every digit masked but the last four: `+*********4567`. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '').length;
  let seen = 0;
  return phone.replace(/\d/g, (digit) => (++seen > digits - 4 ? digit : '*'));
}

/** A phone number in free text: E.164 (`+2348031234567`), or `whatsapp:+…`. */
const PHONE_IN_TEXT = /\+\d{7,15}\b/g;
/** Any run of 8 to 15 digits: how a provider's refusal may quote the number. */
const DIGIT_RUN = /(?<![\d.])\+?\d{8,15}(?![\d.])/g;

/** Text with every E.164 number in it masked but its last four digits. */
export function maskPhonesIn(text: string): string {
  return text.includes('+') ? text.replace(PHONE_IN_TEXT, maskPhone) : text;
}

/** A provider's words with every number-like run masked (it may quote the number without `+`). */
export function maskDigitRuns(text: string): string {
  return text.replace(DIGIT_RUN, maskPhone);
}
