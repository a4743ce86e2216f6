/**
 * Realistic values of a Spanish energy retailer's customer data (the domain of the canonical
 * fixtures): addresses whose postal code, locality and province agree, people with two family
 * names and a DNI, CUPS supply point codes of real distributors, tariffs and their powers.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { cupsCheckLetters, dni } from '../core/domain/spanish-identifiers.js';
import type { SupplyType } from '../core/spec/index.js';
import { orEdge, orTextEdge } from './edges.js';

export type SupplyKind = z.infer<typeof SupplyType>;

interface Locality {
  name: string;
  /** First and last real postal code of the locality. */
  postal: readonly [number, number];
}

interface Province {
  name: string;
  localities: readonly Locality[];
}

/** Postal codes start with the province's INE number (28 Madrid, 08 Barcelona, …). */
const PROVINCES: readonly Province[] = [
  {
    name: 'Madrid',
    localities: [
      { name: 'Madrid', postal: [28001, 28055] },
      { name: 'Alcalá de Henares', postal: [28801, 28807] },
      { name: 'Getafe', postal: [28901, 28909] },
      { name: 'Móstoles', postal: [28931, 28938] },
    ],
  },
  {
    name: 'Barcelona',
    localities: [
      { name: 'Barcelona', postal: [8001, 8042] },
      { name: "L'Hospitalet de Llobregat", postal: [8901, 8908] },
      { name: 'Badalona', postal: [8911, 8918] },
      { name: 'Sabadell', postal: [8201, 8208] },
    ],
  },
  {
    name: 'Valencia',
    localities: [
      { name: 'Valencia', postal: [46001, 46026] },
      { name: 'Torrent', postal: [46900, 46902] },
      { name: 'Gandia', postal: [46700, 46702] },
    ],
  },
  {
    name: 'Sevilla',
    localities: [
      { name: 'Sevilla', postal: [41001, 41020] },
      { name: 'Dos Hermanas', postal: [41700, 41704] },
    ],
  },
  {
    name: 'Bizkaia',
    localities: [
      { name: 'Bilbao', postal: [48001, 48015] },
      { name: 'Barakaldo', postal: [48900, 48903] },
      { name: 'Getxo', postal: [48990, 48993] },
    ],
  },
  {
    name: 'Málaga',
    localities: [
      { name: 'Málaga', postal: [29001, 29018] },
      { name: 'Marbella', postal: [29600, 29604] },
    ],
  },
  { name: 'Zaragoza', localities: [{ name: 'Zaragoza', postal: [50001, 50021] }] },
  {
    name: 'Alicante',
    localities: [
      { name: 'Alicante', postal: [3001, 3016] },
      { name: 'Elche', postal: [3201, 3208] },
    ],
  },
  {
    name: 'Murcia',
    localities: [
      { name: 'Murcia', postal: [30001, 30012] },
      { name: 'Cartagena', postal: [30201, 30205] },
    ],
  },
  {
    name: 'A Coruña',
    localities: [
      { name: 'A Coruña', postal: [15001, 15011] },
      { name: 'Santiago de Compostela', postal: [15701, 15707] },
    ],
  },
  {
    name: 'Asturias',
    localities: [
      { name: 'Oviedo', postal: [33001, 33013] },
      { name: 'Gijón', postal: [33201, 33213] },
    ],
  },
  { name: 'Illes Balears', localities: [{ name: 'Palma', postal: [7001, 7015] }] },
];

/**
 * Provinces whose postal codes start with 0 and are not among the typical ones: a code read as a
 * number loses its first digit. Vitoria-Gasteiz has the lowest code in Spain.
 */
const LEADING_ZERO_PROVINCES: readonly Province[] = [
  { name: 'Araba/Álava', localities: [{ name: 'Vitoria-Gasteiz', postal: [1001, 1015] }] },
  { name: 'Almería', localities: [{ name: 'Almería', postal: [4001, 4009] }] },
  { name: 'Ávila', localities: [{ name: 'Ávila', postal: [5001, 5005] }] },
  { name: 'Badajoz', localities: [{ name: 'Mérida', postal: [6800, 6808] }] },
  { name: 'Burgos', localities: [{ name: 'Burgos', postal: [9001, 9007] }] },
];

