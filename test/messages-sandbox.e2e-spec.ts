import {
  MessagesSandboxOptions,
  SandboxMessage,
  startMessagesSandbox,
} from '../tools/messages-sandbox';
import { createUser } from './support/factory';
import {
  drainMessages,
  GUEST_PHONE,
  messagingCatalog,
  moveOrder,
  placeConsentedOrder,
  storedMessages,
} from './support/guest-messages';
import { startTestApp } from './support/test-app';

// R103: the sandbox plays WhatsApp's refusal of a number; the service sends the SMS instead.
describe('npm run messages:sandbox', () => {
  it('takes the service’s messages, lists them masked, and sends WhatsApp’s signed statuses', async () => {
    const options: MessagesSandboxOptions = { port: 0, serviceUrl: '', namespace: 'svc' };
    const sandbox = await startMessagesSandbox(options);
    const t = await startTestApp(sandbox.env);
    try {
      options.serviceUrl = t.baseUrl;
      const owner = await createUser(t);
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog);
      await moveOrder(t, owner, order.uuid, 'accepted');
      await drainMessages(t);

      const listed = async () =>
        (await (await fetch(`${sandbox.url}/messages`)).json()) as SandboxMessage[];
      const [whatsapp] = await listed();
      expect(whatsapp).toMatchObject({ provider: 'whatsapp', to: `+${'*'.repeat(9)}4567` });
      expect(whatsapp.text).toContain('order_accepted (en)');
      expect(JSON.stringify(await listed())).not.toContain(GUEST_PHONE.slice(1, -4));

      const webhook = await fetch(`${sandbox.url}/whatsapp/${whatsapp.id}/failed`, {
        method: 'POST',
      });
      expect(await webhook.json()).toMatchObject({ webhook_status: 200 });
      await drainMessages(t);
      expect((await listed()).map((m) => m.provider)).toEqual(['whatsapp', 'termii']);
      expect((await storedMessages(t, order.uuid)).map((m) => [m.channel, m.status])).toEqual([
        ['whatsapp', 'failed'],
        ['sms', 'sent'],
      ]);

      const mode = await fetch(`${sandbox.url}/termii/mode/undeliverable`, { method: 'POST' });
      expect(mode.status).toBe(200);
      expect(sandbox.termii.mode).toBe('undeliverable');
    } finally {
      await t.close();
      await sandbox.close();
    }
  });
});
