import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, start } from './app/app';
import './styles.css';

// Started at once, while React starts: every page waits for it.
const starting = start(window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App starting={starting} />
  </StrictMode>,
);
