/**
 * The HTTP peer: a plain Fastify hello-world (GET / -> {"hello":"world"}), run as its own process on
 * the same machine as the exchange server. Usage: hello-server.ts <port>
 */
import Fastify from 'fastify';

const port = Number.parseInt(process.argv[2] ?? '0', 10);
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.listen({ port, host: '127.0.0.1' }).then(
  () => process.stdout.write('listening\n'),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
