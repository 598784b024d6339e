// The software-inventory module's public surface: nothing but its routes, which server/index.ts (the composition
// root) mounts from routes.ts. Other modules import nothing from it; anything they come to need is exported here.
export {};
