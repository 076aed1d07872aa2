export {
  A2A_METHODS,
  callOf,
  recordCall,
  sendsMessage,
  type A2ACall,
  type A2AMethod,
} from './a2a-call.js';
export { jsonRpcCallOf } from './jsonrpc-call.js';
export { isBindingRoot, matchesAsExpress, restCallOf, type RestDecision } from './rest-routes.js';
