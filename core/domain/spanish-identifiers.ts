/**
 * Spanish identifiers the data carries (§2.3: fiscal codes in user_details, supply point
 * identifiers): their check letters, shared by the generators and the run's namespaced ids.
 */

/** The control-letter table of the DNI (mod 23), which CUPS check letters use as well. */
const CONTROL_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** CUPS check letters: the 16 digits mod 529, split into two base-23 letters (RD 1164/2001 practice). */
export function cupsCheckLetters(digits16: string): string {
  const r = Number(BigInt(digits16) % 529n);
  return CONTROL_LETTERS[Math.floor(r / 23)] + CONTROL_LETTERS[r % 23];
}

/** A Spanish DNI for a number: eight digits and the control letter. */
export function dni(n: number): string {
  const digits = String(n % 100_000_000).padStart(8, '0');
  return digits + CONTROL_LETTERS[Number(digits) % 23];
}
