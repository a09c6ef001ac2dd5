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
