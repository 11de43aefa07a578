import { FAULT_LAYER_CONTROLS } from './control'
import type { ControlEndpoint } from './control-endpoint'
import { GAMES_CONTROLS } from './games'
import { UPSTREAM_CONTROLS } from './upstream'
import { WALLET_CONTROLS } from './wallet'

/** Every call of the control API under /__emu, for its OpenAPI document and the checks over all of them. */
export const CONTROL_ENDPOINTS: readonly ControlEndpoint[] = [
  ...FAULT_LAYER_CONTROLS,
  ...WALLET_CONTROLS,
  ...GAMES_CONTROLS,
  ...UPSTREAM_CONTROLS,
]

/** Where the control API's OpenAPI document is served, beside the calls it describes. */
export const CONTROL_OPENAPI_PATH = '/__emu/openapi.json'
