import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from '@server/config'
import type { EmuClock } from '@server/emulator/clock'
import { Recorder, scenarioFile } from '@server/fault/recorder'
import { RuleInputError } from '@server/fault/rule-store'
import {
  activateScenario,
  findScenario,
  loadScenarios,
  ScenarioFileError,
  setClock,
} from '@server/fault/scenarios'
import { assertSessionToken } from '@server/fault/session-tokens'
import { ApiError, notFound } from '@server/http/api-error'
import { ok } from '@server/http/envelope'
import { SCOPE_HEADER } from '@shared/constants'
import {
  ALL_SCOPES,
  activateSchema,
  clockAdvanceSchema,
  clockSetSchema,
  type EmuState,
  faultRuleInputSchema,
  journalFilterSchema,
  journalQuerySchema,
  journalVerifySchema,
  recordStartSchema,
  recordStopSchema,
  resetSchema,
  scopeNameSchema,
  seedSchema,
  sessionFaultSchema,
  sessionLifetimeSchema,
  setMachineStateSchema,
} from '@shared/emu-control'
import { CODE } from '@shared/envelope'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'

const scopeQuery = z.strictObject({ scope: scopeNameSchema.optional() })

/**
 * The tester's API under /__emu. On in emulator mode; in proxy mode only when an admin token is
 * configured; whenever one is configured, every /__emu call must carry it (the fault layer's
 * guard checks, for every domain's /__emu routes).
 *
 * A call may name a scope (`x-emu-scope` header, or `scope` in its query or body): it then reads
 * and changes only that scope's rules, clock, scenario, session faults and journal.
 */
