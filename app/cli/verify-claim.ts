/** `conformance verify-claim DIR`: a conformance claim checked offline. */
import { shown } from '../../reports/terminal.js';
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';

export const VERIFY_CLAIM_HELP = `Usage: conformance verify-claim DIR

Checks a conformance claim (made by "conformance claim" or "conformance --claim DIR") offline,
from its own files and the spec this suite ships:
  - digests: SHA256SUMS lists every file of DIR, each with its SHA-256; none missing, none extra;
  - the spec: the SHA-256 statement.json gives is the claim's spec copy's and the shipped spec's;
  - statement.json against reports/report.json: each rule's verdict, the counts, the target, seed
    and selection, and the overall verdict worked out again from the rules with the runner's own
    counting; report.json's summary against its rules;
  - the files: only those a run writes into a claim (any other is named, never read);
  - the suite: the claim names this suite's version; every rule its selection selects from this
    suite's catalogue is in report.json, none other, each at the catalogue's level;
  - the target: every exchange the run sent to the interface went to the target the claim names,
    and a claim of the embedded reference server says so in the verdict line;
  - a rule that passes keeps no exchange whole where the run cut the others to one line (only a
    failing or errored rule keeps bodies without --full-transcripts);
  - the traffic: every exchange a transcript in report.json keeps is in traffic.har, among the
    exchanges its rule sent, with the same method, URL, status and size, and the same bodies where
    the report keeps them (so a claimed failure is visible in it, and a deleted or edited exchange
    is caught); and traffic.har judged again by the traffic checks (as check-traffic judges a
    run's HAR, against the server only) shows no statement broken that the verdict says holds.

It proves that the claim is consistent and that its verdicts follow from its recorded traffic as
far as the traffic checks can judge. It is no signature: anyone can build a consistent claim for
a server they never tested. Bodies of passing rules are compared only when the run kept them
(--full-transcripts).

Every file is read as untrusted: a regular file only, never through a link, at most 256 MiB, JSON
nested at most 100 levels. Prints "claim consistent" (exit 0) or each disagreement (exit 1); a
directory that is not a claim (statement.json, report.json, traffic.har or SHA256SUMS missing,
malformed, a link, a FIFO or a device) or that cannot be checked is exit 2, naming the file.`;

async function verify(argv: string[]): Promise<number> {
  const { positionals } = parseCommandLine(argv, {}, 'verify-claim', true);
  if (positionals.length !== 1) throw new UsageError('Name one claim directory to check.', 'verify-claim');
  const [dir] = positionals;
  const [{ verifyClaim, ClaimFormatError, shownDisagreements }, { terminalSafe }, { allRules }, { targetShown }] =
    await Promise.all([
      import('../claim/verify.js'),
      import('../../reports/terminal.js'),
      import('../../suites/index.js'),
      import('../claim/against-suite.js'),
    ]);
  let outcome: ReturnType<typeof verifyClaim>;
  try {
    outcome = verifyClaim(dir, allRules);
  } catch (error) {
    if (error instanceof ClaimFormatError)
      throw new UsageError(`${shown(dir, 512)} is not a readable claim: ${shown(error.message, 2048)}`, 'verify-claim');
    // A claim is someone else's input: whatever it makes go wrong is said as a claim that cannot be
    // checked (exit 2), never as a stack trace or as exit 1, which means "inconsistent".
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new UsageError(`${shown(dir, 512)} cannot be checked: ${shown(why, 512)}`, 'verify-claim');
  }
  const { disagreements, statement } = outcome;
  if (disagreements.length) {
    console.log(terminalSafe(`claim inconsistent: ${disagreements.length} disagreement(s) in ${shown(dir, 512)}`));
    for (const d of shownDisagreements(disagreements)) console.log(terminalSafe(`  ${shown(d, 4096)}`));
    return EXIT.MUST_FAILURES;
  }
  const must = statement.counts.MUST;
  console.log(
    terminalSafe(
      `claim consistent: ${statement.verdict} (MUST: ${must.pass} passed, ${must.fail} failed, ${must.skip + must.error} not judged) — ${shown(targetShown(statement.target), 600)}, suite ${shown(statement.suite.version, 64)}, seed ${statement.run.seed}`,
    ),
  );
  return EXIT.OK;
}

export const verifyClaimCommand: Command = { help: VERIFY_CLAIM_HELP, run: verify };
