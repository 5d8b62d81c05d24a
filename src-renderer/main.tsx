// Placeholder renderer entry; the UI issue replaces it.
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (root) createRoot(root).render(<p>Roam Companion</p>);
