import { z } from 'zod'
import { defineControl } from './control-endpoint'

/** One kind of difference between the upstream's answers and the contract, as counted. */
const violationSchema = z.object({
  /** The endpoint's operation id (`getBalance`). */
  endpoint: z.string(),
  /** The field, list positions written `[]` (`data.list[].amount`); `(answer)` for the whole answer. */
  path: z.string(),
  /** What differs: `expected string, got number`, `not JSON`, `missing: HTTP 404`. */
  problem: z.string(),
  count: z.number().int(),
  firstAt: z.number().int(),
  lastAt: z.number().int(),
})

const contractWatchSchema = z.object({
  /** Whether answers are checked: proxy mode only (the emulator is the contract). */
  checked: z.boolean(),
  /** Share of answers checked (UPSTREAM_CONTRACT_SAMPLE). */
  sample: z.number(),
  /** What happens to an answer that differs (UPSTREAM_NONCONFORMING). */
  nonConforming: z.enum(['pass', 'refuse']),
  violations: z.array(violationSchema),
})

export const getUpstreamContract = defineControl({
  id: 'getUpstreamContract',
  method: 'GET',
  path: '/__emu/upstream/contract',
  summary: "Proxy mode: every kind of difference between the upstream's answers and the contract, counted",
  tag: 'upstream',
  data: contractWatchSchema,
})

export const clearUpstreamContract = defineControl({
  id: 'clearUpstreamContract',
  method: 'DELETE',
  path: '/__emu/upstream/contract',
  summary: 'Proxy mode: forget the counted differences',
  tag: 'upstream',
  data: z.object({ cleared: z.number().int() }),
})

export const UPSTREAM_CONTROLS = [getUpstreamContract, clearUpstreamContract] as const
