/** §2.1 conventions shared by every payload: date, datetime, contact formats, document paths. */
import { z } from 'zod';

/** §2.1: dates use ISO 8601 `YYYY-MM-DD`; the day must exist (`2023-02-30` is not a date). */
export const IsoDate = z.iso.date().meta({ spec: '§2.1', description: 'ISO 8601 date, YYYY-MM-DD' });

/**
 * §2.1: datetimes use ISO 8601 `YYYY-MM-DDTHH:MM:SSZ` — whole seconds, UTC designator. This is the
 * format requests are built with. Whether a server must refuse other ISO 8601 spellings (no `Z`,
 * fractions, offsets) is a reading, not a statement, so rules treat that as SHOULD.
 */
export const IsoDateTime = z.iso
  .datetime({ precision: 0, offset: false, local: false })
  .meta({ spec: '§2.1', description: 'ISO 8601 datetime, YYYY-MM-DDTHH:MM:SSZ' });

/**
 * Datetimes a server sends back. The spec does not say responses follow the request format to the
 * letter, so any ISO 8601 datetime with a zone (fractions, offsets) is accepted when judging one.
 */
export const ResponseDateTime = z.iso
  .datetime({ offset: true, local: true })
  .meta({ spec: '§2.1', description: 'ISO 8601 datetime as sent by the service' });

/** §2.3 customer: "an e-mail address". */
export const Email = z.email().meta({ spec: '§2.3 customer', description: 'an e-mail address' });

/**
 * §2.3 customer: "a phone number"; §7.1 names the error code `invalid_phone_number`. The accepted
 * format is not shown; this is a permissive reading: digits with optional leading `+` and common
 * separators, 6 to 15 digits in all (E.164 allows 15).
 */
export const PhoneNumber = z
  .stringFormat('phone', (value) => {
    if (!/^\+?[0-9][0-9 ().-]*$/.test(value)) return false;
    const digits = value.replace(/\D/g, '').length;
    return digits >= 6 && digits <= 15;
  })
  .meta({ spec: '§2.3 customer', description: 'a phone number' });

/** §2.3 reading `consumption_delta` and §2.4 `amount`: a decimal written as a string. */
export const DecimalString = z
  .stringFormat('decimal', /^[+-]?\d+(\.\d+)?$/)
  .meta({ spec: '§2.3, §2.4', description: 'a decimal number written as a string, e.g. "12.50"' });

/**
 * §2.1 document path: relative to the supplier's document root; a leading slash is accepted. An
 * empty path names no document.
 */
export const DocumentPath = z.string().min(1).meta({
  spec: '§2.1 document path',
  description: 'path relative to the import supplier document root; a leading slash is accepted',
});

/** §4.2 transactions query parameters are "boolean"; in a query string that is `true` / `false`. */
export const BooleanQueryParam = z
  .enum(['true', 'false'])
  .meta({ spec: '§4.2 transactions', description: 'boolean query parameter' });
