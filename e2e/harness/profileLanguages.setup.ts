import { beforeAll, expect } from 'vitest';
import { bearer, profileLanguage, setProfileLanguage } from '../support';
import { USERS } from './users';

/**
 * The users whose language several files change from the header (and set back at their end)
 * start every file in English: a file cut short, or a save its page closed under, must not
 * leave the next file, in whatever order vitest runs them, reading another language.
 */
beforeAll(async () => {
  for (const user of [USERS.admin, USERS.noName]) {
    const token = await bearer(user.email, user.password);
    if (await profileLanguage(token) === 'en') continue;
    await setProfileLanguage(token, 'en');
    expect(await profileLanguage(token)).toBe('en');
  }
});
