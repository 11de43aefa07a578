import { imageProxy } from '@shared/contract/content'
import { CODE } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config'
import { bytesRoute } from '../http/contract-route'
import { failure } from '../http/envelope'
import { isPublicAddress } from '../image-proxy/address-policy'
import {
  fetchImage,
  type ProxyPolicy,
  ProxyRefusal,
  parseHostList,
  systemResolve,
} from '../image-proxy/fetch-image'

const MINUTE = 60_000
const CODE_OF_STATUS: Record<number, number> = {
  400: CODE.invalidInput,
  403: CODE.failed,
  413: CODE.payloadTooLarge,
  415: CODE.invalidInput,
}

export interface ImageProxyOptions {
  readonly config: Config
  /**
   * Tests only: replace the address rule or the resolver (e.g. to let a test server on
   * 127.0.0.1 be reached). The app never passes these, so production always refuses
   * non-public addresses.
   */
  readonly overrides?: Partial<Pick<ProxyPolicy, 'isAllowedAddress' | 'resolve'>>
}

/**
 * The screenshot helper's image proxy (html2canvas's `proxy` protocol), in both modes. Only
 * allow-listed hosts, only raster images, within size and time limits; never an open proxy.
 */
export async function imageProxyRoutes(app: FastifyInstance, opts: ImageProxyOptions): Promise<void> {
  const { config } = opts
  const policy: ProxyPolicy = {
    hosts: parseHostList(config.IMAGE_PROXY_HOSTS),
    maxBytes: config.IMAGE_PROXY_MAX_BYTES,
    timeoutMs: config.IMAGE_PROXY_TIMEOUT_MS,
    maxRedirects: config.IMAGE_PROXY_MAX_REDIRECTS,
    allowHttp: config.IMAGE_PROXY_ALLOW_HTTP,
    isAllowedAddress: isPublicAddress,
    resolve: systemResolve,
    ...opts.overrides,
  }

  bytesRoute(
    app,
    imageProxy,
    async ({ query, request, reply }) => {
      const { url, responseType } = query
      try {
        const image = await fetchImage(url, policy)
        reply
          .header('cache-control', 'private, max-age=600')
          .header('content-security-policy', "default-src 'none'; sandbox")
        if (responseType === 'text') {
          return reply
            .type('text/plain; charset=utf-8')
            .send(`data:${image.type};base64,${image.body.toString('base64')}`)
        }
        return reply.type(image.type).send(image.body)
      } catch (err) {
        if (!(err instanceof ProxyRefusal)) throw err
        request.log.info({ reason: err.message, status: err.status }, 'image proxy refused')
        return reply.code(err.status).send(failure(CODE_OF_STATUS[err.status] ?? CODE.failed, err.message))
      }
    },
    // Open: public pictures from allowed hosts, each bounded in size and time (docs/deploy.md).
    { rateLimit: { max: config.RATE_LIMIT_IMAGE_PROXY, timeWindow: MINUTE, whenStoreDown: 'open' } },
  )
}
