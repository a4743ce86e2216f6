/** §2.8 business: the company, its details, and its contracts with their versions. */
import fc from 'fast-check';
import { addDays, addMonths } from '../calendar.js';
import type { ObjectRule } from '../from-model.js';
import { COMPANY_NAMES, addressLine, cif, landline, place, street } from '../spanish.js';
import type { Context } from './context.js';

const business: ObjectRule<Context> = {
  joint: {
    fields: ['business_type', 'company_number', 'company_name'],
    values: () =>
      fc
        .record({ name: fc.constantFrom(...COMPANY_NAMES), number: fc.integer({ min: 0, max: 9_999_999 }) })
        .map(({ name, number }) => ({
          business_type: 'LIMITED_COMPANY',
          company_number: cif(number),
          company_name: `${name}, S.L.`,
        })),
  },
};

const businessDetail: ObjectRule<Context> = {
  joint: {
    fields: ['key', 'value'],
    values: (s) =>
      fc
        .tuple(
          place,
          street,
          fc.constantFrom('Hostelería', 'Comercio minorista', 'Construcción', 'Servicios sanitarios'),
          landline,
        )
        .map(
          ([where, st, sector, phone]) =>
            [
              { key: 'registered_address', value: `${addressLine(st)}, ${where.postal_code} ${where.locality}` },
              { key: 'sector', value: sector },
              { key: 'contact_email', value: `administracion@empresa${s.serial}.example.com` },
              { key: 'contact_phone', value: phone },
            ][s.index % 4],
        ),
  },
};

const businessContract: ObjectRule<Context> = {
  // One contract a year, the first valid from January of the year before the anchor.
  narrow: (s) => fc.constant({ validFrom: `${Number(s.anchor.slice(0, 4)) - 1 + s.index}-01-01` }),
  joint: {
    fields: ['valid_from_date', 'signed_at_date', 'identifier'],
    values: (s) =>
      fc.integer({ min: 10, max: 45 }).map((daysBefore) => ({
        valid_from_date: s.validFrom,
        signed_at_date: addDays(s.validFrom!, -daysBefore),
        identifier: `CONTRACT-${s.serial}-${s.index + 1}`,
      })),
  },
};

const contractVersion: ObjectRule<Context> = {
  // §2.8 does not show the structure of terms; these follow the business fixture.
  joint: {
    fields: ['applicable_at_date', 'terms'],
    values: (s) =>
      fc
        .record({ price: fc.integer({ min: 1100, max: 1500 }), days: fc.constantFrom(30, 45, 60) })
        .map(({ price, days }) => ({
          applicable_at_date: addMonths(s.validFrom!, 6 * s.index),
          terms: [
            { term: 'ENERGY_PRICE', tariff_code: '2.0TD', eur_per_kwh: price / 10_000 },
            { term: 'PAYMENT_DAYS', days },
          ],
        })),
  },
};

export const businessRules: Readonly<Record<string, ObjectRule<Context>>> = {
  '§2.8 business': business,
  '§2.8 business.details': businessDetail,
  '§2.8 business contract': businessContract,
  '§2.8 business contract version': contractVersion,
};
