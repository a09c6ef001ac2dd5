import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';

/**
 * A TCP relay on loopback in front of a PostgreSQL server (or the embedded
 * database's Unix socket): stopping it is a network cut (open connections
 * reset, new ones refused), starting it again on the same port ends the
 * outage. With `cutOn`, it cuts both sides of a connection as soon as the
 * client sends a message containing that text: the network failing at
 * that exact point of a connection's life.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** How many connections `cutOn` has cut. */
  cuts = 0;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly cutOn?: string,
  ) {}

  async start(): Promise<void> {
    const server = createServer((client) => {
      // A host that is a directory names a Unix socket in it (the embedded database).
      const upstream = this.target.host.startsWith('/')
        ? connect({ path: `${this.target.host}/.s.PGSQL.${this.target.port}` })
        : connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      if (this.cutOn === undefined) client.pipe(upstream);
      else {
        const cutOn = this.cutOn;
        client.on('data', (chunk: Buffer) => {
          if (!chunk.includes(cutOn)) return void upstream.write(chunk);
          this.cuts++;
          client.destroy();
          upstream.destroy();
        });
      }
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
