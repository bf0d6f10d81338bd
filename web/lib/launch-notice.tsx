import { type ComponentType, createContext, type ReactNode, useContext } from 'react';

/**
 * What every launch screen (rent dialog, Create Instance, Instant Deploy) shows above its
 * button about the account (issue 26 part 6: no SSH key, with a form to add one in place).
 * Features never import one another, so the shell hands the ssh-keys feature's notice to
 * them through this context.
 */
const LaunchNoticeContext = createContext<ComponentType | null>(null);

export function LaunchNoticeProvider({
  notice,
  children,
}: {
  notice: ComponentType;
  children: ReactNode;
}) {
  return <LaunchNoticeContext.Provider value={notice}>{children}</LaunchNoticeContext.Provider>;
}

/** The launch notice the shell provides (nothing outside it). */
export function LaunchNotice() {
  const Notice = useContext(LaunchNoticeContext);
  return Notice ? <Notice /> : null;
}
