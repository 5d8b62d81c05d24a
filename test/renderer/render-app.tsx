import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import {
  createStores,
  loadAll,
  StoresProvider,
  type Stores,
} from '../../src-renderer/stores/stores-context.tsx';
import { createFakeApi, type FakeApi, type Overrides } from './fake-api.ts';
import type { EventChannel, EventPayloads, GraphView } from '../../src-shared/ipc-contract.ts';

/** Renders `ui` with stores fed by a fake bridge, after the first load (unless `load: false`). */
export async function renderWithStores(
  ui: ReactElement,
  options: { overrides?: Overrides; graphs?: GraphView[]; load?: boolean } = {},
): Promise<
  {
    fake: FakeApi;
    stores: Stores;
    /** Emits a core event inside act(), as the bridge would deliver it. */
    emit<E extends EventChannel>(event: E, payload: EventPayloads[E]): void;
  } & ReturnType<typeof render>
> {
  const fake = createFakeApi(options.overrides, { graphs: options.graphs });
  const stores = createStores(fake.api);
  if (options.load !== false) await loadAll(stores);
  const result = render(<StoresProvider stores={stores}>{ui}</StoresProvider>);
  const emit = <E extends EventChannel>(event: E, payload: EventPayloads[E]) =>
    act(() => fake.emit(event, payload));
  return { fake, stores, emit, ...result };
}
