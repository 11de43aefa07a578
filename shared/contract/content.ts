import { z } from 'zod'
import { defineBytesEndpoint, defineEndpoint } from './endpoint'
import { idParam, moneyString, paged, pageParams, timestamp } from './fields'

/**
 * Endpoints the upstream's documentation (docs/product.md#calls) leaves out: the rebate (backwater) claim, activities, the prize pool and
 * the content pages. All ours. Every `*_html` field has been sanitised by the server against an
 * allow-list (no script, no event handlers, no javascript: URLs), so the client may render it.
 */

/** The screenshot helper's image proxy (html2canvas `proxy` option). */
export const imageProxy = defineBytesEndpoint({
  id: 'imageProxy',
  method: 'GET',
  path: '/api/image-proxy',
  summary: 'An image from an allow-listed host, for the screenshot helper (html2canvas proxy)',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  query: z.strictObject({
    url: z.string().min(1).max(2048),
    /** html2canvas sends `blob` (answer the bytes) or `text` (answer a data URL as text). */
    responseType: z.enum(['blob', 'text', 'arraybuffer']).optional(),
  }),
  answer: {
    // The raster types the proxy passes on (server/image-proxy/image-type.ts); never SVG.
    types: [
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/avif',
      'image/bmp',
      'image/x-icon',
      'text/plain',
    ],
    description:
      'The image bytes with their type (responseType blob or arraybuffer, or none), or a data URL of them as text/plain (responseType text).',
  },
  refusals: {
    '403': 'A scheme, host or address the proxy may not fetch from (code 0).',
    '413': 'The image is larger than IMAGE_PROXY_MAX_BYTES (code 41300).',
    '415': 'What came back is not a raster image (code 40000).',
    '429': 'Too many calls from this client address (code 42900).',
    '502': 'The image could not be fetched, or too many redirects (code 0).',
    '504': 'Fetching the image took longer than IMAGE_PROXY_TIMEOUT_MS (code 0).',
  },
})
export const IMAGE_PROXY_PATH = imageProxy.path

/** Activity covers and images, served under /api (same origin, so screenshots work). */
export const contentImage = defineBytesEndpoint({
  id: 'contentImage',
  method: 'GET',
  path: '/api/content/images/:file',
  summary: 'An image of the content pages (an activity cover or picture), by file name',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  params: z.strictObject({ file: z.string().max(100) }),
  answer: {
    // The fixtures' image files (server/emulator/content/content-fixtures.ts).
    types: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'],
    description: 'The image bytes with their type.',
  },
  refusals: { '404': 'No image of that name (code 40400).' },
})
/** Where the content images are: `${CONTENT_IMAGES_PATH}/<file>`. */
export const CONTENT_IMAGES_PATH = '/api/content/images'

/** The /api endpoints of this area that answer bytes rather than the envelope. */
export const CONTENT_BYTES_ENDPOINTS = [imageProxy, contentImage] as const

const rateFields = {
  rate_bp: z.number().int(),
  rate: z.string(),
}

export const rebateDaySchema = z.object({
  date: z.string(),
  /** The player's own turnover that day. */
  turnover: moneyString,
  ...rateFields,
  /** Rebate on the own turnover still to be claimed for that day. */
  rebate: moneyString,
  /** The team's turnover that day. */
  team_turnover: moneyString,
  /** Commission on the team turnover still to be claimed for that day. */
  commission: moneyString,
})

export const rebateSummary = defineEndpoint({
  id: 'rebateSummary',
  method: 'GET',
  path: '/api/rebate/summary',
  summary: "Today's turnover, tier and rebate, and what can be claimed now",
  tag: 'rebate',
  source: 'ours',
  fields: 'ours',
  auth: true,
  data: z.object({
    /** Today, the server's local date. */
    date: z.string(),
    today_turnover: moneyString,
    /** Today's tier (0 when today's turnover is below the first tier). */
    today_tier: z.number().int(),
    ...rateFields,
    /** Rebate today's turnover earns so far (claimed or not). */
    today_rebate: moneyString,
    /** Turnover still needed today to reach the next tier, and that tier's rate; null at the top. */
    next_tier: z.object({ tier: z.number().int(), need_turnover: moneyString, ...rateFields }).nullable(),
    /** rebate + commission, unclaimed, over the claim window. */
    claimable: moneyString,
    claimable_rebate: moneyString,
    claimable_commission: moneyString,
    /** One claim a day: true once today's claim is made. */
    claimed_today: z.boolean(),
    claim_window_days: z.number().int(),
    /** Days of the window with something to claim, newest first. */
    days: z.array(rebateDaySchema),
  }),
})

export const rebateClaimSchema = z.object({
  id: z.number().int(),
  /** The local date the claim was made on. */
  claim_date: z.string(),
  amount: moneyString,
  rebate: moneyString,
  commission: moneyString,
  created_at: timestamp,
  /** The turnover days the claim paid for. */
  days: z.array(rebateDaySchema),
})

