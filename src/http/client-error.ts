import { randomUUID } from 'node:crypto';
import { Server } from 'node:http';
import { Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { errorBody } from './envelope';

/** Node's HTTP parser errors and the answer each gets. */
function answerFor(code: string | undefined): { status: number; reason: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        message: 'The request headers are too large.',
      };
    case 'HPE_REQUEST_TIMEOUT':
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        message: 'The request took too long to arrive.',
      };
    default:
      return {
        status: 400,
        reason: 'Bad Request',
        message: 'The request could not be read as HTTP.',
      };
  }
}

/**
 * Errors Node's HTTP parser raises before any route runs (headers too large,
 * broken framing) are answered in the error envelope with an x-request-id,
 * when the socket can still take an answer, instead of Node's bare status
 * line. Resets and sockets already answering are just closed.
 */
export function answerParserErrors(server: Server): void {
  const logger = new Logger('Http');
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (
      error.code === 'ECONNRESET' ||
      !socket.writable ||
      (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
    ) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const { status, reason, message } = answerFor(error.code);
    const body = JSON.stringify(errorBody('BAD_REQUEST', message));
    logger.warn(
      `HTTP parser refused a request (${error.code ?? error.message}); request id ${requestId}`,
    );
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'Connection: close\r\n' +
        '\r\n' +
        body,
    );
  });
}
