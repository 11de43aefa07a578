import type { Socket } from 'node:net'
import { CODE } from '@shared/envelope'
import { SERVER_MSG } from '@shared/messages'
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { API_HEADERS } from '../plugins/security'
import { ApiError } from './api-error'
import { failure } from './envelope'
import { rawHead } from './raw-head'

/** Fastify's and its plugins' client errors, each turned into a clear message. */
const CLIENT_ERRORS: Record<string, { code: number; msg: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: CODE.payloadTooLarge, msg: SERVER_MSG.payloadTooLarge },
  FST_REQ_FILE_TOO_LARGE: { code: CODE.payloadTooLarge, msg: SERVER_MSG.payloadTooLarge },
  FST_PARTS_LIMIT: { code: CODE.payloadTooLarge, msg: '表单字段过多' },
  FST_FILES_LIMIT: { code: CODE.invalidInput, msg: '不支持上传文件' },
  FST_FIELDS_LIMIT: { code: CODE.payloadTooLarge, msg: '表单字段过多' },
  FST_PROTO_VIOLATION: { code: CODE.invalidInput, msg: '请求体格式错误' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: CODE.invalidInput, msg: '请求体应为 multipart/form-data' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: CODE.invalidInput, msg: '不支持的请求体类型' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: CODE.invalidInput, msg: '请求体长度不正确' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: CODE.invalidInput, msg: '请求体不能为空' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: CODE.invalidInput, msg: '请求体不是有效的 JSON' },
}

declare module 'fastify' {
  interface FastifyRequest {
    /** A multipart body is being read (see contractRoute): an error now is the body's. */
    readingMultipart: boolean
  }
}

/** The multipart reader's complaint in the players' language, where it is one of the usual ones. */
function multipartProblem(message: string): string {
  if (/boundary not found/i.test(message)) return '缺少 boundary'
  if (/unexpected end/i.test(message)) return '数据不完整'
  if (/malformed/i.test(message)) return '分段头格式错误'
  return message
}

/** The one error handler: every failure is answered in the envelope, and no stack ever leaves the server. */
export function installErrorHandler(app: FastifyInstance): void {
  app.decorateRequest('readingMultipart', false)
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.code(error.statusCode).send(failure(error.code, error.message))
    }
    if (error.code === 'FST_ERR_VALIDATION') {
      return reply.code(400).send(failure(CODE.invalidInput, error.message))
    }
    const known = error.code ? CLIENT_ERRORS[error.code] : undefined
    const status = error.statusCode ?? 500
    if (known)
      return reply.code(status >= 400 && status < 500 ? status : 400).send(failure(known.code, known.msg))
    if (request.readingMultipart && error.statusCode === undefined) {
      // The multipart reader's own errors (no boundary, a cut-off body, a broken part header) are the
      // sender's: a 400 naming the problem, logged as a refusal without a stack.
      request.log.warn({ reason: error.message }, 'malformed multipart body')
      return reply
        .code(400)
        .send(failure(CODE.invalidInput, `请求体格式错误（multipart：${multipartProblem(error.message)}）`))
    }
    if (status === 429)
      return reply.code(429).send(failure(CODE.rateLimited, error.message || SERVER_MSG.rateLimited))
    if (status === 413) return reply.code(413).send(failure(CODE.payloadTooLarge, SERVER_MSG.payloadTooLarge))
    if (status === 502 || status === 504) {
      // Proxy mode: the upstream failed or timed out. The client sees the status and a retry hint.
      request.log.error({ err: error }, 'upstream failed')
      return reply.code(status).send(failure(CODE.internal, SERVER_MSG.internal))
    }
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error')
      return reply.code(status).send(failure(CODE.invalidInput, SERVER_MSG.invalidInput))
    }
    request.log.error({ err: error }, 'unexpected error')
    return reply.code(500).send(failure(CODE.internal, SERVER_MSG.internal))
  })
}

/** What Node refuses before any request exists (see clientErrorHandler), each with its status and message. */
function connectionRefusal(err: ConnectionError): { status: number; msg: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW') return { status: 431, msg: '请求头过大' }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, msg: '请求超时' }
  return { status: 400, msg: '请求格式错误' }
}

/**
 * Fastify's `clientErrorHandler`: a request Node itself cannot read (a bad request line, headers too
 * large, a timeout) is answered in the envelope with the API headers, then the connection closes.
 */
export function clientErrorHandler(this: FastifyInstance, err: ConnectionError, socket: Socket): void {
  // A reset connection is already gone: nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const { status, msg } = connectionRefusal(err)
  this.log.debug({ err }, 'client error before a request')
  if (socket.writable) {
    const body = JSON.stringify(failure(status === 431 ? CODE.payloadTooLarge : CODE.invalidInput, msg))
    socket.write(
      rawHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        ...API_HEADERS,
        connection: 'close',
      }) + body,
    )
  }
  socket.destroy(err)
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode (a broken percent-escape) or a parameter
 * too long, answered in the envelope. Hooks have not run, so the API headers are set here.
 */
export function frameworkErrorHandler(error: FastifyError, _request: unknown, reply: FastifyReply): void {
  reply.log.debug({ err: error }, 'unreadable URL')
  reply.code(400).headers(API_HEADERS).send(failure(CODE.invalidInput, '请求地址格式错误'))
}
