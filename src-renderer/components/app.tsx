import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useActivity, useApp, useTokens } from '../stores/stores-context.tsx';
import { ActivityView } from './activity/activity-view.tsx';
import { ApprovalsPanel } from './approvals/approvals-panel.tsx';
import { BlockedView } from './graphs/blocked-view.tsx';
import { ClientsView } from './clients/clients-view.tsx';
import { GraphsView } from './graphs/graphs-view.tsx';
import { RemoteAccessView } from './remote/remote-access-view.tsx';
import { RemoteIndicator } from './remote/remote-indicator.tsx';
import { SettingsView } from './settings/settings-view.tsx';
import { StatusBar } from './status-bar.tsx';

const tabs = [
  { id: 'graphs', label: 'Graphs' },
  { id: 'blocked', label: 'Blocked' },
  { id: 'activity', label: 'Activity' },
  { id: 'clients', label: 'AI clients' },
  { id: 'settings', label: 'Settings' },
] as const;
type TabId = (typeof tabs)[number]['id'];

/** The tray popover: tabs for each screen, the status bar always visible. */
export function App() {
  const [tab, setTab] = useState<TabId>('graphs');
  const blockedCount = useTokens((s) => s.blocked.length);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const focus = useApp((s) => s.focus);
  const showGraph = useApp((s) => s.showGraph);
  useEffect(() => {
    if (focus) setTab('graphs');
  }, [focus]);
  // The tray menu's Activity entry.
  const showActivity = useActivity((s) => s.showRequests);
  useEffect(() => {
    if (showActivity) setTab('activity');
  }, [showActivity]);

  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  function onKeyDown(event: KeyboardEvent) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const index = tabs.findIndex((t) => t.id === tab);
    const next = tabs[(index + step + tabs.length) % tabs.length]!;
    setTab(next.id);
    tabRefs.current[next.id]?.focus();
  }

  return (
    <div className="app">
      <header>
        <h1>Roam Companion</h1>
        <nav role="tablist" aria-label="Screens" onKeyDown={onKeyDown}>
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              ref={(element) => {
                tabRefs.current[t.id] = element;
              }}
              onClick={() => setTab(t.id)}
            >
              <TabLabel
                text={t.id === 'blocked' && blockedCount > 0 ? `${t.label} (${blockedCount})` : t.label}
                // Room for a count is kept, so one appearing never moves the tabs after it.
                widest={t.id === 'blocked' ? `${t.label} (${Math.max(blockedCount, 9)})` : t.label}
              />
            </button>
          ))}
        </nav>
      </header>
      <ApprovalsPanel />
      <main role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'graphs' && (
          <GraphsView
            onShowBlocked={() => {
              // The button that asked goes with the Graphs view: the focus moves to the Blocked tab.
              setTab('blocked');
              tabRefs.current.blocked?.focus();
            }}
          />
        )}
        {tab === 'activity' && <ActivityView />}
        {tab === 'blocked' && <BlockedView onRetried={showGraph} />}
        {tab === 'clients' && <ClientsView />}
        {tab === 'settings' && (
          <>
            <SettingsView />
            <RemoteAccessView />
          </>
        )}
      </main>
      <RemoteIndicator onShow={() => setTab('settings')} />
      <StatusBar />
    </div>
  );
}

/**
 * The label keeps the width of its bold form (of `widest`, when the text may grow), so selecting a
 * tab never moves the others.
 */
function TabLabel({ text, widest }: { text: string; widest: string }) {
  return (
    <span className="tab-label" data-label={widest}>
      {text}
    </span>
  );
}
