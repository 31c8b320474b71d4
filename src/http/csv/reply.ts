// `format=csv` (or a `.csv` suffix) on the insight endpoints: the JSON body, flattened as
// PostHog's CSV renderer does. Unknown formats are 404, as DRF's format negotiation answers.
import type { FastifyReply } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors.js';
import { CsvLimitError, renderFlattenedCsv } from './flatten.js';

export type ResponseFormat = 'json' | 'csv';

/** The answer's format from `?format=` (or a `.csv` suffix on the path). */
export function requestedFormat(format: string | undefined, suffixCsv = false): ResponseFormat {
  if (suffixCsv) return 'csv';
  if (format === undefined || format === 'json') return 'json';
  if (format === 'csv') return 'csv';
  throw new NotFoundError();
}

export function sendCsv(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('text/csv; charset=utf-8').send(text);
}

/** Sends the JSON body that `format=csv` asked for, flattened into CSV. */
export function sendFlattenedCsv(reply: FastifyReply, body: unknown, status = 200): FastifyReply {
  try {
    return sendCsv(reply.code(status), renderFlattenedCsv(body));
  } catch (error) {
    if (error instanceof CsvLimitError) throw new ValidationError(error.message, 'format');
    throw error;
  }
}

/** `12.csv` → {id: '12', csv: true}. */
export function splitCsvSuffix(idParam: string): { id: string; csv: boolean } {
  return idParam.endsWith('.csv') ? { id: idParam.slice(0, -4), csv: true } : { id: idParam, csv: false };
}
