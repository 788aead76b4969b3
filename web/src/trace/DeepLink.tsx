import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { paramsOf, queryOf } from './model';

/**
 * The shell hands a trace feature its start as the frame's query (a goTo with `{lot, material}`,
 * `{ibc}` or `{shipment}`): opened here as `#/?<the same>`, where the screen keeps its state.
 */
export function DeepLink() {
  const navigate = useNavigate();
  useEffect(() => {
    const p = paramsOf(window.location.search);
    if (p && (window.location.hash === '' || window.location.hash === '#/')) navigate(`/?${queryOf(p)}`, { replace: true });
  }, [navigate]);
  return null;
}
