/** One email as the service writes it: plain text always, simple HTML when given. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The Message-ID header, `<id@domain>`. The outbox derives it from the row,
   * so a mail sent twice (a crash between the SMTP answer and the commit) is
   * the same message to the receiving side.
   */
  messageId?: string;
  /**
   * Values the message carries that are secrets (a one-time code, an
   * invitation token): a transport that writes the message to a log writes
   * each of them redacted. The mailbox (the outbox row) keeps them.
   */
  secrets?: string[];
}

/**
 * Where mail leaves the service. The outbox worker is its only caller:
 * modules never send directly, they enqueue in their transaction.
 * An abstract class so that it is its own injection token.
 */
export abstract class MailPort {
  /** Resolves once the message was handed over; rejects to have it retried. */
  abstract send(message: MailMessage): Promise<void>;

  /** Lets go of connections on shutdown; nothing to do for a transport that holds none. */
  close(): void {}
}
