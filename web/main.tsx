import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadSignedIn } from './app/app';
import { getCurrentUser } from './features/auth/api/fetch-current-user';
import './styles.css';

// Asked at once, while React starts: every page waits for the answer.
const signedIn = getCurrentUser().catch(() => null);
void signedIn.then((user) => {
  if (user) preloadSignedIn(window.location.pathname);
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App signedIn={signedIn} />
  </StrictMode>,
);
