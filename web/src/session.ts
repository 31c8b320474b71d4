// The signed-in user, shared by the shell and the pages under it; pages that change what it holds
// (a project's name) update it so the shell shows the change at once.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Me } from './types';

export const MeContext = createContext<Me | null>(null);
export const UpdateMeContext = createContext<(change: (me: Me) => Me) => void>(() => undefined);

export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the signed-in shell');
  return me;
}

export const useUpdateMe = () => useContext(UpdateMeContext);

/** The user with one project's name changed wherever Me lists it. */
export function withTeamName(me: Me, id: number, name: string): Me {
  const rename = <T extends { id: number; name: string }>(t: T): T => (t.id === id ? { ...t, name } : t);
  return {
    ...me,
    team: me.team ? rename(me.team) : me.team,
    organization: me.organization ? { ...me.organization, teams: me.organization.teams.map(rename) } : me.organization,
  };
}
