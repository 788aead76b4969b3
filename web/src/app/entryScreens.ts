import { lazyWithPreload } from './lazyWithPreload';

/** The two halves of the app: preloaded when it is clear which one the visitor needs next. */
export const SignInScreen = lazyWithPreload(() => import('../screens/SignIn'));
export const SignedInShell = lazyWithPreload(() => import('../shell/SignedInApp'));
