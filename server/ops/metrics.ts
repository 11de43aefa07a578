import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** Seconds buckets for answers: most are a few milliseconds; the tail is what alerts read. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** `2xx`, `4xx`…: answers are counted by class, never by anything a client chose. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`

/**
 * The kind of an envelope code: success, the session lost, the client's fault, the server's or
 * the upstream's fault, or another code (an upstream's own).
 */
export function envelopeClass(code: number | null): string {
  if (code === null) return 'none'
  if (code === 1 || code === 200) return 'success'
  if (code === 10001 || code === 401) return 'session_lost'
  if (code >= 40000 && code < 50000) return 'client_error'
  if (code >= 50000 && code < 60000) return 'server_error'
  return 'other'
}

/** The envelope's code, read from the start of a JSON answer without parsing all of it. */
export function envelopeCodeOf(payload: unknown): number | null {
  let head: string
  if (typeof payload === 'string') head = payload.slice(0, 24)
  else if (Buffer.isBuffer(payload)) head = payload.subarray(0, 24).toString('latin1')
  else return null
  const match = /^\{\s*"code"\s*:\s*(-?\d{1,9})\b/.exec(head)
  return match ? Number(match[1]) : null
}

/**
 * The server's Prometheus metrics, in a registry of its own (docs/operations.md lists each one and
 * what to alert on). Made only when METRICS_PORT is set, so a server without metrics pays nothing.
 */
export class Metrics {
  readonly registry = new Registry()

  readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by route pattern (never the raw URL), method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  })

  readonly apiAnswers = new Counter({
    name: 'api_answers_total',
    help: 'Answers under /api by the kind of their envelope code',
    labelNames: ['code_class'] as const,
    registers: [this.registry],
  })

  readonly rateLimited = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused by a rate limit, by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  })

  readonly shed = new Counter({
    name: 'load_shed_total',
    help: 'Requests answered 503 because the process was under pressure, by the kind of pressure',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  })

  readonly upstreamDuration = new Histogram({
    name: 'upstream_request_duration_seconds',
    help: 'Proxy mode: time until the upstream answered, by status class',
    labelNames: ['status_class'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  })

  readonly upstreamErrors = new Counter({
    name: 'upstream_errors_total',
    help: 'Proxy mode: upstream calls that failed without an answer, by kind (timeout, connect, other)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  })

  readonly contractViolations = new Counter({
    name: 'upstream_contract_violations_total',
    help: 'Proxy mode: upstream answers that differ from the contract, by endpoint and field',
    labelNames: ['endpoint', 'field'] as const,
    registers: [this.registry],
  })

  readonly streamStarts = new Counter({
    name: 'stream_starts_total',
    help: 'Push channel streams opened, by how they began: replay (the missed events), snapshot_new, snapshot_gap',
    labelNames: ['start'] as const,
    registers: [this.registry],
  })

  readonly streamEvents = new Counter({
    name: 'stream_events_sent_total',
    help: 'Events written to push channel streams, by event type',
    labelNames: ['type'] as const,
    registers: [this.registry],
  })

  readonly streamSlowClosed = new Counter({
    name: 'stream_slow_readers_closed_total',
    help: 'Push channel streams closed because their reader fell over 1 MiB behind',
    registers: [this.registry],
  })

  readonly rateLimitStoreErrors = new Counter({
    name: 'rate_limit_store_errors_total',
    help: 'Rate limit counts that could not be read from Redis, by route pattern and outcome: allowed (the limit fails open) or refused (it fails closed)',
    labelNames: ['route', 'outcome'] as const,
    registers: [this.registry],
  })

  readonly streamPublishFailures = new Counter({
    name: 'stream_publish_failures_total',
    help: 'Push channel events lost because Redis could not take them (REDIS_URL); clients are sent a gap snapshot once it can',
    registers: [this.registry],
  })

  readonly upstreamReaderCalls = new Counter({
    name: 'upstream_reader_calls_total',
    help: 'Proxy mode: calls the push channel reader made to the upstream, by endpoint (about one a game a draw, whatever the number of streams)',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  })

  readonly upstreamReaderFailures = new Counter({
    name: 'upstream_reader_failures_total',
    help: 'Proxy mode: reader calls that failed (no answer, a refusal, an answer outside the contract) or found the draw not made yet after its retries, by endpoint and kind',
    labelNames: ['endpoint', 'kind'] as const,
    registers: [this.registry],
  })

  readonly ready = new Gauge({
    name: 'server_ready',
    help: '1 while /readyz answers ready, 0 otherwise (draining included)',
    registers: [this.registry],
  })

  constructor(opts: { defaultMetrics: boolean }) {
    // Process metrics: CPU, memory, event-loop lag, open handles, the Node.js version.
    if (opts.defaultMetrics) collectDefaultMetrics({ register: this.registry })
  }

  /** A gauge read when scraped (the ledger drift, the streams open). */
  gauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read())
      },
    })
  }

  /** The text Prometheus scrapes. */
  text(): Promise<string> {
    return this.registry.metrics()
  }

  get contentType(): string {
    return this.registry.contentType
  }
}