/** The two-digit postal prefix of each province, for checking generated addresses. */
export const POSTAL_PREFIX: Readonly<Record<string, string>> = Object.fromEntries(
  [...PROVINCES, ...LEADING_ZERO_PROVINCES].map((p) => [
    p.name,
    String(p.localities[0].postal[0]).padStart(5, '0').slice(0, 2),
  ]),
);

export type Place = {
  locality: string;
  administrative_area: string;
  postal_code: string;
  country: string;
};

const placeIn = (provinces: readonly Province[]): fc.Arbitrary<Place> =>
  fc
    .constantFrom(...provinces)
    .chain((province) => fc.constantFrom(...province.localities).map((locality) => ({ province, locality })))
    .chain(({ province, locality }) =>
      fc.integer({ min: locality.postal[0], max: locality.postal[1] }).map((code) => ({
        locality: locality.name,
        administrative_area: province.name,
        postal_code: String(code).padStart(5, '0'),
        country: 'ES',
      })),
    );

/** A real place; once in five one whose postal code starts with 0 (generators/edges.ts). */
export const place: fc.Arbitrary<Place> = orEdge(placeIn(PROVINCES), placeIn(LEADING_ZERO_PROVINCES));

const STREET_TYPES = ['CALLE', 'AVENIDA', 'PLAZA', 'PASEO', 'RONDA', 'TRAVESIA'];
const STREET_NAMES = [
  'Arenal',
  'Mayor',
  'Alcalá',
  'Colón',
  'Caballeros',
  'Sagasta',
  'Cervantes',
  'Real',
  'San Fernando',
  'Goya',
  'Constitución',
  'Libertad',
  'Gran Vía',
  'Reyes Católicos',
  'Santa Clara',
];
const EXTRA_INFO = [
  'Junto a la farmacia',
  'Edificio con patio interior, acceso por portal principal',
  'Portero automático averiado, llamar al móvil',
  'Contador en el cuarto de instalaciones del sótano',
  'Acceso por la calle trasera',
];

export type Street = {
  street_type: string;
  street_name: string;
  street_number: string;
  door: string;
  floor: string;
  gate: string;
  stair: string;
  block: string;
  address_extra_info: string;
};

export const STREET_FIELDS: readonly (keyof Street)[] = [
  'street_type',
  'street_name',
  'street_number',
  'door',
  'floor',
  'gate',
  'stair',
  'block',
  'address_extra_info',
];

export const street: fc.Arbitrary<Street> = fc.record({
  street_type: fc.constantFrom(...STREET_TYPES),
  street_name: fc.constantFrom(...STREET_NAMES),
  street_number: fc.integer({ min: 1, max: 160 }).map(String),
  door: fc.constantFrom('A', 'B', 'C', 'D', '1', '2', '3', '4', 'IZQ', 'DCHA'),
  floor: fc.integer({ min: 1, max: 12 }).map(String),
  gate: fc.constantFrom('1', '2'),
  stair: fc.constantFrom('1', '2', 'A', 'B'),
  block: fc.constantFrom('A', 'B', '1', '2'),
  address_extra_info: fc.constantFrom(...EXTRA_INFO).chain(orTextEdge),
});

const STREET_WORDS: Readonly<Record<string, string>> = {
  CALLE: 'Calle',
  AVENIDA: 'Avenida',
  PLAZA: 'Plaza',
  PASEO: 'Paseo',
  RONDA: 'Ronda',
  TRAVESIA: 'Travesía',
};

/** One postal line, as the fixtures write it: `Calle Arenal 14, Bloque A, Escalera 2, 3º B`. */
export function addressLine(s: Partial<Street>): string | undefined {
  if (s.street_name === undefined) return undefined;
  const parts = [
    [STREET_WORDS[s.street_type ?? ''] ?? s.street_type, s.street_name, s.street_number].filter(Boolean).join(' '),
  ];
  if (s.block !== undefined) parts.push(`Bloque ${s.block}`);
  if (s.stair !== undefined) parts.push(`Escalera ${s.stair}`);
  if (s.floor !== undefined) parts.push([`${s.floor}º`, s.door].filter(Boolean).join(' '));
  return parts.join(', ');
}

