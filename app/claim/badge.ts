/**
 * badge.svg: the claim's verdict and MUST counts in a small flat badge, for a README or a release
 * page. Written by hand (two boxes, two texts); every text is escaped, though all of it is the
 * suite's own words and numbers.
 */
import { escape as escapeXml } from 'html-escaper';
import type { CountsT } from '../../core/report/schema.js';
import type { ClaimVerdict } from './verdict.js';

const COLOURS: Record<ClaimVerdict, string> = {
  conformant: '#2e7d32',
  'conformant for what is implemented': '#558b2f',
  incomplete: '#b26a00',
  'not conformant': '#c62828',
};

/** The badge's right-hand text: the verdict, then MUST passed of all, and failures and unjudged if any. */
export function badgeText(verdict: ClaimVerdict, must: CountsT): string {
  const total = must.pass + must.fail + must.skip + must.error;
  const extra = [
    must.fail ? `${must.fail} failed` : '',
    must.error + must.skip ? `${must.error + must.skip} not judged` : '',
  ].filter(Boolean);
  return `${verdict} · MUST ${must.pass}/${total} passed${extra.length ? `, ${extra.join(', ')}` : ''}`;
}

/** Width of a text in the badge's 11px sans-serif, roughly: enough that it never overflows. */
const widthOf = (text: string) => Math.ceil(text.length * 6.6) + 12;

export function badgeSvg(verdict: ClaimVerdict, must: CountsT): string {
  const left = 'conformance claim';
  const right = badgeText(verdict, must);
  const [lw, rw] = [widthOf(left), widthOf(right)];
  const label = `${left}: ${right}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${escapeXml(label)}">
  <title>${escapeXml(label)}</title>
  <rect width="${lw}" height="20" fill="#555"/>
  <rect x="${lw}" width="${rw}" height="20" fill="${COLOURS[verdict]}"/>
  <g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
    <text x="6" y="14">${escapeXml(left)}</text>
    <text x="${lw + 6}" y="14">${escapeXml(right)}</text>
  </g>
</svg>
`;
}
