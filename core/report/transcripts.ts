/**
 * How much of a rule's exchanges a report keeps: decided in the engine, which trims each rule's
 * transcript as soon as the rule ends (core/engine/transcripts.ts).
 */
export { MAX_BRIEF, REPORT_BODY_LIMIT, reportTranscript } from '../engine/transcripts.js';
