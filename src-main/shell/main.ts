// Placeholder Electron entry point; the tray issue replaces it.
import { app } from 'electron';

void app.whenReady().then(() => app.quit());