export async function controlRoutes(
  app: FastifyInstance,
  opts: { config: Config; clock: EmuClock },
): Promise<void> {
  const { config, clock } = opts
  const emulated = config.MODE === 'emulator'
  const scenariosDir = join(config.FIXTURES_DIR, 'scenarios')
  const r = app.withTypeProvider<ZodTypeProvider>()

  app.faults.enableJournal(config.EMU_JOURNAL_SIZE)
  app.faults.rules.reseed(config.EMU_SEED)

  /**
   * The scope a control call names, given as `scope` in its body or query or as the x-emu-scope
   * header (several of them must agree); `*` means every scope, as does naming none.
   */
  const namedScope = (request: FastifyRequest, ...given: (string | null | undefined)[]): string | null => {
    const header = request.headers[SCOPE_HEADER]
    const named = [...given, typeof header === 'string' && header !== '' ? header : undefined].filter(
      (g): g is string => typeof g === 'string',
    )
    const first = named[0]
    if (first !== undefined && named.some((n) => n !== first)) {
      throw new ApiError(CODE.invalidInput, `scope 不一致: ${[...new Set(named)].join(', ')}`, 400)
    }
    return first ?? null
  }
  const scopeOf = (request: FastifyRequest, ...given: (string | null | undefined)[]): string | null => {
    const scope = namedScope(request, ...given)
    return scope === ALL_SCOPES ? null : scope
  }
  /** A rule the call may see: any without a scope, else only the scope's own. */
  const ruleIn = (id: string, scope: string | null) => {
    const rule = app.faults.rules.get(id)
    if (!rule || (scope !== null && rule.scope !== scope)) throw notFound('规则不存在')
    return rule
  }
  const clockFor = (scope: string | null) => (scope === null ? clock : clock.forScope(scope))
  const clockView = (scope: string | null) => {
    const scoped = scope === null ? undefined : clock.scopeClock(scope)
    return { ...(scoped ?? clock).state(), scope: scoped ? scope : null }
  }

  const emulatorOnly = () => {
    if (!emulated) throw new ApiError(CODE.notFound, '代理模式下不可用：数据在上游', 409)
  }

  r.get('/state', { schema: { querystring: scopeQuery } }, async (request) => {
    const scope = scopeOf(request, request.query.scope)
    const journal = app.faults.journal
    const state: EmuState = {
      mode: config.MODE,
      clock: clockView(scope),
      seed: app.faults.rules.seed,
      rules: scope === null ? app.faults.rules.list() : app.faults.rules.list(scope),
      sessionFaults: app.faults.sessionFaultList().filter((s) => scope === null || s.scope === scope),
      scopes: app.faults.scopes().filter((s) => scope === null || s.scope === scope),
      scenario: app.faults.scenarioOf(scope),
      states: scope === null ? app.faults.rules.machines() : app.faults.rules.machines(scope),
      journal: {
        size: journal?.size ?? 0,
        capacity: journal?.capacity ?? 0,
        lastSeq: journal?.newestSeq ?? 0,
      },
    }
    return ok(state)
  })

  r.post('/reset', { schema: { body: resetSchema.nullish(), querystring: scopeQuery } }, async (request) => {
    const scope = namedScope(request, request.body?.scope, request.query.scope)
    if (scope === null) {
      throw new ApiError(
        CODE.invalidInput,
        '重置哪个 scope？全部重置（数据回到种子）请给 scope=*，只重置一个 scope 请给出它的名字',
        400,
      )
    }
    if (request.body?.seed !== undefined) app.faults.rules.reseed(request.body.seed)
    if (scope === ALL_SCOPES) {
      app.faults.reset()
      app.faults.rules.reseed(request.body?.seed ?? config.EMU_SEED)
      clock.real()
      if (emulated) await app.emu.reset()
    } else app.faults.reset(scope)
    return ok({ scope })
  })

  r.put('/seed', { schema: { body: seedSchema, querystring: scopeQuery } }, async (request) => {
    app.faults.rules.reseed(request.body.seed)
    return ok({ seed: request.body.seed })
  })

  r.post('/faults', { schema: { body: faultRuleInputSchema, querystring: scopeQuery } }, async (request) => {
    const scope = scopeOf(request, request.body.scope, request.query.scope)
    const { scope: _given, ...rest } = request.body
    const input = scope === null ? rest : { ...rest, scope }
    try {
      return ok(app.faults.rules.add(input, clock.nowFor(scope)))
    } catch (err) {
      if (err instanceof RuleInputError) throw new ApiError(CODE.invalidInput, err.message, 400)
      throw err
    }
  })
  r.get('/faults', { schema: { querystring: scopeQuery } }, async (request) => {
    const scope = scopeOf(request, request.query.scope)
    return ok(scope === null ? app.faults.rules.list() : app.faults.rules.list(scope))
  })
  const byId = { params: z.object({ id: z.string() }), querystring: scopeQuery }
  r.get('/faults/:id', { schema: byId }, async (request) =>
    ok(ruleIn(request.params.id, scopeOf(request, request.query.scope))),
  )
  r.delete('/faults/:id', { schema: byId }, async (request) => {
    const rule = ruleIn(request.params.id, scopeOf(request, request.query.scope))
    app.faults.rules.remove(rule.id)
    return ok(null)
  })
  r.delete('/faults', { schema: { querystring: scopeQuery } }, async (request) => {
    const scope = scopeOf(request, request.query.scope)
    return ok({ removed: scope === null ? app.faults.rules.clear() : app.faults.rules.clear(scope) })
  })

  r.post('/record', { schema: { body: recordStartSchema, querystring: scopeQuery } }, async (request) => {
    const scope = scopeOf(request, request.body.scope, request.query.scope)
    if (app.faults.recorders.has(scope)) {
      throw new ApiError(
        CODE.conflict,
        `这个 scope 已在录制 ${app.faults.recorders.get(scope)?.input.name}`,
        409,
      )
    }
    const file = scenarioFile(scenariosDir, request.body.name)
    if (!request.body.overwrite && (await stat(file).catch(() => null))) {
      throw new ApiError(
        CODE.conflict,
        `场景文件已存在: ${request.body.name}.json（覆盖请加 overwrite: true）`,
        409,
      )
    }
    const recorder = new Recorder(request.body, scope, file)
    app.faults.recorders.set(scope, recorder)
    return ok(recorder.view())
  })
  r.get('/record', { schema: { querystring: scopeQuery } }, async (request) => {
    const recorder = app.faults.recorders.get(scopeOf(request, request.query.scope))
    return ok(recorder ? recorder.view() : null)
  })
  r.post(
    '/record/stop',
    { schema: { body: recordStopSchema.nullish(), querystring: scopeQuery } },
    async (request) => {
      const scope = scopeOf(request, request.body?.scope, request.query.scope)
      const recorder = app.faults.recorders.get(scope)
      if (!recorder) throw notFound('这个 scope 没有在录制')
      app.faults.recorders.delete(scope)
      try {
        await recorder.write()
      } catch (err) {
        throw new ApiError(CODE.conflict, `写不了场景文件 ${recorder.file}: ${String(err)}`, 409)
      }
      request.log.info({ file: recorder.file, recorded: recorder.view().recorded }, 'recording written')
      return ok(recorder.view())
    },
  )

  r.get('/states', { schema: { querystring: scopeQuery } }, async (request) => {
    const scope = scopeOf(request, request.query.scope)
    return ok(scope === null ? app.faults.rules.machines() : app.faults.rules.machines(scope))
  })
  r.put(
    '/states/:name',
    {
      schema: {
        params: z.object({ name: z.string().min(1).max(100) }),
        body: setMachineStateSchema,
        querystring: scopeQuery,
      },
    },
    async (request) => {
      const scope = scopeOf(request, request.body.scope, request.query.scope)
      app.faults.rules.setState(scope, request.params.name, request.body.state)
      return ok({ scope, name: request.params.name, state: request.body.state })
    },
  )

  r.post(
    '/sessions/:token/:fault',
    {
      schema: {
        params: z.object({ token: z.string().min(1), fault: sessionFaultSchema }),
        querystring: scopeQuery,
      },
    },
    async (request) => {
      assertSessionToken(app, request.params.token, emulated)
      app.faults.failSession(
        request.params.token,
        request.params.fault,
        scopeOf(request, request.query.scope),
      )
      return ok(null)
    },
  )
  r.post(
    '/sessions/:token/lifetime',
    {
      schema: {
        params: z.object({ token: z.string().min(1) }),
        querystring: scopeQuery,
        body: sessionLifetimeSchema,
      },
    },
    async (request) => {
      assertSessionToken(app, request.params.token, emulated)
      app.faults.limitSession(request.params.token, request.body, scopeOf(request, request.query.scope))
      return ok(null)
    },
  )

  r.get('/clock', { schema: { querystring: scopeQuery } }, async (request) =>
    ok(clockView(scopeOf(request, request.query.scope))),
  )
  r.put('/clock', { schema: { body: clockSetSchema, querystring: scopeQuery } }, async (request) => {
    const scope = scopeOf(request, request.query.scope)
    setClock(clockFor(scope), request.body, scope === null)
    return ok(clockView(scope))
  })
  r.post(
    '/clock/advance',
    { schema: { body: clockAdvanceSchema, querystring: scopeQuery } },
    async (request) => {
      const scope = scopeOf(request, request.query.scope)
      clockFor(scope).advance(request.body.ms)
      return ok(clockView(scope))
    },
  )

  r.get('/requests', { schema: { querystring: journalQuerySchema } }, async (request) => {
    const journal = app.faults.journal
    if (!journal) throw new ApiError(CODE.notFound, '请求日志已关闭 (EMU_JOURNAL_SIZE=0)', 404)
    const { limit, scope: _given, ...filter } = request.query
    const scope = scopeOf(request, request.query.scope)
    return ok({
      entries: journal.query({ ...filter, ...(scope === null ? {} : { scope }) }, limit),
      size: journal.size,
      capacity: journal.capacity,
      lastSeq: journal.newestSeq,
    })
  })
  r.post(
    '/requests/count',
    { schema: { body: journalFilterSchema.nullish(), querystring: scopeQuery } },
    async (request) => {
      const journal = app.faults.journal
      if (!journal) throw new ApiError(CODE.notFound, '请求日志已关闭 (EMU_JOURNAL_SIZE=0)', 404)
      const { scope: _given, ...filter } = request.body ?? {}
      const scope = scopeOf(request, request.body?.scope, request.query.scope)
      return ok({ count: journal.count({ ...filter, ...(scope === null ? {} : { scope }) }) })
    },
  )

  r.post(
    '/requests/verify',
    { schema: { body: journalVerifySchema, querystring: scopeQuery } },
    async (request) => {
      const journal = app.faults.journal
      if (!journal) throw new ApiError(CODE.notFound, '请求日志已关闭 (EMU_JOURNAL_SIZE=0)', 404)
      const { scope: _given, times, atLeast, atMost, ...filter } = request.body
      const scope = scopeOf(request, request.body.scope, request.query.scope)
      const scoped = { ...filter, ...(scope === null ? {} : { scope }) }
      const count = journal.count(scoped)
      const min = times ?? atLeast ?? (atMost === undefined ? 1 : 0)
      const max = times ?? atMost ?? Number.POSITIVE_INFINITY
      const expected =
        times !== undefined
          ? `exactly ${times}`
          : atMost === undefined
            ? `at least ${min}`
            : atLeast === undefined
              ? `at most ${max}`
              : `between ${min} and ${max}`
      return ok({
        ok: count >= min && count <= max,
        count,
        expected,
        entries: journal.query(scoped, 20),
      })
    },
  )

  r.get('/scenarios', { schema: { querystring: scopeQuery } }, async () => {
    const all = await loadScenarios(scenariosDir).catch(scenarioError)
    return ok(all.map((s) => ({ name: s.name, description: s.description })))
  })
  const byName = { params: z.object({ name: z.string() }), querystring: scopeQuery }
  r.get('/scenarios/:name', { schema: byName }, async (request) => {
    const scenario = await findScenario(scenariosDir, request.params.name).catch(scenarioError)
    if (!scenario) throw notFound(`场景不存在: ${request.params.name}`)
    return ok(scenario)
  })
  r.post(
    '/scenarios/:name/activate',
    { schema: { ...byName, body: activateSchema.nullish() } },
    async (request) => {
      const scenario = await findScenario(scenariosDir, request.params.name).catch(scenarioError)
      if (!scenario) throw notFound(`场景不存在: ${request.params.name}`)
      const activation = await activateScenario(app, clock, scenario, {
        scope: scopeOf(request, request.body?.scope, request.query.scope),
        params: request.body?.params ?? {},
        adminToken: config.EMU_ADMIN_TOKEN,
        emulated,
        allowData: request.body?.allowData,
        force: request.body?.force,
      })
      request.log.info({ scenario: scenario.name, scope: activation.scope }, 'scenario activated')
      return ok(activation)
    },
  )

  r.get(
    '/sms',
    { schema: { querystring: scopeQuery.extend({ phone: z.string().optional() }) } },
    async (request) => {
      emulatorOnly()
      return ok(app.emu.accounts.sms.list(request.query.phone))
    },
  )
}

function scenarioError(err: unknown): never {
  if (err instanceof ScenarioFileError) throw new ApiError(CODE.internal, err.message, 500)
  throw err
}
