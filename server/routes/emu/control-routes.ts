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
import { controlRoute } from '@server/http/control-route'
import { SCOPE_HEADER } from '@shared/constants'
import * as control from '@shared/emu-contract/control'
import { ALL_SCOPES } from '@shared/emu-control'
import { CODE } from '@shared/envelope'
import type { FastifyInstance, FastifyRequest } from 'fastify'

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

  /**
   * A change to the set-up: with several processes (proxy mode, REDIS_URL) made on the shared state
   * and taken up by every process before the call answers. `journal`: it also resets that scope's
   * journal (`*`: every scope's) on every process.
   */
  const change = <T>(fn: () => T | Promise<T>, journal?: string): T | Promise<T> =>
    app.faults.shared ? app.faults.shared.change(fn, journal) : fn()
  /** Before reading the set-up: with several processes, the shared state as it is now (counters too). */
  const current = async () => {
    await app.faults.shared?.refresh()
  }

  const emulatorOnly = () => {
    if (!emulated) throw new ApiError(CODE.notFound, '代理模式下不可用：数据在上游', 409)
  }

  controlRoute(app, control.getState, async ({ request, query }) => {
    const scope = scopeOf(request, query.scope)
    await current()
    const journal = app.faults.journal
    return {
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
  })

  /**
   * The scope a call that wipes names (reset, clearing the rules): a scope, or `*` for every one.
   * Naming none is refused rather than taken as "everything": on a server shared by parallel
   * tests, a test that forgot its scope must not wipe the others' set-up.
   */
  const wipedScope = (request: FastifyRequest, refusal: string, ...given: (string | null | undefined)[]) => {
    const scope = namedScope(request, ...given)
    if (scope === null) throw new ApiError(CODE.invalidInput, refusal, 400)
    return scope
  }

  controlRoute(app, control.reset, async ({ request, query, body }) => {
    const scope = wipedScope(
      request,
      '重置哪个 scope？全部重置（数据回到种子）请给 scope=*，只重置一个 scope 请给出它的名字',
      body?.scope,
      query.scope,
    )
    await change(async () => {
      if (body?.seed !== undefined) app.faults.rules.reseed(body.seed)
      if (scope === ALL_SCOPES) {
        app.faults.reset()
        app.faults.rules.reseed(body?.seed ?? config.EMU_SEED)
        clock.real()
        if (emulated) await app.emu.reset()
      } else app.faults.reset(scope)
    }, scope)
    return { scope }
  })

  controlRoute(app, control.setSeed, ({ body }) =>
    change(() => {
      app.faults.rules.reseed(body.seed)
      return { seed: body.seed }
    }),
  )

  controlRoute(app, control.addFault, ({ request, query, body }) => {
    const scope = scopeOf(request, body.scope, query.scope)
    const { scope: _given, ...rest } = body
    const input = scope === null ? rest : { ...rest, scope }
    return change(() => {
      try {
        return app.faults.rules.add(input, clock.nowFor(scope))
      } catch (err) {
        if (err instanceof RuleInputError) throw new ApiError(CODE.invalidInput, err.message, 400)
        throw err
      }
    })
  })
  controlRoute(app, control.listFaults, async ({ request, query }) => {
    const scope = scopeOf(request, query.scope)
    await current()
    return scope === null ? app.faults.rules.list() : app.faults.rules.list(scope)
  })
  controlRoute(app, control.getFault, async ({ request, params, query }) => {
    await current()
    return ruleIn(params.id, scopeOf(request, query.scope))
  })
  controlRoute(app, control.deleteFault, ({ request, params, query }) =>
    change(() => {
      const rule = ruleIn(params.id, scopeOf(request, query.scope))
      app.faults.rules.remove(rule.id)
      return null
    }),
  )
  controlRoute(app, control.clearFaults, ({ request, query }) => {
    const scope = wipedScope(
      request,
      '清除哪个 scope 的规则？清除所有 scope 的规则请给 scope=*，只清除一个 scope 的请给出它的名字',
      query.scope,
    )
    return change(() => ({
      removed: scope === ALL_SCOPES ? app.faults.rules.clear() : app.faults.rules.clear(scope),
    }))
  })

  controlRoute(app, control.startRecording, async ({ request, query, body }) => {
    const scope = scopeOf(request, body.scope, query.scope)
    if (app.faults.recorders.has(scope)) {
      throw new ApiError(
        CODE.conflict,
        `这个 scope 已在录制 ${app.faults.recorders.get(scope)?.input.name}`,
        409,
      )
    }
    const file = scenarioFile(scenariosDir, body.name)
    if (!body.overwrite && (await stat(file).catch(() => null))) {
      throw new ApiError(CODE.conflict, `场景文件已存在: ${body.name}.json（覆盖请加 overwrite: true）`, 409)
    }
    const recorder = new Recorder(body, scope, file)
    app.faults.recorders.set(scope, recorder)
    return recorder.view()
  })
  controlRoute(app, control.getRecording, ({ request, query }) => {
    const recorder = app.faults.recorders.get(scopeOf(request, query.scope))
    return recorder ? recorder.view() : null
  })
  controlRoute(app, control.stopRecording, async ({ request, query, body }) => {
    const scope = scopeOf(request, body?.scope, query.scope)
    const recorder = app.faults.recorders.get(scope)
    if (!recorder) throw notFound('这个 scope 没有在录制')
    app.faults.recorders.delete(scope)
    try {
      await recorder.write()
    } catch (err) {
      throw new ApiError(CODE.conflict, `写不了场景文件 ${recorder.file}: ${String(err)}`, 409)
    }
    request.log.info({ file: recorder.file, recorded: recorder.view().recorded }, 'recording written')
    return recorder.view()
  })

  controlRoute(app, control.listStates, async ({ request, query }) => {
    const scope = scopeOf(request, query.scope)
    await current()
    return scope === null ? app.faults.rules.machines() : app.faults.rules.machines(scope)
  })
  controlRoute(app, control.setState, ({ request, params, query, body }) => {
    const scope = scopeOf(request, body.scope, query.scope)
    return change(() => {
      app.faults.rules.setState(scope, params.name, body.state)
      return { scope, name: params.name, state: body.state }
    })
  })

  controlRoute(app, control.failSession, ({ request, params, query }) => {
    assertSessionToken(app, params.token, emulated)
    const scope = scopeOf(request, query.scope)
    return change(() => {
      app.faults.failSession(params.token, params.fault, scope)
      return null
    })
  })
  controlRoute(app, control.sessionLifetime, ({ request, params, query, body }) => {
    assertSessionToken(app, params.token, emulated)
    const scope = scopeOf(request, query.scope)
    return change(() => {
      app.faults.limitSession(params.token, body, scope)
      return null
    })
  })

  controlRoute(app, control.getClock, async ({ request, query }) => {
    const scope = scopeOf(request, query.scope)
    await current()
    return clockView(scope)
  })
  controlRoute(app, control.setClock, ({ request, query, body }) => {
    const scope = scopeOf(request, query.scope)
    return change(() => {
      setClock(clockFor(scope), body, scope === null)
      return clockView(scope)
    })
  })
  controlRoute(app, control.advanceClock, ({ request, query, body }) => {
    const scope = scopeOf(request, query.scope)
    return change(() => {
      clockFor(scope).advance(body.ms)
      return clockView(scope)
    })
  })

  const journalOn = () => {
    const journal = app.faults.journal
    if (!journal) throw new ApiError(CODE.notFound, '请求日志已关闭 (EMU_JOURNAL_SIZE=0)', 404)
    return journal
  }
  controlRoute(app, control.listRequests, ({ request, query }) => {
    const journal = journalOn()
    const { limit, scope: _given, ...filter } = query
    const scope = scopeOf(request, query.scope)
    return {
      entries: journal.query({ ...filter, ...(scope === null ? {} : { scope }) }, limit),
      size: journal.size,
      capacity: journal.capacity,
      lastSeq: journal.newestSeq,
    }
  })
  controlRoute(app, control.countRequests, ({ request, query, body }) => {
    const journal = journalOn()
    const { scope: _given, ...filter } = body ?? {}
    const scope = scopeOf(request, body?.scope, query.scope)
    return { count: journal.count({ ...filter, ...(scope === null ? {} : { scope }) }) }
  })
  controlRoute(app, control.verifyRequests, ({ request, query, body }) => {
    const journal = journalOn()
    const { scope: _given, times, atLeast, atMost, ...filter } = body
    const scope = scopeOf(request, body.scope, query.scope)
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
    return { ok: count >= min && count <= max, count, expected, entries: journal.query(scoped, 20) }
  })

  controlRoute(app, control.listScenarios, async () => {
    const all = await loadScenarios(scenariosDir).catch(scenarioError)
    return all.map((s) => ({ name: s.name, description: s.description }))
  })
  const scenarioNamed = async (name: string) => {
    const scenario = await findScenario(scenariosDir, name).catch(scenarioError)
    if (!scenario) throw notFound(`场景不存在: ${name}`)
    return scenario
  }
  controlRoute(app, control.getScenario, ({ params }) => scenarioNamed(params.name))
  controlRoute(app, control.activateScenario, async ({ request, params, query, body }) => {
    const scenario = await scenarioNamed(params.name)
    const scope = scopeOf(request, body?.scope, query.scope)
    const activation = await change(() =>
      activateScenario(app, clock, scenario, {
        scope,
        params: body?.params ?? {},
        adminToken: config.EMU_ADMIN_TOKEN,
        emulated,
        allowData: body?.allowData,
        force: body?.force,
      }),
    )
    request.log.info({ scenario: scenario.name, scope: activation.scope }, 'scenario activated')
    return activation
  })

  controlRoute(app, control.listSms, ({ query }) => {
    emulatorOnly()
    return app.emu.accounts.sms.list(query.phone)
  })
}

function scenarioError(err: unknown): never {
  if (err instanceof ScenarioFileError) throw new ApiError(CODE.internal, err.message, 500)
  throw err
}
