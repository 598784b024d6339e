// The public surface of the agent versions feature: what the route table imports.
export { AgentVersionsPage } from './AgentVersionsPage';
