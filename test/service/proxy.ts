import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ProxyRecord {
  method: string;
  target: string;
  proxyAuthorization?: string;
}

export interface LocalProxy {
  readonly url: string;
  readonly records: ProxyRecord[];
  stop(): Promise<void>;
}

/**
 * A forward proxy on 127.0.0.1 for tests: CONNECT tunnels (what undici's ProxyAgent uses) and absolute-URI
 * requests. It records what went through so a test can prove the dispatcher really used it.
 */
export async function startLocalProxy(): Promise<LocalProxy> {
  const records: ProxyRecord[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    records.push({ method: request.method ?? 'GET', target: request.url ?? '', proxyAuthorization: request.headers['proxy-authorization'] });
    const target = new URL(request.url ?? '');
    if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') {
      response.writeHead(403).end();
      return;
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    records.push({ method: 'CONNECT', target: request.url ?? '', proxyAuthorization: request.headers['proxy-authorization'] });
    const [host, port] = (request.url ?? '').split(':');
    if (host !== '127.0.0.1' && host !== 'localhost') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', close);
    client.on('error', close);
  });
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
