/** A bare Fastify hello-world, the yardstick scripts/bench/api.ts compares the API with. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
const url = await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(`listening on ${url}`);
process.once('SIGTERM', () => { void app.close().then(() => process.exit(0)); });
