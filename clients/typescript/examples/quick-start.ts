import { createClient } from '../src';

const baseUrl = process.env.SERVICE_URL ?? 'http://localhost:3000';
const apiKey = process.env.API_KEY ?? 'dev-api-key-change-me';

/** Sign up, log in, create a business and list the owner's orders. */
export async function quickStart(email: string, password: string): Promise<void> {
  const guest = createClient({ baseUrl, apiKey });
  const signUp = await guest.POST('/public/api/v1/svc/user/register', {
    body: { email, password, password_confirmation: password, name: 'Ada', username: 'ada' },
  });
  if (signUp.error) throw new Error(signUp.error.message);

  const login = await guest.POST('/public/api/v1/svc/user/login', { body: { email, password } });
  if (!login.data) throw new Error(login.error.message);
  const owner = createClient({ baseUrl, apiKey, accessToken: login.data.data.access_token });

  const business = await owner.POST('/public/api/v1/svc/smart-meta-manager/entity/{type}', {
    params: { path: { type: 'svc_business' } },
    body: { meta_key: 'bistro', title_name: 'Bistro', extra_data: { contact_email: email } },
  });
  if (!business.data) throw new Error(business.error.message);

  const orders = await owner.GET('/public/api/v1/svc/orders', {
    params: { query: { page: 1, per_page: 20 } },
  });
  if (!orders.data) throw new Error(orders.error.message);
  process.stdout.write(`${business.data.data.uuid}: ${orders.data.meta?.total ?? 0} orders\n`);
}
