// PostHog answers a refused hard delete (insights, dashboards) with 405 and no body at all.
import type { FastifyReply } from 'fastify';
import { MethodNotAllowedError } from '../errors.js';

/** Runs the refusal (which first checks access: 404 and 403 keep their bodies), then sends an empty 405. */
export async function refusedWithoutBody(reply: FastifyReply, refuse: () => Promise<never>): Promise<FastifyReply> {
  try {
    await refuse();
  } catch (error) {
    if (error instanceof MethodNotAllowedError) return reply.code(405).send();
    throw error;
  }
  return reply.code(405).send();
}
