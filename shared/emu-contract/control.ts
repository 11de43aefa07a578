import {
  activateSchema,
  activationSchema,
  clockAdvanceSchema,
  clockSetSchema,
  clockStateSchema,
  emuStateSchema,
  faultRuleInputSchema,
  faultRuleSchema,
  journalFilterSchema,
  journalPageSchema,
  journalQuerySchema,
  journalVerifySchema,
  machineStateSchema,
  recordingSchema,
  recordStartSchema,
  recordStopSchema,
  resetSchema,
  scenarioSchema,
  scenarioSummarySchema,
  scopeNameSchema,
  seedSchema,
  sessionFaultSchema,
  sessionLifetimeSchema,
  setMachineStateSchema,
  verificationSchema,
} from '@shared/emu-control'
import { z } from 'zod'
import { defineControl } from './control-endpoint'

/**
 * The fault layer's calls under /__emu (docs/testing.md#reference-every-call), in both modes. Each
 * may name a scope, in its query, its body (where it has one) or the x-emu-scope header.
 */

/** `?scope=`: the scope a call reads or changes; `*` or none: every scope. */
export const scopeQuery = z.strictObject({ scope: scopeNameSchema.optional() })

// ── state ───────────────────────────────────────────────────────────────────────────────────────

export const getState = defineControl({
  id: 'getState',
  method: 'GET',
  path: '/__emu/state',
  summary: 'Mode, clock, seed, rules, session faults, scopes, scenario, state machines and journal size',
  tag: 'state',
  query: scopeQuery,
  data: emuStateSchema,
})

export const reset = defineControl({
  id: 'reset',
  method: 'POST',
  path: '/__emu/reset',
  summary:
    'Reset one scope (its rules, session faults, clock, scenario and journal), or `*`: everything, and the data back to the seed',
  tag: 'state',
  query: scopeQuery,
  body: resetSchema.nullish(),
  data: z.object({ scope: z.string() }),
})

export const setSeed = defineControl({
  id: 'setSeed',
  method: 'PUT',
  path: '/__emu/seed',
  summary: 'Seed of the generators of rules added from now on',
  tag: 'state',
  query: scopeQuery,
  body: seedSchema,
  data: z.object({ seed: z.number().int() }),
})

// ── rules ───────────────────────────────────────────────────────────────────────────────────────

const ruleRef = z.object({ id: z.string() })

export const addFault = defineControl({
  id: 'addFault',
  method: 'POST',
  path: '/__emu/faults',
  summary: 'Add a fault rule: which calls it matches, what it does to them, and when',
  tag: 'faults',
  query: scopeQuery,
  body: faultRuleInputSchema,
  data: faultRuleSchema,
})

export const listFaults = defineControl({
  id: 'listFaults',
  method: 'GET',
  path: '/__emu/faults',
  summary: "The rules, with their counters (a scope's own only, when one is named)",
  tag: 'faults',
  query: scopeQuery,
  data: z.array(faultRuleSchema),
})

export const getFault = defineControl({
  id: 'getFault',
  method: 'GET',
  path: '/__emu/faults/:id',
  summary: 'One rule, with its counters',
  tag: 'faults',
  params: ruleRef,
  query: scopeQuery,
  data: faultRuleSchema,
})

export const deleteFault = defineControl({
  id: 'deleteFault',
  method: 'DELETE',
  path: '/__emu/faults/:id',
  summary: 'Remove one rule',
  tag: 'faults',
  params: ruleRef,
  query: scopeQuery,
  data: z.null(),
})

export const clearFaults = defineControl({
  id: 'clearFaults',
  method: 'DELETE',
  path: '/__emu/faults',
  summary: "Remove one scope's rules, or `*`: every scope's (a call that names no scope is refused)",
  tag: 'faults',
  query: scopeQuery,
  data: z.object({ removed: z.number().int() }),
})

// ── recording ───────────────────────────────────────────────────────────────────────────────────

export const startRecording = defineControl({
  id: 'startRecording',
  method: 'POST',
  path: '/__emu/record',
  summary: 'Start recording what matched calls are answered, for a scenario file',
  tag: 'recording',
  query: scopeQuery,
  body: recordStartSchema,
  data: recordingSchema,
})

export const getRecording = defineControl({
  id: 'getRecording',
  method: 'GET',
  path: '/__emu/record',
  summary: 'The recording in progress, or null',
  tag: 'recording',
  query: scopeQuery,
  data: recordingSchema.nullable(),
})

export const stopRecording = defineControl({
  id: 'stopRecording',
  method: 'POST',
  path: '/__emu/record/stop',
  summary: 'Stop recording and write fixtures/scenarios/<name>.json',
  tag: 'recording',
  query: scopeQuery,
  body: recordStopSchema.nullish(),
  data: recordingSchema,
})

// ── state machines ──────────────────────────────────────────────────────────────────────────────

export const listStates = defineControl({
  id: 'listStates',
  method: 'GET',
  path: '/__emu/states',
  summary: 'Where each state machine is',
  tag: 'states',
  query: scopeQuery,
  data: z.array(machineStateSchema),
})

export const setState = defineControl({
  id: 'setState',
  method: 'PUT',
  path: '/__emu/states/:name',
  summary: 'Move a state machine (e.g. back to Started)',
  tag: 'states',
  params: z.object({ name: z.string().min(1).max(100) }),
  query: scopeQuery,
  body: setMachineStateSchema,
  data: machineStateSchema,
})

