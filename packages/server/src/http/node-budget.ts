import type { FastifyRequest } from 'fastify';

/**
 * What is left of a request's value limit (`maxBodyNodes`) once its body
 * was counted: a batch's value items spend it on the values their bytes
 * hold, which the body count sees as one `bin` each. Kept beside the
 * request, as the auth scope is.
 */
export interface NodeBudget {
  readonly maxNodes: number;
  remaining: number;
}

const budgets = new WeakMap<FastifyRequest, NodeBudget>();

/** Records what is left after the body parser counted `nodes`. */
export function setNodeBudget(request: FastifyRequest, maxNodes: number, nodes: number): void {
  budgets.set(request, { maxNodes, remaining: maxNodes - nodes });
}

/** The request's budget; unlimited when no parser counted its body (JSON carries no value item bytes). */
export function nodeBudgetOf(request: FastifyRequest): NodeBudget {
  return budgets.get(request) ?? { maxNodes: Number.POSITIVE_INFINITY, remaining: Number.POSITIVE_INFINITY };
}
