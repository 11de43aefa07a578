import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  clockAdvanceSchema,
  clockSetSchema,
  faultRuleInputSchema,
  resetSchema,
  sessionFaultSchema,
} from '../../../shared/emu-control'
import { CODE } from '../../../shared/envelope'
import type { Config } from '../../config'
import type { EmuClock } from '../../emulator/clock'
import { ApiError, notFound } from '../../http/api-error'
import { ok } from '../../http/envelope'

const ADMIN_HEADER = 'x-emu-admin-token'

/**
 * The tester's API under /__emu. On in emulator mode; in proxy mode only when an admin token is
 * configured; whenever one is configured, every call must carry it.
 */
export async function controlRoutes(
  app: FastifyInstance,
  opts: { config: Config; clock: EmuClock },
): Promise<void> {
  const { config, clock } = opts
  const emulated = config.MODE === 'emulator'
  const r = app.withTypeProvider<ZodTypeProvider>()

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (config.EMU_ADMIN_TOKEN && request.headers[ADMIN_HEADER] !== config.EMU_ADMIN_TOKEN) {
      reply.code(403).send({ code: 403, msg: `缺少或错误的 ${ADMIN_HEADER}`, data: null })
      return reply
    }
  })

  const emulatorOnly = () => {
    if (!emulated) throw new ApiError(CODE.notFound, '代理模式下不可用：数据在上游', 409)
  }

  r.get('/state', async () =>
    ok({
      mode: config.MODE,
      clock: clock.state(),
      rules: app.faults.rules.list(),
      sessionFaults: app.faults.sessionFaultList().length,
    }),
  )

  r.post('/reset', { schema: { body: resetSchema.optional() } }, async (request) => {
    const scope = request.body?.scope
    app.faults.reset(scope)
    if (scope === undefined) {
      clock.real()
      if (emulated) await app.emu.reset()
    }
    return ok({ scope: scope ?? null })
  })

  r.post('/faults', { schema: { body: faultRuleInputSchema } }, async (request) =>
    ok(app.faults.rules.add(request.body, clock.now())),
  )
  r.get(
    '/faults',
    { schema: { querystring: z.strictObject({ scope: z.string().optional() }) } },
    async (request) => ok(app.faults.rules.list(request.query.scope)),
  )
  r.get('/faults/:id', { schema: { params: z.object({ id: z.string() }) } }, async (request) => {
    const rule = app.faults.rules.get(request.params.id)
    if (!rule) throw notFound('规则不存在')
    return ok(rule)
  })
  r.delete('/faults/:id', { schema: { params: z.object({ id: z.string() }) } }, async (request) => {
    if (!app.faults.rules.remove(request.params.id)) throw notFound('规则不存在')
    return ok(null)
  })
  r.delete(
    '/faults',
    { schema: { querystring: z.strictObject({ scope: z.string().optional() }) } },
    async (request) => ok({ removed: app.faults.rules.clear(request.query.scope) }),
  )

  r.post(
    '/sessions/:token/:fault',
    { schema: { params: z.object({ token: z.string().min(1), fault: sessionFaultSchema }) } },
    async (request) => {
      app.faults.failSession(request.params.token, request.params.fault)
      return ok(null)
    },
  )
  r.post(
    '/sessions/:token/lifetime',
    {
      schema: {
        params: z.object({ token: z.string().min(1) }),
        body: z
          .strictObject({
            ms: z.number().int().min(0).optional(),
            requests: z.number().int().min(0).optional(),
          })
          .refine((b) => b.ms !== undefined || b.requests !== undefined, { error: 'give ms or requests' }),
      },
    },
    async (request) => {
      app.faults.limitSession(request.params.token, request.body)
      return ok(null)
    },
  )

  r.get('/clock', async () => ok(clock.state()))
  r.put('/clock', { schema: { body: clockSetSchema } }, async (request) => {
    const b = request.body
    if (b.mode === 'real') clock.real()
    else if (b.mode === 'frozen') clock.freeze(b.at)
    else clock.setOffset(b.offsetMs)
    return ok(clock.state())
  })
  r.post('/clock/advance', { schema: { body: clockAdvanceSchema } }, async (request) => {
    clock.advance(request.body.ms)
    return ok(clock.state())
  })

  r.get(
    '/sms',
    { schema: { querystring: z.strictObject({ phone: z.string().optional() }) } },
    async (request) => {
      emulatorOnly()
      return ok(app.emu.accounts.sms.list(request.query.phone))
    },
  )
}
