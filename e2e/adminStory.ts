import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { USERS } from './harness/users';
import { newSession, openBrowser, screenshot, signIn, type Session } from './support';

export interface AdminStory {
  browser: Browser;
  /** The admin's session; `session.errors` holds the page errors seen so far. */
  session: Session;
  page: Page;
}

/**
 * A story told in order by one file's tests, signed in as the admin in one page: the browser
 * opens before the first test and closes after the last, with a screenshot `<name>-last`.
 * The fields are set once the hooks have run.
 */
export function adminStory(name: string): AdminStory {
  const story = {} as AdminStory;
  beforeAll(async () => {
    story.browser = await openBrowser();
    story.session = await newSession(story.browser);
    story.page = story.session.page;
    await signIn(story.page, USERS.admin.email, USERS.admin.password);
  });
  afterAll(async () => {
    if (story.page) await screenshot(story.page, `${name}-last`).catch(() => undefined);
    await story.browser?.close();
  });
  return story;
}
