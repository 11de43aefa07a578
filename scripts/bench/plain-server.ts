import Fastify from 'fastify'

/**
 * The baseline: a plain Fastify route answering a fixed body, with nothing else in the way.
 * Started as its own process so it gets the same share of the machine as the server measured.
 */
const body = process.env.BENCH_BODY ?? '{}'
const path = process.env.BENCH_PATH ?? '/'
const app = Fastify({ logger: false })
app.get(path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(body))
app.post(path, async (_request, reply) => reply.type('application/json; charset=utf-8').send(body))
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
const address = app.server.address()
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`)
