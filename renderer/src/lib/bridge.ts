// The Electron preload may expose `window.gatehouse`; a plain browser does not. Never rely on it.

export interface DesktopBridge {
  appVersion: string;
  platform: string;
}

export function desktopBridge(): DesktopBridge | null {
  const candidate = (window as unknown as { gatehouse?: Partial<DesktopBridge> }).gatehouse;
  if (!candidate || typeof candidate.appVersion !== 'string' || typeof candidate.platform !== 'string')
    return null;
  return { appVersion: candidate.appVersion, platform: candidate.platform };
}
