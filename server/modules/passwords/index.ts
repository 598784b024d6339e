// The passwords module's public surface: nothing. Other modules import nothing from it; its routes are mounted by
// server/index.ts from routes.ts (the composition root).
export {};
