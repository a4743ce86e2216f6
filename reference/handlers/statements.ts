/** §4.2 historical statements. */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel } from '../../core/spec/index.js';
import { type Handler, isReply, reply, requestOnImportedAccount } from './shared.js';

export const createHistoricalStatements: Handler = (req, env) => {
  const started = requestOnImportedAccount(strictModel.HistoricalStatementsRequest, req, env);
  if (isReply(started)) return started;
  const { request, account } = started;
  for (const statement of request.statements) account.historicalStatements.push(statement);
  // §4.2: "body is the validated data; the status code is stated as 201 and also as 200".
  return reply(env.choices.historicalStatementsStatus, request);
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createHistoricalStatements } satisfies Partial<Record<EndpointId, Handler>>;
