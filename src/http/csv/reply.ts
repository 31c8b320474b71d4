// `format=csv` (or a `.csv` suffix) on the insight endpoints: the JSON body, flattened as
// PostHog's CSV renderer does. Unknown formats are 404, as DRF's format negotiation answers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { stringifyJson } from '../../core/raw-json.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { CsvLimitError, renderFlattenedCsv } from './flatten.js';

export type ResponseFormat = 'json' | 'csv';

export function requestedFormat(request: FastifyRequest, suffixCsv = false): ResponseFormat {
  if (suffixCsv) return 'csv';
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  if (format === undefined || format === 'json') return 'json';
  if (format === 'csv') return 'csv';
  throw new NotFoundError();
}

export function sendCsv(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('text/csv; charset=utf-8').send(text);
}

/** Sends `body` as JSON, or flattened into CSV when that was asked for. */
export function sendFormatted(reply: FastifyReply, format: ResponseFormat, body: unknown, status = 200): FastifyReply {
  // Serialised here once: the views are built field by field already, and their results are
  // free-form JSON that a response schema would only hand to JSON.stringify anyway.
  if (format === 'json') return reply.code(status).type('application/json; charset=utf-8').send(stringifyJson(body));
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
