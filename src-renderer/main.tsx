import { createRoot } from 'react-dom/client';
import { pickBridge } from './bridge/pick-bridge.ts';
import { App } from './components/app.tsx';
import { createStores, loadAll, StoresProvider, type Stores } from './stores/stores-context.tsx';
import './styles.css';

// While the preview's event stream is down, the status bar says so (what it showed may be stale);
// once it returns, reload: events in between were missed.
const stores: Stores = createStores(
  pickBridge({
    onDisconnect: () => stores.app.setState({ bridgeLost: true }),
    onReconnect: () => {
      stores.app.setState({ bridgeLost: false });
      void loadAll(stores);
    },
  }),
);
void loadAll(stores);
const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>,
  );
