import gamesJson from '../../fixtures/games.json'
import { type GamesConfig, gamesConfigSchema } from './config'

/** The shipped fixture, validated: what the tests play with. */
export const fixtureConfig = (): GamesConfig => gamesConfigSchema.parse(gamesJson)