const GIVEN_NAMES = [
  'Lucía',
  'Javier',
  'Carmen',
  'María',
  'José',
  'Antonio',
  'Laura',
  'Pablo',
  'Marta',
  'Daniel',
  'Ana',
  'David',
  'Isabel',
  'Sergio',
  'Elena',
  'Alejandro',
  'Paula',
  'Manuel',
  'Cristina',
  'Jorge',
  'Nuria',
  'Iker',
  'Ainhoa',
  'Jordi',
  'Montserrat',
];
const FAMILY_NAMES = [
  'García',
  'Martínez',
  'López',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Álvarez',
  'Muñoz',
  'Romero',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Serrano',
  'Molina',
  'Castro',
  'Etxeberria',
  'Puig',
  'Ferrer',
];

/** A Spanish person: a given name and two family names (father's, then mother's). */
export interface Person {
  given: string;
  first: string;
  second: string;
}

export const person: fc.Arbitrary<Person> = fc.record({
  given: fc.constantFrom(...GIVEN_NAMES),
  first: fc.constantFrom(...FAMILY_NAMES),
  second: fc.constantFrom(...FAMILY_NAMES),
});

export const fullName = (p: Person): string => `${p.given} ${p.first} ${p.second}`;

const ascii = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** `lucia.garcia@example.com`; `n` tells apart people of one account who share a name. */
export const emailOf = (p: Person, n: number): string =>
  `${ascii(p.given)}.${ascii(p.first)}${n > 0 ? n + 1 : ''}@${['example.com', 'example.org', 'example.net'][n % 3]}`;

