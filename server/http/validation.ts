import type { FastifySchemaCompiler } from 'fastify'
import type { z } from 'zod'
import { describeIssues, requestErrorMap } from '../../shared/contract/issues'

/** A request the contract refuses: the message names each bad field. */
export class RequestValidationError extends Error {
  override name = 'RequestValidationError'
  readonly statusCode = 400
  readonly code = 'FST_ERR_VALIDATION'
}

const PARTS: Record<string, string> = {
  querystring: 'query',
  body: 'body',
  params: 'params',
  headers: 'headers',
}

/** Validates each request part with the contract's zod schema, before any handler runs. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const result = schema.safeParse(data, { error: requestErrorMap })
    if (result.success) return { value: result.data }
    return { error: new RequestValidationError(describeIssues(result.error.issues, PARTS[httpPart ?? ''])) }
  }
