import { Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { useAuth } from '../auth/auth';
import { fixedScreen } from '../screens/registry';
import { SignedInShell, SignInScreen } from './entryScreens';
import { useServices } from './services';

function PageLoader() {
  return <div className="tm-page-loader" aria-hidden="true" />;
}

/**
 * Signed in: the shell with every route of the deployment. Signed out: the no-auth fixed
 * routes (password screens, terms), and the sign-in screen on any other path.
 */
export function App() {
  const { status } = useAuth();
  const { config } = useServices();
  if (status === 'signedIn') {
    return (
      <Suspense fallback={<PageLoader />}>
        <SignedInShell />
      </Suspense>
    );
  }
  const open = config.routes.filter((r) => r.noAuth && r.path !== '/*');
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        {open.map((r) => {
          const Screen = fixedScreen(r.screen);
          return <Route key={r.id} path={r.path} element={<Screen />} />;
        })}
        <Route path="*" element={<SignInScreen />} />
      </Routes>
    </Suspense>
  );
}