// ── sessions ────────────────────────────────────────────────────────────────────────────────────

export const failSession = defineControl({
  id: 'failSession',
  method: 'POST',
  path: '/__emu/sessions/:token/:fault',
  summary:
    'Expire or revoke a session: its next call is answered 10001 (`any`: the next call in the scope that carries a token)',
  tag: 'sessions',
  params: z.object({ token: z.string().min(1), fault: sessionFaultSchema }),
  query: scopeQuery,
  data: z.null(),
})

export const sessionLifetime = defineControl({
  id: 'sessionLifetime',
  method: 'POST',
  path: '/__emu/sessions/:token/lifetime',
  summary: 'Let a session live this long more, in emulator time or in calls',
  tag: 'sessions',
  params: z.object({ token: z.string().min(1) }),
  query: scopeQuery,
  body: sessionLifetimeSchema,
  data: z.null(),
})

// ── clock ───────────────────────────────────────────────────────────────────────────────────────

export const getClock = defineControl({
  id: 'getClock',
  method: 'GET',
  path: '/__emu/clock',
  summary: "The world clock, or a scope's",
  tag: 'clock',
  query: scopeQuery,
  data: clockStateSchema,
})

export const setClock = defineControl({
  id: 'setClock',
  method: 'PUT',
  path: '/__emu/clock',
  summary: 'Real, frozen or offset time; the world clock goes back only with force',
  tag: 'clock',
  query: scopeQuery,
  body: clockSetSchema,
  data: clockStateSchema,
})

export const advanceClock = defineControl({
  id: 'advanceClock',
  method: 'POST',
  path: '/__emu/clock/advance',
  summary: 'Move the clock forward',
  tag: 'clock',
  query: scopeQuery,
  body: clockAdvanceSchema,
  data: clockStateSchema,
})

// ── journal ─────────────────────────────────────────────────────────────────────────────────────

export const listRequests = defineControl({
  id: 'listRequests',
  method: 'GET',
  path: '/__emu/requests',
  summary: 'The journal: the newest calls that match the filters, oldest first',
  tag: 'journal',
  query: journalQuerySchema,
  data: journalPageSchema,
})

export const countRequests = defineControl({
  id: 'countRequests',
  method: 'POST',
  path: '/__emu/requests/count',
  summary: 'How many calls in the journal match the filters',
  tag: 'journal',
  query: scopeQuery,
  body: journalFilterSchema.nullish(),
  data: z.object({ count: z.number().int() }),
})

export const verifyRequests = defineControl({
  id: 'verifyRequests',
  method: 'POST',
  path: '/__emu/requests/verify',
  summary: 'Was it called N times? The count against the expectation, with up to 20 of the calls',
  tag: 'journal',
  query: scopeQuery,
  body: journalVerifySchema,
  data: verificationSchema,
})

// ── scenarios ───────────────────────────────────────────────────────────────────────────────────

const scenarioRef = z.object({ name: z.string() })

export const listScenarios = defineControl({
  id: 'listScenarios',
  method: 'GET',
  path: '/__emu/scenarios',
  summary: 'The scenarios in fixtures/scenarios',
  tag: 'scenarios',
  query: scopeQuery,
  data: z.array(scenarioSummarySchema),
})

export const getScenario = defineControl({
  id: 'getScenario',
  method: 'GET',
  path: '/__emu/scenarios/:name',
  summary: 'One scenario, as its file gives it (defaults filled in)',
  tag: 'scenarios',
  params: scenarioRef,
  query: scopeQuery,
  data: scenarioSchema,
})

export const activateScenario = defineControl({
  id: 'activateScenario',
  method: 'POST',
  path: '/__emu/scenarios/:name/activate',
  summary: "Run a scenario's steps, then set its clock, rules and session faults",
  tag: 'scenarios',
  params: scenarioRef,
  query: scopeQuery,
  body: activateSchema.nullish(),
  data: activationSchema,
})

// ── SMS ─────────────────────────────────────────────────────────────────────────────────────────

export const smsCodeSchema = z.object({
  phone: z.string(),
  purpose: z.enum(['register', 'pay_password', 'excluded', 'reset_password']),
  code: z.string(),
  sent_at: z.number().int(),
  expires_at: z.number().int(),
  /** Wrong codes tried against it. */
  attempts: z.number().int(),
  used_at: z.number().int().nullable(),
})
export type SmsCode = z.infer<typeof smsCodeSchema>

export const listSms = defineControl({
  id: 'listSms',
  method: 'GET',
  path: '/__emu/sms',
  summary: "The SMS codes the emulator 'sent', newest first (the last 100, or one phone's)",
  tag: 'sms',
  emulatorOnly: true,
  query: scopeQuery.extend({ phone: z.string().optional() }),
  data: z.array(smsCodeSchema),
})

export const FAULT_LAYER_CONTROLS = [
  getState,
  reset,
  setSeed,
  addFault,
  listFaults,
  getFault,
  deleteFault,
  clearFaults,
  startRecording,
  getRecording,
  stopRecording,
  listStates,
  setState,
  failSession,
  sessionLifetime,
  getClock,
  setClock,
  advanceClock,
  listRequests,
  countRequests,
  verifyRequests,
  listScenarios,
  getScenario,
  activateScenario,
  listSms,
] as const
