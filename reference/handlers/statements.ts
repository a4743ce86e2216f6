/** §4.2 historical statements. */
import { strictModel } from '../../src/spec/index.js';
import { type Handler, accountLookedUpFirst, importedAccountOr404, isReply, parseBody, reply } from './shared.js';

export const createHistoricalStatements: Handler = (req, env) => {
  const early = accountLookedUpFirst(req.body, env);
  if (early) return early;
  const request = parseBody(strictModel.HistoricalStatementsRequest, req.body, env);
  if (isReply(request)) return request;
  const account = importedAccountOr404(env, request.import_supplier, request.external_account_number);
  if (isReply(account)) return account;
  for (const statement of request.statements) account.historicalStatements.push(statement);
  // §4.2: "body is the validated data; the status code is stated as 201 and also as 200".
  return reply(env.choices.historicalStatementsStatus, request);
};
