/** §4.2 historical statements. */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel } from '../../core/spec/index.js';
import { type Handler, isReply, reply, requestOnImportedAccount } from './shared.js';
import { validationError } from '../validation.js';

export const createHistoricalStatements: Handler = (req, env) => {
  const started = requestOnImportedAccount(strictModel.HistoricalStatementsRequest, req, env);
  if (isReply(started)) return started;
  const { request, account } = started;
  if (env.choices.statementPeriodsApart) {
    const overlapping = request.statements.findIndex((s) =>
      account.historicalStatements.some((kept) => overlaps(kept as Period, s)),
    );
    if (overlapping >= 0)
      return validationError([
        {
          attr: `statements.${overlapping}.bill_period_from_date`,
          code: 'overlapping_period',
          detail: 'The account already has a statement for part of this period.',
        },
      ]);
  }
  for (const statement of request.statements) account.historicalStatements.push(statement);
  // §4.2: "body is the validated data; the status code is stated as 201 and also as 200".
  return reply(env.choices.historicalStatementsStatus, request);
};

interface Period {
  bill_period_from_date?: string;
  bill_period_to_date?: string;
}

/** Two bill periods share a day (YYYY-MM-DD compares as text); a period without both ends shares none. */
const overlaps = (a: Period, b: Period) =>
  a.bill_period_from_date !== undefined &&
  a.bill_period_to_date !== undefined &&
  b.bill_period_from_date !== undefined &&
  b.bill_period_to_date !== undefined &&
  a.bill_period_from_date <= b.bill_period_to_date &&
  b.bill_period_from_date <= a.bill_period_to_date;

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createHistoricalStatements } satisfies Partial<Record<EndpointId, Handler>>;
