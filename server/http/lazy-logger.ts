import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify'

type Bindings = FastifyBaseLoggerChildParams[0]
type ChildLoggerOptions = NonNullable<FastifyBaseLoggerChildParams[1]>
type FastifyBaseLoggerChildParams = Parameters<FastifyBaseLogger['child']>

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'

/** pino's level values. */
const LEVEL_VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
}

type Write = (...args: unknown[]) => void

/**
 * A request's logger, made on first use. pino serializes (and redacts) a child's bindings when the
 * child is created, and Fastify makes one for every request; most requests never write a line at
 * the configured level, so the child is only made when one is written. Lines, bindings (`reqId`)
 * and levels are exactly those of the child it stands for.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return (this.#child ?? this.parent).level
  }

  set level(level: string) {
    this.real().level = level
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args)
  }
  error(...args: unknown[]): void {
    this.write('error', args)
  }
  warn(...args: unknown[]): void {
    this.write('warn', args)
  }
  info(...args: unknown[]): void {
    this.write('info', args)
  }
  debug(...args: unknown[]): void {
    this.write('debug', args)
  }
  trace(...args: unknown[]): void {
    this.write('trace', args)
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options)
  }

  private write(level: Level, args: unknown[]): void {
    const current = LEVEL_VALUES[this.level] ?? 0
    if ((LEVEL_VALUES[level] ?? 0) < current) return
    const logger = this.real()
    ;(logger[level] as Write).apply(logger, args)
  }

  private real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options)
    return this.#child
  }
}

/** Fastify's childLoggerFactory: lazy children, except where a route sets its own log level. */
export const lazyChildLoggerFactory = (
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger =>
  options.level === undefined
    ? new LazyChildLogger(logger, bindings, options)
    : logger.child(bindings, options)

/**
 * Fastify's own per-request lines, "incoming request" and "request completed", are written at
 * info. When the server's level is above info they would be dropped anyway, and this skips making
 * them (a level check and two objects per request). "request errored" is written at every level.
 * Decided from the server's level: no route sets a level of its own.
 */
export class RequestLogController extends LogController {
  private readonly infoEnabled: boolean

  constructor(level: string) {
    super()
    this.infoEnabled = (LEVEL_VALUES[level] ?? 0) <= (LEVEL_VALUES.info ?? 0)
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (this.infoEnabled) super.incomingRequest(request, reply)
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error || this.infoEnabled) super.requestCompleted(error, request, reply)
  }
}
