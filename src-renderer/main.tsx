import { createRoot } from 'react-dom/client';
import { pickBridge } from './bridge/pick-bridge.ts';
import { App } from './components/app.tsx';
import { createStores, loadAll, StoresProvider, type Stores } from './stores/stores-context.tsx';
import './styles.css';

// After the preview's event stream drops and returns, reload: events in between were missed.
const stores: Stores = createStores(pickBridge({ onReconnect: () => void loadAll(stores) }));
void loadAll(stores);
const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>,
  );
