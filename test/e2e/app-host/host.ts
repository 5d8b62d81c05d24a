/**
 * A minimal MCP Apps host for the browser tests: the package's own host side (AppBridge) in a
 * page, the app in a sandboxed iframe (scripts only, an opaque origin, as hosts frame it), and
 * every tools/call the app makes sent to Node (window.hostCallTool, exposed by the test), which
 * calls the built bin with a real SDK client. Driven from the test through window.host.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

type ToolResult = Parameters<AppBridge['sendToolResult']>[0];

declare global {
  interface Window {
    hostCallTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<ToolResult>;
    /** What the app told the model (ui/update-model-context), when the test listens. */
    hostModelContext?(params: unknown): Promise<void>;
    host: {
      open(html: string, theme: 'light' | 'dark'): Promise<void>;
      showResult(result: ToolResult): Promise<void>;
      setTheme(theme: 'light' | 'dark'): Promise<void>;
    };
  }
}

let bridge: AppBridge | undefined;

window.host = {
  async open(html, theme) {
    const frame = document.createElement('iframe');
    frame.title = 'Changes in this chat';
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.style.cssText = 'width: 100%; height: 860px; border: 0';
    document.body.style.background = theme === 'dark' ? '#17191c' : '#ffffff';
    document.body.append(frame);
    bridge = new AppBridge(
      null,
      { name: 'test-host', version: '1' },
      { serverTools: {}, updateModelContext: { text: {} } },
    );
    bridge.setHostContext({ theme, displayMode: 'inline' });
    bridge.oncalltool = (params) => window.hostCallTool(params);
    bridge.onupdatemodelcontext = async (params) => {
      await window.hostModelContext?.(params);
      return {};
    };
    const initialized = new Promise<void>((resolve) => {
      bridge!.oninitialized = () => resolve();
    });
    // Listening before the page loads: the app asks ui/initialize as soon as it runs (the frame's
    // WindowProxy stays the same across its navigation to the srcdoc).
    await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
    frame.srcdoc = html;
    await initialized;
  },
  showResult: (result) => bridge!.sendToolResult(result),
  async setTheme(theme) {
    document.body.style.background = theme === 'dark' ? '#17191c' : '#ffffff';
    await bridge!.sendHostContextChange({ theme });
  },
};
