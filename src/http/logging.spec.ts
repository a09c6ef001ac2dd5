import { redactSecrets, redactUrl } from './logging';

describe('log redaction', () => {
  it('censors password* and token* fields at any depth', () => {
    expect(
      redactSecrets({
        email: 'a@b.c',
        password: 'p',
        password_confirmation: 'p',
        body: {
          new_password: 'kept?',
          token_to_reset_password: '123456',
          nested: [{ access_token: 'jwt' }],
        },
      }),
    ).toEqual({
      email: 'a@b.c',
      password: '[redacted]',
      password_confirmation: '[redacted]',
      body: {
        new_password: '[redacted]',
        token_to_reset_password: '[redacted]',
        nested: [{ access_token: '[redacted]' }],
      },
    });
  });

  it('censors credentials in query strings', () => {
    expect(redactUrl('/orders/stream?api_key=k&access_token=t&x=1')).toBe(
      '/orders/stream?api_key=[redacted]&access_token=[redacted]&x=1',
    );
  });
});