const grouped = (prefix: string, rest: number): string => {
  const digits = `${prefix}${String(rest).padStart(9 - prefix.length, '0')}`;
  return `+34 ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
};

/**
 * Once in five a number written as people also write it: the country code after the `00`
 * international prefix (`0034 612 345 678`), or the nine digits alone (`612345678`).
 */
const spelledOtherwise = (typical: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  orEdge(
    typical,
    fc
      .tuple(typical, fc.boolean())
      .map(([number, international]) =>
        international ? number.replace('+', '00') : number.slice(4).replace(/ /g, ''),
      ),
  );

/** Spanish mobile numbers start with 6 or 7, landlines with 9 (91 Madrid, 93 Barcelona, …). */
export const mobile: fc.Arbitrary<string> = spelledOtherwise(
  fc.tuple(fc.constantFrom('6', '7'), fc.integer({ min: 0, max: 99_999_999 })).map(([p, n]) => grouped(p, n)),
);
export const landline: fc.Arbitrary<string> = spelledOtherwise(
  fc
    .tuple(fc.constantFrom('91', '93', '96', '95', '94', '98', '976'), fc.integer({ min: 0, max: 9_999_999 }))
    .map(([p, n]) => grouped(p, n % 10 ** (9 - p.length))),
);

/** A DNI; `n` keeps the people of one account apart even when shrinking makes the draws equal. */
export const dniArb = (n: number): fc.Arbitrary<string> =>
  fc.integer({ min: 10_000_000, max: 79_999_999 }).map((base) => dni(base + n));

/** What an electricity or gas supply looks like in Spain. */
export interface SupplyProfile {
  /** REE codes of real distributors: i-DE, e-distribución, UFD; Nedgia, Madrileña Red de Gas. */
  distributors: readonly string[];
  tariffs: readonly string[];
  meterPrefixes: readonly string[];
}

export const SUPPLY: Readonly<Record<SupplyKind, SupplyProfile>> = {
  ELECTRICITY: {
    distributors: ['0021', '0031', '0026'],
    tariffs: ['2.0TD', '3.0TD'],
    meterPrefixes: ['ZIV', 'CIR', 'SAG', 'ORB'],
  },
  GAS: {
    distributors: ['0230', '0234'],
    tariffs: ['RL.1', 'RL.2', 'RL.3', 'RL.4'],
    meterPrefixes: ['G4-ELS-', 'G6-ITR-'],
  },
};

/** `ES` + 16 digits (distributor first) + the two check letters. */
export function cups(distributor: string, twelveDigits: string): string {
  const digits = `${distributor}${twelveDigits}`;
  return `ES${digits}${cupsCheckLetters(digits)}`;
}

/** Yearly consumption in kWh of each tariff, as its band defines it (RL.1 up to 5,000 kWh, …). */
export const ANNUAL_CONSUMPTION: Readonly<Record<string, readonly [number, number]>> = {
  '2.0TD': [1_500, 6_000],
  '3.0TD': [20_000, 120_000],
  'RL.1': [1_000, 5_000],
  'RL.2': [5_001, 15_000],
  'RL.3': [15_001, 50_000],
  'RL.4': [50_001, 300_000],
};

/**
 * Contracted power per period in watts. 2.0TD contracts two periods (punta, valle); 3.0TD six,
 * each at least the one before; gas contracts no power.
 */
export function maxPower(tariff: string): fc.Arbitrary<number[]> {
  if (tariff === '2.0TD') return fc.constantFrom(3450, 4600, 5750, 6900, 9200).map((w) => [w, w, 0, 0, 0, 0]);
  if (tariff === '3.0TD') {
    return fc
      .array(fc.integer({ min: 15, max: 50 }), { minLength: 6, maxLength: 6 })
      .map((kw) => kw.sort((a, b) => a - b).map((k) => k * 1000));
  }
  return fc.constant([0, 0, 0, 0, 0, 0]);
}

/** A number of euros with at most two decimals, from a whole number of cents. */
export const euros = (minCents: number, maxCents: number): fc.Arbitrary<number> =>
  fc.integer({ min: minCents, max: maxCents }).map((c) => c / 100);

export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Notes an agent writes on a migrated account; distinct, so one payload never repeats a body. */
export const NOTE_BODIES = [
  'Cliente migrado desde el sistema anterior; prefiere que se le contacte por correo electrónico.',
  'La titular llama para confirmar la lectura del contador de junio.',
  'Revisión periódica de la instalación de gas realizada sin incidencias.',
  'El cliente solicita recibir una copia en papel de la próxima factura.',
  'Recibida copia del DNI de la titular para el cambio de titularidad.',
  'Acordado un plan de pagos de tres meses para la deuda pendiente.',
  'El cliente comunica que la vivienda estará vacía durante el verano.',
  'Solicitada la revisión de la potencia contratada tras la instalación de la aerotermia.',
] as const;

export const DOCUMENT_NAMES = [
  'contrato.pdf',
  'dni-titular.pdf',
  'autorizacion-sepa.pdf',
  'certificado-instalacion.pdf',
] as const;

export const COMPANY_NAMES = [
  'Acme Servicios Integrales',
  'Hostelería del Sur',
  'Talleres Mecánicos Iruña',
  'Panadería Hermanos Ruiz',
  'Construcciones Levante',
  'Clínica Dental Sonrisa',
] as const;

/** A CIF of a limited company (`B`, seven digits and the check digit, as the tax agency computes it). */
export function cif(sevenDigits: number): string {
  const digits = String(sevenDigits).padStart(7, '0');
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(digits[i]);
    if (i % 2 === 1) sum += d;
    else sum += Math.floor((d * 2) / 10) + ((d * 2) % 10);
  }
  return `B${digits}${(10 - (sum % 10)) % 10}`;
}

/** Estimated monthly fee in cents of each tariff, for a household or small business. */
export const MONTHLY_FEE_CENTS: Readonly<Record<string, readonly [number, number]>> = {
  '2.0TD': [3_000, 12_000],
  '3.0TD': [20_000, 90_000],
  'RL.1': [1_500, 4_000],
  'RL.2': [4_000, 9_000],
  'RL.3': [9_000, 25_000],
  'RL.4': [25_000, 120_000],
};
