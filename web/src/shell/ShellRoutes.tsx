import { Route, Routes } from 'react-router-dom';
import { useShell } from './shellContext';
import { RouteScreen } from './RouteScreen';

/** The router's table, generated from the routes this user may open; anything else is not found. */
export function ShellRoutes() {
  const { allowed, routes } = useShell();
  const notFound = routes.find((r) => r.path === '/*');
  return (
    <Routes>
      {allowed.filter((r) => !r.newTab && r.path !== '/*').map((r) => (
        <Route key={r.id} path={r.kind === 'feature' ? `${r.path}/*` : r.path} element={<RouteScreen route={r} />} />
      ))}
      {notFound && <Route path="*" element={<RouteScreen route={notFound} />} />}
    </Routes>
  );
}
