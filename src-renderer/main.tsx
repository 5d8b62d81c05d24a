import { createRoot } from 'react-dom/client';
import { pickBridge } from './bridge/pick-bridge.ts';
import { App } from './components/app.tsx';
import { createStores, loadAll, StoresProvider } from './stores/stores-context.tsx';
import './styles.css';

const stores = createStores(pickBridge());
void loadAll(stores);
const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>,
  );
