// Placeholder preload; the tray issue replaces it.
export {};
