import { useEffect, useState } from 'preact/hooks';
import { parseRoute, type Route } from './route.js';

/** The current route, re-rendering on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
