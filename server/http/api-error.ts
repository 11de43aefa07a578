import { CODE } from '@shared/envelope'
import { MSG, SERVER_MSG } from '@shared/messages'

/** A refusal the client should show: answered as an envelope with this code and message. */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly code: number,
    message: string,
    /** HTTP status of the answer; business refusals keep 200 like the upstream does. */
    readonly statusCode = 200,
  ) {
    super(message)
  }
}

export const fail = (message: string, code: number = CODE.failed) => new ApiError(code, message)
export const sessionExpired = () => new ApiError(CODE.sessionExpired, MSG.sessionExpired)
export const invalidInput = (message: string) => new ApiError(CODE.invalidInput, message, 400)
export const notFound = (message: string = SERVER_MSG.notFound) => new ApiError(CODE.notFound, message, 404)
