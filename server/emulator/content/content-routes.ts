import type { Config } from '@server/config'
import { notFound } from '@server/http/api-error'
import { bytesRoute, contractRoute } from '@server/http/contract-route'
import { announcement } from '@shared/contract/account'
import {
  activityDetail,
  activityImages,
  activityList,
  contentImage,
  networkHelp,
  newbieGuide,
  ping,
  prizePool,
  serviceInfo,
  studyArticles,
  thirdPartyPages,
} from '@shared/contract/content'
import type { FastifyInstance } from 'fastify'
import type { EmuClock } from '../clock'
import type { ContentService } from './content-service'

/** An image we serve can never run anything, even an SVG opened on its own. */
const IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

/** Announcements, activities, content pages, the prize pool, the third-party list, and the content images. */
export async function contentRoutes(
  app: FastifyInstance,
  opts: { config: Config; content: ContentService; clock: EmuClock },
): Promise<void> {
  const { config, content: service, clock } = opts
  const { content } = service

  contractRoute(app, announcement, () => ({ list: service.announcements.list(clock.now()) }))

  contractRoute(app, activityList, () => service.activities())
  contractRoute(app, activityDetail, ({ query }) => service.activity(query.id))
  contractRoute(app, activityImages, ({ query }) => service.images(query.id))
  contractRoute(app, prizePool, () => service.prizePool())
  contractRoute(app, newbieGuide, () => ({ list: content.newbie }))
  contractRoute(app, studyArticles, () => ({ list: content.study }))
  contractRoute(app, networkHelp, () => ({
    list: content.network,
    ping_path: ping.path,
    ...content.networkSpeed,
  }))
  contractRoute(app, ping, () => ({ server_time: clock.now() }))
  contractRoute(app, serviceInfo, () => ({
    app_url: content.service.app_url,
    web_url: content.service.web_url,
    hours: content.service.hours,
    faq: content.service.faq_html.map((f, i) => ({ id: i + 1, ...f })),
  }))

  // Only pages whose origin the configuration allows: the same list feeds CSP frame-src.
  const allowed = new Set(config.THIRD_PARTY_ORIGINS)
  const thirdParty = content.thirdParty
    .map((p) => ({ ...p, origin: new URL(p.url).origin }))
    .filter((p) => allowed.has(p.origin))
  contractRoute(app, thirdPartyPages, () => ({ list: thirdParty }))

  bytesRoute(app, contentImage, async ({ params: { file }, reply }) => {
    const image = content.images.get(file)
    if (!image) throw notFound('图片不存在')
    return reply
      .header('content-type', image.contentType)
      .header('content-security-policy', IMAGE_CSP)
      .header('cache-control', 'public, max-age=3600')
      .send(image.body)
  })
}