export const rebateClaim = defineEndpoint({
  id: 'rebateClaim',
  method: 'POST',
  path: '/api/rebate/claim',
  summary:
    'Claim every unclaimed rebate and commission of the window into the balance; once a day (fund flow type rebate)',
  tag: 'rebate',
  source: 'ours',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({}).nullish(),
  /** A retry with the same Idempotency-Key gets the first answer back instead of "already claimed". */
  idempotent: true,
  data: rebateClaimSchema.extend({ balance: moneyString }),
})

export const rebateHistory = defineEndpoint({
  id: 'rebateHistory',
  method: 'GET',
  path: '/api/rebate/history',
  summary: "The player's rebate claims, newest first",
  tag: 'rebate',
  source: 'ours',
  fields: 'ours',
  auth: true,
  query: z.strictObject({ ...pageParams }),
  data: paged(rebateClaimSchema),
})

export const activityStatusSchema = z.enum(['upcoming', 'ongoing', 'ended'])

export const activitySummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  category: z.string(),
  /** Same-origin image URL. */
  cover: z.string(),
  starts_at: timestamp,
  /** null: no end. */
  ends_at: timestamp.nullable(),
  status: activityStatusSchema,
})

export const activityList = defineEndpoint({
  id: 'activityList',
  method: 'GET',
  path: '/api/activities',
  summary: 'Activities: ongoing first, then upcoming, then ended',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({ list: z.array(activitySummarySchema) }),
})

export const activityImageSchema = z.object({
  url: z.string(),
  alt: z.string(),
  activity_id: z.number().int(),
})

export const activityDetail = defineEndpoint({
  id: 'activityDetail',
  method: 'GET',
  path: '/api/activities/detail',
  summary: 'One activity with its sanitised rich content',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  query: z.strictObject({ id: idParam }),
  data: activitySummarySchema.extend({
    content_html: z.string(),
    images: z.array(activityImageSchema),
  }),
})

export const activityImages = defineEndpoint({
  id: 'activityImages',
  method: 'GET',
  path: '/api/activities/images',
  summary: "Activity images: one activity's, or every current activity's when no id is given",
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  query: z.strictObject({ id: idParam.optional() }),
  data: z.object({ list: z.array(activityImageSchema) }),
})

export const prizePool = defineEndpoint({
  id: 'prizePool',
  method: 'GET',
  path: '/api/prize-pool',
  summary: 'The prize pool: its amount (a share of every bet feeds it) and recent winners, names masked',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({
    amount: moneyString,
    /** The share of each stake that goes to the pool. */
    ...rateFields,
    updated_at: timestamp,
    winners: z.array(
      z.object({
        /** Nickname with its middle masked, e.g. 好***号. */
        name: z.string(),
        game: z.string(),
        amount: moneyString,
        won_at: timestamp,
      }),
    ),
  }),
})

const articleSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  category: z.string(),
  content_html: z.string(),
})

export const newbieGuide = defineEndpoint({
  id: 'newbieGuide',
  method: 'GET',
  path: '/api/content/newbie',
  summary: 'The newbie guide, in order',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({ list: z.array(articleSchema) }),
})

export const studyArticles = defineEndpoint({
  id: 'studyArticles',
  method: 'GET',
  path: '/api/content/study',
  summary: 'Study articles (how the games and hashes work), with content',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({ list: z.array(articleSchema) }),
})

export const networkHelp = defineEndpoint({
  id: 'networkHelp',
  method: 'GET',
  path: '/api/content/network-help',
  summary: 'The network help page: connection guide and the path to time round trips with',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({
    list: z.array(articleSchema),
    /** GET this path (no auth, tiny answer) to measure the round trip. */
    ping_path: z.string(),
    /** Round trips at or under these are shown as good / fair; above, as poor. */
    good_ms: z.number().int(),
    fair_ms: z.number().int(),
  }),
})

export const ping = defineEndpoint({
  id: 'ping',
  method: 'GET',
  path: '/api/content/ping',
  summary: 'A tiny answer for measuring the round trip to the server',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({ server_time: timestamp }),
})

export const serviceInfo = defineEndpoint({
  id: 'serviceInfo',
  method: 'GET',
  path: '/api/content/service',
  summary: 'Customer service: the chat deep link, its web fallback, and the FAQ',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({
    /** Opens the messenger app (iPhone, iPad, Android); fall back to web_url after 2000 ms. */
    app_url: z.string(),
    web_url: z.string(),
    hours: z.string(),
    faq: z.array(z.object({ id: z.number().int(), question: z.string(), answer_html: z.string() })),
  }),
})

export const thirdPartyPages = defineEndpoint({
  id: 'thirdPartyPages',
  method: 'GET',
  path: '/api/content/third-party',
  summary: 'Third-party pages /third may show in a frame; anything else is refused',
  tag: 'content',
  source: 'ours',
  fields: 'ours',
  auth: false,
  data: z.object({
    list: z.array(
      z.object({
        /** /third?key=… names a page by this key. */
        key: z.string(),
        title: z.string(),
        url: z.string(),
        origin: z.string(),
      }),
    ),
  }),
})

export const CONTENT_ENDPOINTS = [
  rebateSummary,
  rebateClaim,
  rebateHistory,
  activityList,
  activityDetail,
  activityImages,
  prizePool,
  newbieGuide,
  studyArticles,
  networkHelp,
  ping,
  serviceInfo,
  thirdPartyPages,
] as const
