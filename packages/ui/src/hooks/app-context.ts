import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from '../api/index.js';

/** What every view needs: the API client and the project in the URL. */
export interface AppContext {
  api: ApiClient;
  project: string;
}

export const appContext = createContext<AppContext | undefined>(undefined);

export function useApp(): AppContext {
  const value = useContext(appContext);
  if (value === undefined) throw new Error('useApp() outside <appContext.Provider>');
  return value;
}
