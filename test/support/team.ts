import { Catalog, newCatalog } from './entity';
import { expectOk } from './expect';
import { createUser, TestUser } from './factory';
import { lastMailTo } from './mail';
import { TestApp } from './test-app';

/** `/public/api/v1/{ns}/businesses/{business}/members` plus optional sub-path. */
export function membersPath(t: TestApp, business: string, ...rest: string[]): string {
  return [`${t.core}/businesses/${business}/members`, ...rest].join('/');
}

/** The token of the accept link in an invitation mail. */
export function invitationTokenIn(text: string): string {
  const match = /\/invitations\/accept\?token=(\S+)/.exec(text);
  if (!match) throw new Error(`No accept link in: ${text}`);
  return decodeURIComponent(match[1]);
}

/** Invites `email` with `role` as `owner`; the member record and the mailed token. */
export async function invite(
  t: TestApp,
  owner: TestUser,
  business: string,
  email: string,
  role: 'manager' | 'staff',
): Promise<{ member: any; token: string }> {
  const res = await t.http.post(membersPath(t, business)).set(owner.headers).send({ email, role });
  const member = expectOk(res, 201);
  const mail = await lastMailTo(t, email, /Invitation/);
  return { member, token: invitationTokenIn(mail.text) };
}

export function acceptRequest(t: TestApp, user: TestUser, token: string) {
  return t.http.post(`${t.core}/invitations/accept`).set(user.headers).send({ token });
}

/** Invites `user` and accepts as them: an active member. */
export async function addMember(
  t: TestApp,
  owner: TestUser,
  business: string,
  user: TestUser,
  role: 'manager' | 'staff',
): Promise<any> {
  const { token } = await invite(t, owner, business, user.email, role);
  return expectOk(await acceptRequest(t, user, token));
}

/**
 * Three people who work for one business (its owner, a manager, a staff
 * member), an outsider, and a second business of the outsider's: the cast of
 * the access tests.
 */
export interface Team {
  owner: TestUser;
  manager: TestUser;
  staff: TestUser;
  outsider: TestUser;
  catalog: Catalog;
  /** The outsider's business, which the team has no part in. */
  other: Catalog;
}

export async function newTeam(t: TestApp): Promise<Team> {
  const [owner, manager, staff, outsider] = [
    await createUser(t),
    await createUser(t),
    await createUser(t),
    await createUser(t),
  ];
  const catalog = await newCatalog(t, owner, {
    items: [
      {
        extra_data: {
          option_groups: [
            {
              key: 'size',
              title: 'Size',
              min_selected: 0,
              max_selected: 1,
              options: [{ key: 'large', title: 'Large', price_delta: '1.50' }],
            },
          ],
        },
      },
    ],
  });
  const other = await newCatalog(t, outsider, { items: [{}] });
  await addMember(t, owner, catalog.business.uuid, manager, 'manager');
  await addMember(t, owner, catalog.business.uuid, staff, 'staff');
  return { owner, manager, staff, outsider, catalog, other };
}
