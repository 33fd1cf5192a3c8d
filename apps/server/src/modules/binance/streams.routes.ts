/**
 * Binance market and user data streams over WebSocket (issue 15): raw /ws/<stream> and combined
 * /stream?streams=... for spot, the same under /fstream/ for the USDT perpetuals, listenKeys, and the WebSocket
 * API's user data stream subscription (/ws-api/v3). Binance's message formats
 * (https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams).
 */
import type { FastifyPluginAsync } from 'fastify';

const streamRoutes: FastifyPluginAsync = async () => {};

export default streamRoutes;
